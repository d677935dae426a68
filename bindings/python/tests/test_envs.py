"""gymnasium conformance: every registered id passes the env checker, and
the single and native vector envs return what gymnasium expects."""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode

import yarngym
from yarngym.registration import env_kwargs
from _helpers import QUICK, actions

IDS = sorted(yarngym.TASKS) + ["yarngym/Scenario-v0"]


def test_ids_come_from_the_go_registry():
    from yarngym import _native

    go = [t["gym_id"] for t in _native.registry(_native.REG_TASKS)]
    assert go and sorted(go) == sorted(yarngym.TASKS)
    assert [t["gym_id"] for t in yarngym.tasks()] == go
    registered = {k for k in gym.registry if k.startswith("yarngym/")}
    assert registered == set(go) | {"yarngym/Scenario-v0"}
    for env_id in IDS:
        spec = gym.spec(env_id)
        assert spec.entry_point == "yarngym.envs:ClusterEnv"
        assert spec.vector_entry_point == "yarngym.envs:VectorClusterEnv"
    t = yarngym.TASKS["yarngym/AutoAdmin66-Fair-v0"]
    assert t["train_seeds"]["first"] >= t["test_seeds"]["first"] + t["test_seeds"]["count"]
    assert t["default"] == [0.5] and t["env"]["horizon_s"] > 0


def test_baselines_from_go():
    b = yarngym.baselines("yarngym/AutoAdmin66-Fair-v0")
    assert len(b["default"]["returns"]) == yarngym.TASKS["yarngym/AutoAdmin66-Fair-v0"]["test_seeds"]["count"]
    assert b["best_static"]["return"]["mean"] >= b["default"]["return"]["mean"]
    with pytest.raises(KeyError):
        yarngym.baselines("yarngym/NoSuch-v0")


@pytest.mark.parametrize("env_id", sorted(yarngym.TASKS))
def test_return_is_the_objective(env_id):
    """A task's rewards add up to its objective: info["return"] and, for a
    slowdown task, minus info["episode_slowdown"] on the ending step."""
    env = gym.make(env_id)
    task = yarngym.TASKS[env_id]
    env.reset(options={"episode_seed": task["test_seeds"]["first"]})
    total, info, done = 0.0, {}, False
    while not done:
        _, r, te, tr, info = env.step(env.action_space.sample())
        total += r
        done = te or tr
    assert info["ended"] and info["return"] == pytest.approx(total, rel=1e-12)
    (name,) = task["env"]["reward"]
    key = {"slowdown": "episode_slowdown", "completion": "episode_completion_s"}[name]
    assert total == pytest.approx(-info[key], rel=1e-9)


@pytest.mark.parametrize("env_id", IDS)
def test_check_env(env_id):
    with gym.make(env_id) as env:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # a checker warning fails the test
            check_env(env.unwrapped)


@pytest.mark.parametrize("env_id", IDS)
def test_make_vec_is_native(env_id):
    with gym.make_vec(env_id, num_envs=3) as venv:
        assert isinstance(venv, yarngym.VectorClusterEnv)
        assert venv.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
        obs, info = venv.reset(seed=0)
        assert obs.shape == (3,) + venv.single_observation_space.shape
        assert obs in venv.observation_space
        obs, rew, term, trunc, info = venv.step(venv.action_space.sample())
        assert obs in venv.observation_space
        assert rew.dtype == np.float64 and term.dtype == np.bool_ and trunc.dtype == np.bool_


def test_scenario_env_takes_kwargs():
    with gym.make("yarngym/Scenario-v0", scenario="dress-fig1", control_interval_s=5, max_steps=3) as env:
        u = env.unwrapped
        assert u.config["scenario"] == "dress-fig1" and u.config["control_interval_s"] == 5
        assert env.action_space.shape == (0,)
        env.reset(seed=1)
        for _ in range(3):
            _, _, te, tr, _ = env.step(env.action_space.sample())
        assert te or tr


