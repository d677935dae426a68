"""RLlib (new API stack) trains PPO for a few iterations on a registered task
(the env is made from Go's registry inside RLlib's env runner)."""

from __future__ import annotations

import math

import gymnasium as gym
import pytest

import yarngym  # noqa: F401  (registers the ids)

ray = pytest.importorskip("ray")  # make test installs ray[rllib]: no skip there


def test_rllib_ppo_iterations():
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.tune.registry import register_env

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        register_env("yarngym-aa66", lambda cfg: gym.make("yarngym/AutoAdmin66-Fair-v0"))
        config = (
            PPOConfig()
            .environment("yarngym-aa66")
            .env_runners(num_env_runners=0)
            .training(train_batch_size_per_learner=256, minibatch_size=64, num_epochs=2)
            .debugging(seed=0)
        )
        algo = config.build_algo()
        episodes = 0
        for _ in range(2):
            r = algo.train()["env_runners"]
            episodes += r.get("num_episodes", 0)
            assert math.isfinite(r.get("episode_return_mean", float("nan")))
        algo.stop()
    finally:
        ray.shutdown()
    assert episodes >= 20  # 512 steps of ~18-step episodes
