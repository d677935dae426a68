"""yarngym: a deterministic YARN-like cluster simulator as gymnasium environments.

>>> import gymnasium as gym, yarngym
>>> env = gym.make("yarngym/OPERA-v0")        # the ids: yarngym.TASKS, and yarngym/Scenario-v0
>>> obs, info = env.reset(seed=1)
>>> obs, reward, terminated, truncated, info = env.step(env.action_space.sample())

The Go simulator runs in a shared library reached through cffi. It is loaded
by the first environment created, never at import, so importing yarngym
before forking is safe; once an environment exists, worker processes must
not be forks: yarngym then makes "spawn" multiprocessing's default start
method, unless the program chose one. :class:`VectorClusterEnv` steps N
environments in one call on Go's threads (``gym.make_vec``);
:func:`set_threads` bounds those threads per process (e.g. one Ray worker).
In a process that has not imported yarngym (an RLlib env runner, a spawned
worker), write an id with its module, ``"yarngym:yarngym/OPERA-v0"``:
gymnasium imports yarngym first, which registers the ids.
"""

from __future__ import annotations

from ._native import EnvConfig, YarnGymError, YarnGymPanic, abi_version, library_path, max_threads, set_threads
from .envs import ClusterEnv, VectorClusterEnv
from .registration import TASKS, baselines, preload_in_forkserver, register_envs, tasks
from .evaluation import evaluate, task_seeds
from .runs import Run, run

__all__ = [
    "ClusterEnv",
    "EnvConfig",
    "VectorClusterEnv",
    "YarnGymError",
    "YarnGymPanic",
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
    "max_threads",
    "set_threads",
]

__version__ = "0.1.0"

register_envs()
preload_in_forkserver()