def test_types_and_bounds_over_episodes():
    env = yarngym.ClusterEnv(**QUICK, control_interval_s=20)
    assert env.feature_names[0] == "time_frac" and env.feature_names[-1] == "param.max_am_share"
    assert env.action_names == ["max_am_share"]
    assert len(env.feature_names) == env.observation_space.shape[0]
    assert np.all(np.isfinite(env.observation_space.low)) and np.all(np.isfinite(env.observation_space.high))
    obs, info = env.reset(seed=3)
    assert info["step"] == 0 and info["sim_time_s"] == 0.0
    assert all(info[k] == 0 for k in env.info_names if k != "horizon_s")  # the reset info (see VectorClusterEnv)
    assert info["horizon_s"] > 0
    ended = 0
    for a in actions(200, 1):
        obs, r, te, tr, info = env.step(a)
        assert obs.dtype == np.float32 and obs in env.observation_space
        assert type(r) is float and type(te) is bool and type(tr) is bool
        assert type(info["events"]) is int and type(info["utilization"]) is float
        if te or tr:
            ended += 1
            obs, info = env.reset()
    assert ended >= 2
    assert env.render() is None


def test_render_ansi():
    env = yarngym.ClusterEnv(**QUICK, render_mode="ansi")
    env.reset(seed=1)
    env.step(np.array([0.5], np.float32))
    assert env.render().startswith("t=60s/")


def test_action_sets_parameter():
    env = yarngym.ClusterEnv(**QUICK)
    env.reset(seed=1)
    i = env.feature_names.index("param.max_am_share")
    obs, *_ = env.step(np.array([0.5], np.float32))
    assert obs[i] == pytest.approx(0.75)  # (0.5 - -1) / (1 - -1)
    obs, *_ = env.step([7.0])  # clipped to the range by Go
    assert obs[i] == pytest.approx(1.0)


def test_max_steps_truncates():
    env = yarngym.ClusterEnv("quick", max_steps=2, control_interval_s=1)
    env.reset(seed=1)
    assert env.step(None)[2:4] == (False, False)
    assert env.step(None)[2:4] == (False, True)


def test_vector_same_step_autoreset():
    venv = yarngym.VectorClusterEnv(4, **QUICK)
    obs, _ = venv.reset(seed=5)
    seeds0 = venv.episode_seeds()
    acts = np.full((4, 1), 0.5, np.float32)
    saw_end = False
    for _ in range(40):
        obs, rew, term, trunc, info = venv.step(acts)
        ended = term | trunc
        if ended.any():
            saw_end = True
            assert np.array_equal(info["_final_obs"], ended)
            for i in np.flatnonzero(ended):
                assert info["final_obs"][i] in venv.single_observation_space
                assert info["final_info"]["step"][i] > 0 and info["step"][i] == 0
                assert obs[i][0] == 0.0  # the new episode starts at time 0
            assert np.all(venv.episode_seeds()[ended] != seeds0[ended])
            break
    assert saw_end


def test_vector_copy_false_returns_views():
    venv = yarngym.VectorClusterEnv(2, "quick", copy=False)
    a, _ = venv.reset(seed=0)
    b, *_ = venv.step(None)
    assert a is b  # the native buffer, overwritten in place


def test_vector_reset_mask():
    venv = yarngym.VectorClusterEnv(3, **QUICK)
    venv.reset(seed=0)
    for _ in range(2):
        obs, *_ = venv.step(np.zeros((3, 1)))
    seeds = venv.episode_seeds()
    obs2, _ = venv.reset(options={"reset_mask": [False, True, False]})
    assert obs2[1][0] == 0.0 and np.array_equal(obs2[0], obs[0]) and np.array_equal(obs2[2], obs[2])
    s2 = venv.episode_seeds()
    assert s2[0] == seeds[0] and s2[2] == seeds[2] and s2[1] != seeds[1]


def test_registered_ids_normalize_actions():
    env = gym.make("yarngym/OPERA-v0").unwrapped
    assert env.action_names == ["rho", "posterior_cutoff"]
    assert np.all(env.action_space.low == -1) and np.all(env.action_space.high == 1)
    assert env.param_low[0] == pytest.approx(0.5) and env.param_high[0] == pytest.approx(2)
    env.reset(seed=1)
    i, j = env.feature_names.index("param.rho"), env.feature_names.index("param.posterior_cutoff")
    obs, *_ = env.step(np.array([-1.0, 1.0], np.float32))
    assert obs[i] == pytest.approx(0.0, abs=1e-6) and obs[j] == pytest.approx(1.0)
    obs, *_ = env.step(np.array([0.0, -0.5], np.float32))
    assert obs[i] == pytest.approx(0.5) and obs[j] == pytest.approx(0.25)
    raw = gym.make("yarngym/OPERA-v0", normalize_actions=False).unwrapped
    assert raw.action_space.low[0] == pytest.approx(0.5)
    with gym.make_vec("yarngym/OPERA-v0", num_envs=2) as venv:
        assert np.all(venv.single_action_space.high == 1)
        venv.reset(seed=0)
        obs, *_ = venv.step(np.array([[-1.0, 1.0], [1.0, -1.0]], np.float32))
        assert obs[0, i] == pytest.approx(0.0, abs=1e-6) and obs[1, i] == pytest.approx(1.0)


