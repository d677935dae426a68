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


@pytest.mark.parametrize(
    "env_id, runtime_env",
    [
        ("yarngym:yarngym/Scenario-v0", None),  # gymnasium imports yarngym in the env runner
        ("yarngym/Scenario-v0", {"worker_process_setup_hook": "yarngym.register_envs"}),  # Ray imports it in every worker
    ],
)
def test_rllib_remote_env_runners(env_id, runtime_env):
    """Env runners are Ray worker processes, which never imported yarngym:
    a plain id is unknown there (RLlib failed with an IndexError). The
    module-prefixed id, or Ray's worker setup hook, registers the ids. A few
    steps sampled remotely, in the env runner's own Go library."""
    from ray.rllib.algorithms.ppo import PPOConfig

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, runtime_env=runtime_env)
    try:
        config = (
            PPOConfig()
            .environment(env_id, env_config={"scenario": "quick", "controlled": ["max_am_share"]})
            .env_runners(num_env_runners=1, rollout_fragment_length=32)
            .training(train_batch_size_per_learner=64, minibatch_size=32, num_epochs=1)
            .debugging(seed=0)
        )
        algo = config.build_algo()
        r = algo.train()["env_runners"]
        remote = algo.env_runner_group.foreach_env_runner(
            lambda w: (type(w.env.unwrapped.envs[0].unwrapped).__qualname__, w.env.unwrapped.envs[0].unwrapped.config["scenario"], w.worker_index),
            local_env_runner=False,
        )
        algo.stop()
    finally:
        ray.shutdown()
    assert remote == [("ClusterEnv", "quick", 1)], remote
    assert r["num_env_steps_sampled"] >= 64 and math.isfinite(r.get("episode_return_mean", float("nan"))), r
