"""stable-baselines3: its env checker passes on every registered id and
PPO trains a few thousand steps on the native vector env."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import gymnasium as gym
import stable_baselines3  # noqa: F401  (make test installs it: no skip)

import yarngym
from _helpers import QUICK


@pytest.mark.parametrize("env_id", sorted(yarngym.TASKS) + ["yarngym/Scenario-v0"])
def test_sb3_check_env(env_id):
    from stable_baselines3.common.env_checker import check_env

    with gym.make(env_id) as env:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # a checker warning fails the test
            check_env(env.unwrapped, warn=True)


def test_vecenv_conventions():
    from yarngym.sb3 import SB3VecEnv

    venv = SB3VecEnv(3, **QUICK, max_steps=3)
    venv.seed(4)
    obs = venv.reset()
    assert obs.shape == (3, venv.observation_space.shape[0])
    for _ in range(3):
        obs, rew, dones, infos = venv.step(np.zeros((3, 1), np.float32))
    assert rew.dtype == np.float32 and dones.all()
    for info in infos:
        assert info["TimeLimit.truncated"] is True
        assert info["terminal_observation"].shape == obs.shape[1:]
        assert info["step"] == 3
    assert all(i["step"] == 0 for i in venv.reset_infos)
    # seed(4) gives env i the episode of ClusterEnv.reset(seed=4 + i)
    single = yarngym.ClusterEnv(**QUICK)
    venv.seed(4)
    obs = venv.reset()
    for i in range(3):
        assert np.array_equal(obs[i], single.reset(seed=4 + i)[0])
    assert venv.get_attr("render_mode") == [None] * 3
    assert venv.env_is_wrapped(object) == [False] * 3
    venv.close()


def test_episode_seed_schedule():
    """seed_cycle=(first, count) plays every episode on the schedule's
    next seed, wrapping, from the first reset on and after every end (the
    native autoreset's derived seeds are replaced), and an episode on seed
    s is the one ClusterEnv plays on s."""
    from yarngym.sb3 import SB3VecEnv

    venv = SB3VecEnv(2, **QUICK, max_steps=2, seed_cycle=(1000, 3))
    obs = venv.reset()
    assert list(venv.venv.episode_seeds()) == [1000, 1001]
    single = yarngym.ClusterEnv(**QUICK, max_steps=2)
    assert np.array_equal(obs[1], single.reset(options={"episode_seed": 1001})[0])
    seen = []
    for _ in range(4):  # two episodes per env
        obs, _, dones, infos = venv.step(np.zeros((2, 1), np.float32))
        if dones.any():
            seen.append(list(venv.venv.episode_seeds()))
            for i in np.flatnonzero(dones):
                assert venv.reset_infos[i]["step"] == 0
                want = single.reset(options={"episode_seed": int(seen[-1][i])})[0]
                assert np.array_equal(obs[i], want)
    assert seen == [[1002, 1000], [1001, 1002]]
    with pytest.raises(ValueError, match="seed_cycle"):
        SB3VecEnv(1, **QUICK, seed_cycle=(5, 0))
    venv.close()


def test_ppo_trains_and_beats_random():
    """SB3's PPO on a registered task (train seeds), evaluated with its mean
    action on the task's test seeds, beats the task's random-action
    baseline, paired on the same seeds."""
    import torch
    from stable_baselines3 import PPO
    from stable_baselines3.common.vec_env import VecMonitor, VecNormalize

    from yarngym.registration import env_kwargs
    from yarngym.sb3 import SB3VecEnv

    torch.manual_seed(0)
    task = yarngym.TASKS["yarngym/AutoAdmin66-Fair-v0"]
    train = (task["train_seeds"]["first"], task["train_seeds"]["count"])
    venv = SB3VecEnv(8, normalize_actions=True, seed_cycle=train, **env_kwargs(task))
    env = VecNormalize(VecMonitor(venv), clip_obs=10.0)
    model = PPO("MlpPolicy", env, n_steps=32, batch_size=64, n_epochs=4, seed=0, device="cpu", verbose=0,
                policy_kwargs=dict(net_arch=[32, 32], log_std_init=-0.5))  # fmt: skip
    model.learn(total_timesteps=4096)
    assert model.num_timesteps >= 4096 and venv.venv.num_envs == 8

    single = yarngym.ClusterEnv(normalize_actions=True, **env_kwargs(task))
    returns = []
    for s in yarngym.task_seeds("AutoAdmin66-Fair-v0", "test"):
        obs, _ = single.reset(options={"episode_seed": s})
        total, done = 0.0, False
        while not done:
            a, _ = model.predict(env.normalize_obs(obs[None]), deterministic=True)
            obs, r, te, tr, _ = single.step(np.clip(a[0], -1, 1))
            total, done = total + r, te or tr
        returns.append(total)
    rand = np.asarray(yarngym.baselines("AutoAdmin66-Fair-v0")["random"]["returns"])
    d = np.asarray(returns) - rand
    assert d.mean() > 3 * d.std(ddof=1) / np.sqrt(len(d)), (np.mean(returns), rand.mean())


def _first_obs(env_id: str, n: int, seed: int) -> np.ndarray:
    """What env i's reset(seed=seed + i) gives, as SB3's VecEnv.seed(seed) asks."""
    with gym.make(env_id.removeprefix("yarngym:")) as env:
        return np.stack([env.reset(seed=seed + i)[0] for i in range(n)])


def test_make_vec_env_default():
    """SB3's make_vec_env asks for render_mode="rgb_array" (once a
    ValueError): the envs take it, and render."""
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import DummyVecEnv

    venv = make_vec_env("yarngym/OPERA-v0", n_envs=2, seed=3)
    assert isinstance(venv, DummyVecEnv)
    obs = venv.reset()
    assert np.array_equal(obs, _first_obs("yarngym/OPERA-v0", 2, 3))
    obs, rew, dones, infos = venv.step(np.zeros((2, 2), np.float32))
    assert obs.shape == (2, 39) and rew.shape == (2,) and all(i["step"] == 1 for i in infos)
    frames = venv.get_images()
    assert len(frames) == 2 and all(f.shape == (6 * 39, 160, 3) and f.dtype == np.uint8 for f in frames)
    venv.close()


@pytest.mark.parametrize(
    "env_id, start_method",
    [
        ("yarngym/OPERA-v0", None),  # SB3's default, forkserver: yarngym is preloaded there
        ("yarngym:yarngym/OPERA-v0", "spawn"),  # a fresh process: the module-prefixed id imports yarngym
    ],
)
def test_subproc_vec_env(env_id, start_method):
    """SubprocVecEnv's workers (processes that did not import yarngym
    themselves) make the env from its id and step it as in-process."""
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import SubprocVecEnv

    kw = {"start_method": start_method} if start_method else {}
    venv = make_vec_env(env_id, n_envs=2, seed=3, vec_env_cls=SubprocVecEnv, vec_env_kwargs=kw)
    try:
        obs = venv.reset()
        assert np.array_equal(obs, _first_obs(env_id, 2, 3))
        acts = np.array([[0.5, -0.5], [-1.0, 1.0]], np.float32)
        obs, rew, dones, infos = venv.step(acts)
        with gym.make("yarngym/OPERA-v0") as env:
            env.reset(seed=4)
            want = env.step(acts[1])
        assert np.array_equal(obs[1], want[0]) and rew[1] == want[1]
        assert venv.get_attr("render_mode") == ["rgb_array"] * 2
    finally:
        venv.close()
