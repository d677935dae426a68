"""Same seed, same trajectory: across resets, between the single env, the
native vector env and gymnasium's SyncVectorEnv, and across processes."""

from __future__ import annotations

import multiprocessing as mp

import gymnasium as gym
import numpy as np

import yarngym
from _helpers import QUICK, actions, digest, spawn_trajectory, trajectory


def test_same_seed_same_trajectory():
    a = trajectory(None, 7, 60)
    b = trajectory(None, 7, 60)
    assert a == b
    assert sum(1 for t in a if t[0] == "reset") >= 3  # crosses several episodes
    assert trajectory(None, 8, 60) != a


def test_seed_none_draws_from_np_random():
    env = yarngym.ClusterEnv(**QUICK)
    env.reset(seed=1)
    s1 = env.episode_seed
    env.reset()
    s2 = env.episode_seed
    env.reset(seed=1)
    assert env.episode_seed == s1
    env.reset()
    assert env.episode_seed == s2 != s1


def test_episode_seed_option_replays_an_episode():
    env = yarngym.ClusterEnv(**QUICK)
    obs, info = env.reset(seed=11)
    first = [env.step(a)[0].tobytes() for a in actions(3, 1)]
    obs2, info2 = env.reset(options={"episode_seed": info["episode_seed"]})
    assert np.array_equal(obs, obs2)
    assert [env.step(a)[0].tobytes() for a in actions(3, 1)] == first


def _single_episode(seed=None, episode_seed=None, acts=None):
    env = yarngym.ClusterEnv(**QUICK)
    obs, _ = env.reset(seed=seed, options={"episode_seed": episode_seed} if episode_seed is not None else None)
    out = [obs]
    for a in acts:
        obs, r, te, tr, _ = env.step(a)
        out.append((obs, r, te, tr))
        if te or tr:
            return out
    raise AssertionError("episode did not end")


def test_vector_matches_single_envs():
    """Env i of a vector env reset with seed s runs ClusterEnv's episode for
    seed s + i; after a same-step autoreset it runs Go's derived episode,
    which ClusterEnv replays with options={"episode_seed": ...}."""
    n, seed = 4, 100
    acts = actions(80, n, seed=9).reshape(80, n, 1)
    venv = yarngym.VectorClusterEnv(n, **QUICK)
    obs, _ = venv.reset(seed=seed)
    traj = [[obs[i]] for i in range(n)]
    second = [None] * n
    episodes_done = np.zeros(n, int)
    for t in range(80):
        o, r, te, tr, info = venv.step(acts[t])
        for i in range(n):
            if episodes_done[i] >= 2:
                continue
            if te[i] or tr[i]:
                traj[i].append((info["final_obs"][i], r[i], te[i], tr[i]))
                episodes_done[i] += 1
                if episodes_done[i] == 1:
                    second[i] = (t + 1, int(venv.episode_seeds()[i]), len(traj[i]))
                    traj[i].append(o[i])
            else:
                traj[i].append((o[i], r[i], te[i], tr[i]))
    assert np.all(episodes_done == 2)
    for i in range(n):
        t1, s2, k = second[i]
        want = _single_episode(seed=seed + i, acts=acts[:, i]) + _single_episode(episode_seed=s2, acts=acts[t1:, i])
        assert len(want) == len(traj[i])
        for w, g in zip(want, traj[i]):
            if isinstance(w, tuple):
                assert np.array_equal(w[0], g[0]) and w[1:] == tuple(x.item() for x in g[1:])
            else:
                assert np.array_equal(w, g)


def test_native_vector_matches_sync_vector_env_first_episodes():
    n, seed = 3, 21
    acts = actions(30, n).reshape(30, n, 1)
    native = yarngym.VectorClusterEnv(n, **QUICK)
    sync = gym.vector.SyncVectorEnv(
        [lambda: yarngym.ClusterEnv(**QUICK)] * n, autoreset_mode=gym.vector.AutoresetMode.SAME_STEP
    )
    a, _ = native.reset(seed=seed)
    b, _ = sync.reset(seed=seed)
    assert np.array_equal(a, b)
    live = np.ones(n, bool)
    for t in range(30):
        a, ra, ta, ua, ia = native.step(acts[t])
        b, rb, tb, ub, ib = sync.step(acts[t])
        for i in np.flatnonzero(live):
            if ta[i] or ua[i]:
                assert np.array_equal(ia["final_obs"][i], ib["final_obs"][i])
                live[i] = False
            else:
                assert np.array_equal(a[i], b[i])
            assert ra[i] == rb[i] and ta[i] == tb[i] and ua[i] == ub[i]
        if not live.any():
            break
    assert not live.any()


def test_workers_do_not_change_results():
    outs = []
    for workers in (1, 2, 0):
        venv = yarngym.VectorClusterEnv(8, **QUICK, workers=workers)
        obs, _ = venv.reset(seed=3)
        h = [obs.tobytes()]
        for a in actions(25, 8).reshape(25, 8, 1):
            obs, r, te, tr, _ = venv.step(a)
            h.append((obs.tobytes(), r.tobytes(), te.tobytes(), tr.tobytes()))
        outs.append(h)
    assert outs[0] == outs[1] == outs[2]


def test_identical_across_spawned_processes():
    jobs = [("yarngym/AutoAdmin-v0", 5, 40), ("yarngym/AutoAdmin66-Fair-v0", 6, 8)]
    here = [digest(trajectory(*j)) for j in jobs]
    ctx = mp.get_context("spawn")
    with ctx.Pool(2) as pool:
        there = pool.map(spawn_trajectory, jobs + jobs)
    assert there == here + here
