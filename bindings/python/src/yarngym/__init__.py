"""yarngym: a deterministic YARN-like cluster simulator as gymnasium environments.

>>> import gymnasium as gym, yarngym
>>> env = gym.make("yarngym/Quick-v0")
>>> obs, info = env.reset(seed=1)
>>> obs, reward, terminated, truncated, info = env.step(env.action_space.sample())

The Go simulator runs in a shared library reached through cffi. It is loaded
by the first environment created, never at import, so importing yarngym
before forking is safe; once an environment exists, start worker processes
with multiprocessing's "spawn" method. :class:`VectorClusterEnv` steps N
environments in one call on Go's threads (``gym.make_vec``);
:func:`set_threads` bounds those threads per process (e.g. one Ray worker).
"""

from __future__ import annotations

from ._native import YarnGymError, abi_version, library_path, set_threads
from .envs import ClusterEnv, VectorClusterEnv
from .registration import TASKS, baselines, register_envs, tasks
from .evaluation import evaluate, task_seeds
from .runs import Run, run

__all__ = [
    "ClusterEnv",
    "VectorClusterEnv",
    "YarnGymError",
    "TASKS",
    "Run",
    "run",
    "evaluate",
    "task_seeds",
    "abi_version",
    "baselines",
    "tasks",
    "library_path",
    "register_envs",
    "set_threads",
]

__version__ = "0.1.0"

register_envs()
