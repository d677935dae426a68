"""Ray Tune sweeps over yarngym's tasks and policies.

Search spaces come from the Go registries: a task's action box
(:func:`task_space`) or a policy's declared parameters, with their ranges,
integer flags and paper defaults (:func:`policy_space`). A trainable scores a
configuration as the Go tuners do: the static action played on the task's
train seeds (paired: every configuration on the same seeds), reporting the
running mean after each chunk of seeds so that ASHA can stop poor
configurations early. :func:`sweep` runs a search (Optuna by default, with
ASHA) and evaluates the best configuration on the task's test seeds.

Locally::

    import ray, yarngym.tune as yt
    ray.init(num_cpus=2)
    result = yt.sweep("AutoAdmin-v0", num_samples=24)

On a Ray cluster the same code runs after ``ray.init(address="ray://head:10001")``
(or ``address="auto"`` on a cluster node): each trial runs in a Ray worker
process, which loads the Go library itself and is limited to one Go thread
(:func:`yarngym.set_threads`); workers are fresh processes, never forks of a
process that has loaded Go. Needs ``pip install yarngym[tune]`` (ray[tune],
optuna).
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from ._native import REG_POLICIES, registry
from .evaluation import evaluate
from .registration import TASKS

__all__ = ["task_space", "policy_space", "trainable", "sweep"]


def _task(task_id: str) -> dict[str, Any]:
    key = task_id if task_id.startswith("yarngym/") else "yarngym/" + task_id
    if key not in TASKS:
        raise KeyError(f"no task {task_id!r} (tasks: {', '.join(sorted(TASKS))})")
    return TASKS[key]


def _domain(low: float, high: float, integer: bool):
    from ray import tune

    if integer:
        return tune.randint(int(np.ceil(low)), int(np.floor(high)) + 1)
    return tune.uniform(float(low), float(high))


def task_space(task_id: str) -> dict[str, Any]:
    """The task's controlled parameters as Ray Tune domains over their action
    ranges (uniform, or randint for integer parameters)."""
    t = _task(task_id)
    return {p: _domain(lo, hi, integer)
            for p, lo, hi, integer in zip(t["env"]["controlled"], t["action_low"], t["action_high"], t["action_integer"])}  # fmt: skip


def policy_space(policy: str, params: Sequence[str] | None = None) -> dict[str, Any]:
    """A policy's declared parameters (all, or ``params``) as Ray Tune
    domains over their declared ranges."""
    pols = {p["name"]: p for p in registry(REG_POLICIES)}
    if policy not in pols:
        raise KeyError(f"no policy {policy!r} (policies: {', '.join(sorted(pols))})")
    declared = {q["name"]: q for q in pols[policy]["params"]}
    names = list(params) if params is not None else list(declared)
    missing = [n for n in names if n not in declared]
    if missing:
        raise KeyError(f"policy {policy} has no parameter {missing[0]!r} (it has: {', '.join(declared)})")
    return {n: _domain(declared[n]["min"], declared[n]["max"], declared[n]["integer"]) for n in names}


def task_default(task_id: str) -> dict[str, float]:
    """The paper's default of the task's parameters, as a configuration."""
    t = _task(task_id)
    return dict(zip(t["env"]["controlled"], t["default"]))


def trainable(config: dict[str, float], *, task_id: str, n_seeds: int = 20, chunk: int = 5, threads: int = 1) -> None:
    """A Ray Tune function trainable: plays ``config`` (the task's
    parameters) on the task's first ``n_seeds`` train seeds, ``chunk`` seeds
    per reported iteration, reporting ``mean_return`` (the running mean) and
    ``seeds`` so far."""
    import yarngym
    from ray import tune

    yarngym.set_threads(threads)
    t = _task(task_id)
    action = [float(config[p]) for p in t["env"]["controlled"]]
    first = t["train_seeds"]["first"]
    rets: list[float] = []
    for start in range(0, n_seeds, chunk):
        seeds = list(range(first + start, first + min(start + chunk, n_seeds)))
        rets.extend(evaluate(task_id, action, seeds=seeds, workers=threads))
        tune.report({"mean_return": float(np.mean(rets)), "seeds": len(rets)})


def sweep(
    task_id: str,
    *,
    num_samples: int = 24,
    n_seeds: int = 20,
    chunk: int = 5,
    search: str = "optuna",
    asha: bool = True,
    seed: int = 0,
    max_concurrent: int | None = None,
    storage_path: str | None = None,
) -> dict[str, Any]:
    """Searches the task's parameters with Ray Tune and evaluates the best
    configuration (by mean train return) on the test seeds. ``search`` is
    "optuna" (TPE, seeded, starting from the paper default) or "random";
    ``asha`` stops poor trials early. Returns the best configuration, its
    train return, its test returns, and the Tune ResultGrid."""
    from ray import tune
    from ray.tune.schedulers import ASHAScheduler

    space = task_space(task_id)
    if search == "optuna":
        from ray.tune.search import ConcurrencyLimiter
        from ray.tune.search.optuna import OptunaSearch
        import optuna

        alg = OptunaSearch(points_to_evaluate=[task_default(task_id)], sampler=optuna.samplers.TPESampler(seed=seed))
        if max_concurrent:
            alg = ConcurrencyLimiter(alg, max_concurrent=max_concurrent)
    elif search == "random":
        alg = None
    else:
        raise ValueError(f"search {search!r}: want 'optuna' or 'random'")
    iters = -(-n_seeds // chunk)
    scheduler = ASHAScheduler(max_t=iters, grace_period=max(1, iters // 2), reduction_factor=2) if asha else None
    run_config = tune.RunConfig(storage_path=storage_path, verbose=0) if storage_path else tune.RunConfig(verbose=0)
    tuner = tune.Tuner(
        tune.with_parameters(trainable, task_id=task_id, n_seeds=n_seeds, chunk=chunk),
        param_space=space,
        tune_config=tune.TuneConfig(metric="mean_return", mode="max", search_alg=alg, scheduler=scheduler, num_samples=num_samples),
        run_config=run_config,
    )
    grid = tuner.fit()
    # The best configuration among those scored on every train seed (ASHA
    # stops others early: their partial means are not comparable).
    full = [r for r in grid if r.metrics and r.metrics.get("seeds") == n_seeds and r.error is None]
    best = max(full, key=lambda r: r.metrics["mean_return"])
    t = _task(task_id)
    action = [float(best.config[p]) for p in t["env"]["controlled"]]
    first, count = t["test_seeds"]["first"], t["test_seeds"]["count"]
    test = evaluate(task_id, action, seeds=list(range(first, first + count)))
    return {"best_config": dict(best.config), "best_train_return": best.metrics["mean_return"], "test_returns": test,
            "test_mean": float(np.mean(test)), "test_se": float(np.std(test, ddof=1) / np.sqrt(len(test))),
            "trials": len(grid), "trials_full": len(full), "results": grid}  # fmt: skip
