"""10^5 resets keep memory flat: no handle, buffer or Go memory leaks."""

from __future__ import annotations

import gc
import sys

import pytest

import yarngym
from _helpers import QUICK, rss_bytes

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/statm")

MiB = 1 << 20


def test_1e5_resets_keep_rss_flat():
    env = yarngym.ClusterEnv(**QUICK)
    env.reset(seed=0)
    for _ in range(5_000):  # warm up: Go heap, allocator pools
        env.reset()
    gc.collect()
    before = rss_bytes()
    for i in range(100_000):
        env.reset()
        if i % 10 == 0:
            env.step([0.5])
    gc.collect()
    after = rss_bytes()
    print(f"RSS {before / MiB:.1f} -> {after / MiB:.1f} MiB over 1e5 resets")
    assert after - before < 32 * MiB, f"RSS grew {(after - before) / MiB:.1f} MiB over 1e5 resets"


def test_creating_and_freeing_envs_keeps_rss_flat():
    def churn(k):
        for _ in range(k):
            env = yarngym.ClusterEnv(**QUICK)
            env.reset(seed=1)
            env.close()
            venv = yarngym.VectorClusterEnv(4, **QUICK)
            venv.reset(seed=1)
            del venv  # freed by its finaliser

    churn(100)
    gc.collect()
    before = rss_bytes()
    churn(1_000)
    gc.collect()
    after = rss_bytes()
    print(f"RSS {before / MiB:.1f} -> {after / MiB:.1f} MiB over 1000 env lifetimes")
    assert after - before < 32 * MiB, f"RSS grew {(after - before) / MiB:.1f} MiB over 1000 env lifetimes"
