"""Helpers shared by the tests, importable by spawned worker processes."""

from __future__ import annotations

import hashlib

import numpy as np

QUICK = {"scenario": "quick", "controlled": ["max_am_share"]}


def actions(n_steps: int, act_dim: int, seed: int = 123) -> np.ndarray:
    """A fixed action sequence in [-1, 1] (max_am_share's range)."""
    return np.random.default_rng(seed).uniform(-1, 1, size=(n_steps, act_dim)).astype(np.float32)


def trajectory(env_id: str | None, seed: int, n_steps: int, kwargs: dict | None = None) -> list:
    """Runs one env from reset(seed) with fixed actions, resetting (without
    a seed) when an episode ends; returns every step's exact outputs."""
    import gymnasium as gym

    import yarngym  # noqa: F401  (registers the ids)

    env = gym.make(env_id, **(kwargs or {})) if env_id else yarngym.ClusterEnv(**(kwargs or QUICK))
    obs, info = env.reset(seed=seed)
    out = [("reset", obs.tobytes(), info["episode_seed"])]
    acts = actions(n_steps, env.action_space.shape[0])
    for a in acts:
        obs, r, te, tr, info = env.step(a)
        out.append((obs.tobytes(), r, te, tr, info["events"]))
        if te or tr:
            obs, info = env.reset()
            out.append(("reset", obs.tobytes(), info["episode_seed"]))
    env.close()
    return out


def digest(traj: list) -> str:
    return hashlib.sha256(repr(traj).encode()).hexdigest()


def spawn_trajectory(args: tuple) -> str:
    """For a spawned process: the digest of a trajectory, plus proof that
    the library was loaded here."""
    env_id, seed, n_steps = args
    return digest(trajectory(env_id, seed, n_steps))


def rss_bytes() -> int:
    """This process's resident set size (Linux)."""
    import os

    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def run_py(code: str, timeout: float = 180, env: dict | None = None):
    """Runs ``code`` (dedented) in a fresh Python with the tests' folder on
    its path; returns the CompletedProcess (stdout and stderr as text)."""
    import os
    import subprocess
    import sys
    import textwrap

    e = dict(os.environ, **(env or {}))
    e["PYTHONPATH"] = os.pathsep.join([os.path.dirname(os.path.abspath(__file__))] + sys.path)
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=timeout, env=e)


def debug_hook():
    """In a process whose library is a yarngym_debug build (the debug_lib
    fixture's environment): yg_debug_hook and its constants, through a cffi
    declaration of yarngym_debug_api.h over the same library (one Go runtime)."""
    import os

    import cffi

    from yarngym import _native

    _native.load()
    ffi = cffi.FFI()
    ffi.cdef(open(os.environ["YARNGYM_DEBUG_HEADER"]).read())
    return ffi.dlopen(str(_native.library_path()))