def _documentation() -> dict[str, str]:
    """Where ids are documented: help(yarngym)'s text (the module's
    docstring), the package's source (every docstring), the README and the
    notebooks' cells."""
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    docs = {"help(yarngym)": yarngym.__doc__}
    for p in sorted((root / "bindings" / "python" / "src" / "yarngym").glob("*.py")):
        docs[p.name] = p.read_text()
    docs["README.md"] = (root / "README.md").read_text()
    for p in sorted((root / "notebooks").glob("*.ipynb")):
        docs[p.name] = "\n".join("".join(c["source"]) for c in json.loads(p.read_text())["cells"])
    return docs


def test_documented_ids_exist():
    """Every id the documentation writes in quotes exists: gym ids
    ("yarngym/X-v0", "yarngym:yarngym/X-v0") are registered, bare task ids
    ("X-v0") are tasks. help(yarngym)'s example once used yarngym/Quick-v0."""
    import re

    pat = re.compile(r"""["'](yarngym:)?(yarngym/)?([A-Za-z][A-Za-z0-9_-]*-v\d+)["']""")
    seen = set()
    for where, text in _documentation().items():
        for prefix, ns, name in pat.findall(text):
            gym_id = "yarngym/" + name
            if ns:
                assert gym_id in gym.registry, f"{where} documents {prefix}{ns}{name}, which is not registered"
            else:
                assert gym_id in yarngym.TASKS, f"{where} documents task {name!r}, which is not a task"
            seen.add((where, prefix + ns + name))
    assert ("help(yarngym)", "yarngym/OPERA-v0") in seen and ("README.md", "yarngym:yarngym/OPERA-v0") in seen
    # The module-prefixed form resolves as documented.
    with gym.make("yarngym:yarngym/OPERA-v0") as env:
        assert env.unwrapped.config["scenario"] == yarngym.TASKS["yarngym/OPERA-v0"]["env"]["scenario"]


@pytest.mark.parametrize("env_id", ["yarngym/OPERA-v0", "yarngym/Scenario-v0"])
def test_render_rgb_array(env_id):
    """render_mode="rgb_array" (what stable-baselines3's make_vec_env asks
    for by default): a bar per observation feature, its length the
    feature's place in its bounds."""
    with gym.make(env_id, render_mode="rgb_array") as env:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            check_env(env.unwrapped)
        obs, _ = env.reset(seed=1)
        obs, *_ = env.step(env.action_space.sample())
        img = env.render()
        space = env.observation_space
        assert img.dtype == np.uint8 and img.shape == (6 * len(obs), 160, 3)
        frac = (obs - space.low) / (space.high - space.low)
        fg = np.array([70, 160, 230], np.uint8)
        lengths = (img[3::6] == fg).all(axis=2).sum(axis=1)  # each feature's middle row
        assert np.array_equal(lengths, np.rint(np.clip(frac, 0, 1) * 160).astype(int))
        assert lengths.max() > 0


