"""stable-baselines3 adapter: the native vector env as an SB3 ``VecEnv``.

>>> from stable_baselines3 import PPO
>>> from stable_baselines3.common.vec_env import VecMonitor
>>> from yarngym.sb3 import SB3VecEnv
>>> venv = VecMonitor(SB3VecEnv(8, "quick", controlled=["max_am_share"]))
>>> PPO("MlpPolicy", venv).learn(10_000)

It follows SB3's conventions: ``dones = terminated | truncated``; an ended
env's info has ``terminal_observation`` (the ending observation; the
returned one is the new episode's first) and ``TimeLimit.truncated``
(truncated and not terminated); ``seed(s)`` seeds the next ``reset()``
with s + i for env i. ``seed_cycle=(first, count)`` instead plays every
episode, from the first reset on, on the next seed of ``first ..
first + count - 1`` in turn (wrapping), as yarngym's own PPO trains on a
task's train seeds: pass a task's ``train_seeds``. Importing this module
needs stable-baselines3.
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvIndices

from ._native import defer_sigint, resume_sigint
from .envs import VectorClusterEnv

__all__ = ["SB3VecEnv"]


class SB3VecEnv(VecEnv):
    """N yarngym environments stepped natively, as a stable-baselines3 VecEnv.

    Pass either an existing :class:`VectorClusterEnv` (``venv=``) or the
    arguments to build one (``num_envs``, ``scenario`` and the keywords of
    :class:`VectorClusterEnv`). ``seed_cycle=(first, count)``: see the
    module's doc.
    """

    def __init__(
        self,
        num_envs: int = 1,
        scenario: str = "quick",
        *,
        venv: VectorClusterEnv | None = None,
        seed_cycle: tuple[int, int] | None = None,
        **kwargs: Any,
    ):
        self.venv = venv if venv is not None else VectorClusterEnv(num_envs, scenario, **kwargs)
        self._actions: np.ndarray | None = None
        self._schedule: tuple[int, int] | None = None
        self._next = 0
        if seed_cycle is not None:
            first, count = (int(x) for x in seed_cycle)
            if first < 0 or count < 1:
                raise ValueError(f"seed_cycle=(first, count) wants first >= 0 and count >= 1, got {seed_cycle!r}")
            self._schedule = (first, count)
        super().__init__(self.venv.num_envs, self.venv.single_observation_space, self.venv.single_action_space)

    def _scheduled(self, k: int) -> list[int]:
        """The next k seeds of the schedule."""
        first, count = self._schedule  # type: ignore[misc]
        out = [first + (self._next + i) % count for i in range(k)]
        self._next += k
        return out

    # reset and step_wait hold a Ctrl-C until they have returned, as the
    # vector env's own calls do (_native.defer_sigint).

    def reset(self):
        seeds = self._seeds
        kw: dict[str, Any] = {}
        if self._schedule is not None:
            kw["options"] = {"episode_seeds": self._scheduled(self.num_envs)}
        elif any(s is not None for s in seeds):
            kw["seed"] = [None if s is None else int(s) for s in seeds]
        sig = defer_sigint()
        try:
            obs, infos = self.venv.reset(**kw)
            self.reset_infos = self._split(infos, range(self.num_envs))
            self._reset_seeds()
            self._reset_options()
        finally:
            resume_sigint(sig)
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = actions

    def step_wait(self):
        sig = defer_sigint()
        try:
            out = self._step_wait()
        finally:
            resume_sigint(sig)
        return out

    def _step_wait(self):
        obs, rewards, term, trunc, infos = self.venv.step(self._actions)
        dones = term | trunc
        out = self._split(infos, range(self.num_envs))
        for i in np.flatnonzero(dones):
            fin = infos["final_info"]
            out[i] = {k: fin[k][i].item() for k in self.venv.info_names}
            out[i]["terminal_observation"] = infos["final_obs"][i]
            self.reset_infos[i] = {k: infos[k][i].item() for k in self.venv.info_names}
        if self._schedule is not None and dones.any():
            # The native autoreset drew the new episodes' seeds: start them
            # again on the schedule's next seeds.
            ended = np.flatnonzero(dones)
            seeds = self.venv.episode_seeds().astype(np.uint64)
            seeds[ended] = self._scheduled(len(ended))
            obs, infos = self.venv.reset(options={"reset_mask": dones, "episode_seeds": [int(x) for x in seeds]})
            fresh = self._split(infos, range(self.num_envs))
            for i in ended:
                self.reset_infos[i] = fresh[i]
        for i in range(self.num_envs):
            out[i]["TimeLimit.truncated"] = bool(trunc[i] and not term[i])
        return obs, rewards.astype(np.float32), dones, out

    def _split(self, infos: dict[str, Any], idx: Iterable[int]) -> list[dict[str, Any]]:
        names = self.venv.info_names
        cols = [infos[k].tolist() for k in names]
        return [{k: c[i] for k, c in zip(names, cols)} for i in idx]

    def close(self) -> None:
        self.venv.close()

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        value = getattr(self.venv, attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        setattr(self.venv, attr_name, value)

    def env_method(self, method_name: str, *method_args, indices: VecEnvIndices = None, **method_kwargs) -> list[Any]:
        raise NotImplementedError(
            f"SB3VecEnv steps its environments natively and has no per-env objects to call {method_name!r} on"
        )

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]

    def get_images(self) -> Sequence[np.ndarray | None]:
        return [None for _ in range(self.num_envs)]
