"""The gymnasium ids of yarngym's environments, from Go's task registry.

Every tuning task of the Go registry (``yarngym/env/task``; ``yarngym tasks``
lists them) is registered as ``yarngym/<ID>`` with its environment: the
scenario, policy, controlled parameters and their ranges, objective, control
interval and horizon. The table is the library's own (``yg_registry``),
written by the build beside the library and read here at import without
loading Go (a process that forks after Go has loaded hangs); the library
checks it when it loads. ``yarngym/Scenario-v0`` is a generic environment
over any scenario (pass ``scenario=`` and the other keywords).

Every id has ``entry_point`` (:class:`yarngym.ClusterEnv`) and
``vector_entry_point`` (:class:`yarngym.VectorClusterEnv`), so both
``gymnasium.make(id)`` and ``gymnasium.make_vec(id, num_envs=N)`` work;
keyword arguments override the registered ones. Task ids declare normalized
actions (``normalize_actions=True``): the action space is [-1, 1] per
parameter, mapped linearly onto the parameter's range (``param_low`` /
``param_high``); pass ``normalize_actions=False`` for the parameters' own
values. Train and test seeds are in :data:`TASKS` (``train_seeds``,
``test_seeds``): an episode reset without an explicit seed plays one of the
task's train seeds (``episode_seeds``, drawn from the env's np_random), and
``options={"episode_seed": s}`` plays seed ``s`` exactly (a test seed, to
evaluate).

The ids exist in a process once yarngym is imported there. A worker process
that did not import it (an RLlib env runner, a spawned multiprocessing
worker, stable-baselines3's SubprocVecEnv with start_method="spawn") takes
the id with its module, ``"yarngym:yarngym/OPERA-v0"``: gymnasium imports
the module named before the colon, and so registers the ids, before it looks
the id up. (gymnasium >= 1.0 no longer loads packages' ``gymnasium.envs``
entry points, so a plain id cannot register itself in a fresh process.) On
Ray, ``ray.init(runtime_env={"worker_process_setup_hook":
"yarngym.register_envs"})`` registers them in every worker instead.
Forkserver workers (SubprocVecEnv's default) need no prefix: importing
yarngym adds it to multiprocessing's forkserver preload list
(:func:`preload_in_forkserver`).
"""

from __future__ import annotations

import json
from typing import Any

from ._native import CONFIG_KEYS, REG_BASELINES, REG_TASKS, registry, registry_path

__all__ = ["TASKS", "register_envs", "tasks", "baselines", "env_kwargs", "preload_in_forkserver"]

_ENTRY = "yarngym.envs:ClusterEnv"
_VECTOR_ENTRY = "yarngym.envs:VectorClusterEnv"

# Go env.Config's JSON fields, as ClusterEnv's keyword arguments.
_CONFIG_KEYS = CONFIG_KEYS

SCENARIO_ID = "yarngym/Scenario-v0"


def _read_tasks() -> list[dict[str, Any]]:
    """The tasks as the build wrote them (empty when the file is missing,
    e.g. a library given by $YARNGYM_LIBRARY: then :func:`tasks` asks the
    library)."""
    path = registry_path()
    if not path.is_file():
        return []
    return json.loads(path.read_text()) or []


#: gym id -> the task as Go's registry describes it: ``id``, ``doc``,
#: ``paper``, ``ref``, ``env`` (the env config), ``train_seeds`` and
#: ``test_seeds`` ({first, count}), ``default`` (the paper's action, in the
#: parameters' units), ``grid``, ``objective``, ``action_low`` /
#: ``action_high`` / ``action_integer``.
TASKS: dict[str, dict[str, Any]] = {t["gym_id"]: t for t in _read_tasks()}


def env_kwargs(task: dict[str, Any], split: str = "train") -> dict[str, Any]:
    """ClusterEnv keyword arguments of a task's environment on ``split``
    ("train", "validation" or "test"): a task whose seed runs draw their
    workloads from parts of a family (``split_envs``, e.g. train and test
    hours of a trace) has one per split; the others have one for all."""
    if split not in ("train", "validation", "test"):
        raise ValueError(f"split {split!r}: want 'train', 'validation' or 'test'")
    cfg = (task.get("split_envs") or {}).get(split, task["env"])
    return {k: cfg[k] for k in _CONFIG_KEYS if cfg.get(k) not in (None, [], {})}


def _train_range(task: dict[str, Any]) -> tuple[int, int] | None:
    """A task's train seeds as (first, count) (None if the registry names
    none)."""
    tr = task.get("train_seeds")
    if not tr:
        return None
    return int(tr["first"]), int(tr["count"])


def tasks() -> list[dict[str, Any]]:
    """Every registered task (see :data:`TASKS`), in registry order."""
    if TASKS:
        return list(TASKS.values())
    return registry(REG_TASKS)


def baselines(task_id: str) -> dict[str, Any]:
    """A task's saved baselines table, from Go (loads the library): the paper
    default, random actions and the best static grid setting on the test
    seeds, each with per-seed ``returns`` and ``return`` {mean, se, n}.
    ``task_id`` is the gym id or the bare id."""
    bare = task_id.removeprefix("yarngym/")
    tables = registry(REG_BASELINES)
    if bare not in tables:
        raise KeyError(f"no saved baselines for {task_id!r} (saved: {', '.join(sorted(tables))})")
    return tables[bare]


def register_envs() -> None:
    """Registers every task id and Scenario-v0 with gymnasium (idempotent)."""
    from gymnasium.envs.registration import register, registry as gym_registry

    if SCENARIO_ID not in gym_registry:
        register(id=SCENARIO_ID, entry_point=_ENTRY, vector_entry_point=_VECTOR_ENTRY, kwargs={"scenario": "quick"})
    for env_id, task in TASKS.items():
        if env_id in gym_registry:
            continue
        register(
            id=env_id,
            entry_point=_ENTRY,
            vector_entry_point=_VECTOR_ENTRY,
            # Training episodes (no explicit episode_seed) on the task's
            # train seeds, as yarngym's own learners train.
            kwargs={"normalize_actions": True, "episode_seeds": _train_range(task), **env_kwargs(task)},
        )


def preload_in_forkserver() -> None:
    """Adds yarngym to the modules multiprocessing's forkserver imports when
    it starts (``multiprocessing.set_forkserver_preload``), keeping the ones
    already listed: its workers, forks of the server, then know the ids (the
    server only imports yarngym, which never loads Go, so forking it is
    safe). No effect on a forkserver already running."""
    import multiprocessing as mp

    if "forkserver" not in mp.get_all_start_methods():
        return
    from multiprocessing import forkserver

    listed = list(getattr(getattr(forkserver, "_forkserver", None), "_preload_modules", None) or ["__main__"])
    if "yarngym" not in listed:
        mp.set_forkserver_preload(listed + ["yarngym"])
