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


def test_ppo_runs():
    from stable_baselines3 import PPO
    from stable_baselines3.common.vec_env import VecMonitor

    from yarngym.sb3 import SB3VecEnv

    venv = VecMonitor(SB3VecEnv(4, **QUICK))
    model = PPO("MlpPolicy", venv, n_steps=256, batch_size=256, n_epochs=2, seed=0, device="cpu", verbose=0)
    model.learn(total_timesteps=3072)
    assert model.num_timesteps >= 3072
    assert venv.episode_count > 50  # quick's episodes are a few steps long
    venv.close()