def test_async_vector_env_works_by_default():
    """gym.make_vec(..., vectorization_mode="async") starts worker processes
    with multiprocessing's default context: a fork of a process that has
    loaded Go could not use it (ConnectionResetError). Once Go is loaded
    yarngym makes "spawn" the default, unless the program chose a method."""
    from _helpers import run_py

    r = run_py(
        """
        import multiprocessing as mp, numpy as np, gymnasium as gym, yarngym
        native = gym.make_vec("yarngym/OPERA-v0", num_envs=2)  # loads Go
        want, _ = native.reset(seed=5)
        venv = gym.make_vec("yarngym/OPERA-v0", num_envs=2, vectorization_mode="async")
        obs, _ = venv.reset(seed=5)
        assert np.array_equal(obs, want), (obs, want)
        acts = np.zeros((2, 2), np.float32)
        obs, rew, *_ = venv.step(acts)
        nobs, nrew, *_ = native.step(acts)
        assert np.array_equal(obs, nobs) and np.array_equal(rew, nrew)
        venv.close()
        assert mp.get_start_method() == "spawn", mp.get_start_method()
        print("ok")
        """
    )
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stdout + r.stderr[-3000:]
    # A program that chose its start method keeps it.
    r = run_py(
        """
        import multiprocessing as mp, yarngym
        mp.set_start_method("forkserver")
        yarngym.ClusterEnv("quick")
        print(mp.get_start_method())
        """
    )
    assert r.returncode == 0 and r.stdout.strip() == "forkserver", r.stdout + r.stderr[-3000:]


def test_task_ids_train_on_train_seeds():
    """A registered task's env, reset without an explicit episode seed,
    plays one of the task's train seeds (single env, and the native vector
    env through its autoresets); reset(seed=s) still draws reproducibly; an
    explicit episode_seed (a test seed) is played as given; a bad range is
    refused."""
    task_id = "yarngym/AutoAdmin66-Fair-v0"
    tr = yarngym.TASKS[task_id]["train_seeds"]
    lo, hi = tr["first"], tr["first"] + tr["count"]
    with gym.make(task_id, max_steps=2) as env:
        drawn = [env.reset(seed=s)[1]["episode_seed"] for s in (1, 2, 1)]
        assert all(lo <= d < hi for d in drawn) and drawn[0] == drawn[2]
        assert env.reset(options={"episode_seed": 3})[1]["episode_seed"] == 3
    venv = yarngym.VectorClusterEnv(3, **QUICK, max_steps=2, episode_seeds=(lo, tr["count"]))
    venv.reset(seed=7)
    first = venv.episode_seeds().copy()
    single = yarngym.ClusterEnv(**QUICK, max_steps=2)
    for _ in range(4):  # two episodes each, the autoresets redrawn
        obs, _, term, trunc, _ = venv.step(np.zeros((3, 1), np.float32))
        seeds = venv.episode_seeds()
        assert all(lo <= s < hi for s in seeds)
        for i in np.flatnonzero(term | trunc):  # the new episode's first observation
            assert np.array_equal(obs[i], single.reset(options={"episode_seed": int(seeds[i])})[0])
    assert all(lo <= s < hi for s in first)
    venv.close()
    with pytest.raises(ValueError, match="episode_seeds"):
        yarngym.ClusterEnv(**QUICK, episode_seeds=(1, 0))


def test_task_seeds_splits_are_disjoint():
    # Every task's train, validation and test seeds as Python reads them
    # (the first 20 train seeds) are disjoint runs, and an unknown split
    # names the ones there are.
    for t in yarngym.tasks():
        tid = t["id"]
        train = set(yarngym.task_seeds(tid, "train"))
        val = set(yarngym.task_seeds(tid, "validation"))
        test = set(yarngym.task_seeds(tid, "test"))
        assert len(val) == t["validation_seeds"]["count"] and len(test) == t["test_seeds"]["count"]
        assert not (train & val) and not (train & test) and not (val & test), tid
    with pytest.raises(ValueError, match="validation"):
        yarngym.task_seeds("AutoAdmin-v0", "held-out")


def test_env_kwargs_per_split():
    # A task whose seed runs draw their workloads from parts of a trace
    # (DRESS-FB5-v0: FB-2009 hours) gives each split its own environment,
    # the train one being the registered "env"; a task without splits has
    # one environment for all three.
    by_id = {t["id"]: t for t in yarngym.tasks()}
    fb = by_id["DRESS-FB5-v0"]
    train, val, test = (env_kwargs(fb, s) for s in ("train", "validation", "test"))
    assert train == env_kwargs(fb)
    assert train["sets"] != test["sets"] and val["sets"] not in (train["sets"], test["sets"])
    plain = by_id["AutoAdmin-v0"]
    assert env_kwargs(plain, "test") == env_kwargs(plain)
    with pytest.raises(ValueError, match="validation"):
        env_kwargs(plain, "held-out")
