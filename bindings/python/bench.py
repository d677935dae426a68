"""Step-rate benchmark of the Python bindings (not a test; prints a table).

    .venv/bin/python bindings/python/bench.py [--seconds 2] [--intervals 60,1] [--no-go]

Measures, on scenario "quick" with resets included whenever an episode ends
(and, last, every registered task with random actions):
  - Go only: `go test ./env -bench` (Env.Step and Batch.Step, 60 s steps);
  - raw C ABI: NativeBatch.step on one env in a loop (cffi call + Go);
  - Python single env: yarngym.ClusterEnv.step;
  - gymnasium SyncVectorEnv over ClusterEnv and the native VectorClusterEnv,
    N = 8 and 64 (env steps per second = vector steps x N);
at each control interval given (60 s is the default environment; a short
interval makes each Go step cheap, so per-call overheads show).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import gymnasium as gym
import numpy as np

import yarngym
from yarngym._native import NativeBatch

ROOT = Path(__file__).resolve().parents[2]


def rate(fn, seconds: float, windows: int = 3) -> float:
    """Calls fn() (which returns the env steps it did) for about `seconds`,
    in `windows` windows; returns the best window's env steps per second
    (the least disturbed by other load on the machine)."""
    fn()  # warm-up
    best = 0.0
    for _ in range(windows):
        n, t0 = 0, time.perf_counter()
        while True:
            n += fn()
            dt = time.perf_counter() - t0
            if dt >= seconds / windows:
                break
        best = max(best, n / dt)
    return best


def bench_raw(interval: float, seconds: float) -> float:
    b = NativeBatch({"scenario": "quick", "control_interval_s": interval}, 1, workers=1, autoreset=False)
    seed = [1]
    b.reset(seed)
    step, term, trunc = b.step, b.terminated, b.truncated

    def run():
        for _ in range(200):
            step()
            if term[0] or trunc[0]:
                seed[0] += 1
                b.reset(seed)
        return 200

    r = rate(run, seconds)
    b.close()
    return r


def bench_single(interval: float, seconds: float, controlled: bool = False) -> float:
    env = yarngym.ClusterEnv("quick", control_interval_s=interval, controlled=["max_am_share"] if controlled else None)
    env.reset(seed=1)
    a = np.full(env.action_space.shape, 0.5, np.float32)

    def run():
        for _ in range(200):
            _, _, te, tr, _ = env.step(a)
            if te or tr:
                env.reset()
        return 200

    r = rate(run, seconds)
    env.close()
    return r


def bench_vector(venv, n: int, seconds: float) -> float:
    venv.reset(seed=1)
    acts = np.zeros((n, 0), np.float32)

    def run():
        for _ in range(10):
            venv.step(acts)
        return 10 * n

    r = rate(run, seconds)
    venv.close()
    return r


def bench_task(env_id: str, n: int, seconds: float) -> float:
    """A registered task's native vector env with random actions (what a
    learner sees): env steps per second."""
    venv = gym.make_vec(env_id, num_envs=n)
    venv.reset(seed=1)
    rng = np.random.default_rng(0)
    acts = rng.uniform(-1, 1, size=(64,) + venv.action_space.shape).astype(np.float32)

    def run():
        for k in range(10):
            venv.step(acts[k % 64])
        return 10 * n

    r = rate(run, seconds)
    venv.close()
    return r


def go_bench(seconds: float) -> list[tuple[str, float]]:
    cmd = ["go", "test", "./env", "-run", "^$", "-bench", "^(BenchmarkEnvStep|BenchmarkBatchStep)$", "-benchtime", f"{seconds}s"]
    try:
        out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600).stdout
    except (OSError, subprocess.TimeoutExpired) as e:
        print(f"go bench skipped: {e}", file=sys.stderr)
        return []
    rows = []
    for line in out.splitlines():
        m = re.match(r"Benchmark(\S+?)(-\d+)?\s+\d+\s+.*?([\d.]+) steps/s", line)
        if m:
            rows.append((m.group(1), float(m.group(3))))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    ap.add_argument("--intervals", default="60,1", help="control intervals (simulated s), comma-separated")
    ap.add_argument("--no-go", action="store_true", help="skip the Go benchmark")
    ap.add_argument("--no-tasks", action="store_true", help="skip the registered tasks")
    args = ap.parse_args()

    print(f"yarngym bench: scenario quick, {os.cpu_count()} CPUs, Go threads = workers = default")
    if not args.no_go:
        print("\nGo only (go test ./env -bench, control interval 60 s):")
        for name, r in go_bench(args.seconds):
            print(f"  {name:28s} {r:12,.0f} env steps/s  ({1e6 / r:8.1f} us/step)")

    print("\nper-call overhead (control interval 0.001 s: Go does almost nothing per step):")
    raw = bench_raw(0.001, args.seconds)
    single = bench_single(0.001, args.seconds)
    single_act = bench_single(0.001, args.seconds, controlled=True)
    print(f"  raw C ABI call (cffi + Go)   {1e6 / raw:8.2f} us/step")
    print(f"  ClusterEnv.step(action)      {1e6 / single_act:8.2f} us/step (one controlled parameter)")
    print(f"  ClusterEnv.step(empty)       {1e6 / single:8.2f} us/step (no controlled parameter)")
    print(f"  Python overhead over the raw call: {1e6 / single_act - 1e6 / raw:.2f} us/step with an action, "
          f"{1e6 / single - 1e6 / raw:.2f} without")

    for iv in [float(x) for x in args.intervals.split(",")]:
        print(f"\ncontrol interval {iv:g} s:")
        rows = []
        raw = bench_raw(iv, args.seconds)
        rows.append(("raw C ABI (cffi + Go), 1 env", raw))
        single = bench_single(iv, args.seconds)
        rows.append(("ClusterEnv.step", single))
        for n in (8, 64):
            sync = gym.vector.SyncVectorEnv(
                [lambda: yarngym.ClusterEnv("quick", control_interval_s=iv)] * n,
                autoreset_mode=gym.vector.AutoresetMode.SAME_STEP,
            )
            rows.append((f"SyncVectorEnv N={n}", bench_vector(sync, n, args.seconds)))
            rows.append((f"VectorClusterEnv N={n}", bench_vector(yarngym.VectorClusterEnv(n, "quick", control_interval_s=iv), n, args.seconds)))
        for name, r in rows:
            print(f"  {name:28s} {r:12,.0f} env steps/s  ({1e6 / r:8.2f} us/step)")
        d = dict(rows)
        for n in (8, 64):
            print(f"  native / SyncVectorEnv at N={n}: {d[f'VectorClusterEnv N={n}'] / d[f'SyncVectorEnv N={n}']:.1f}x")

    if not args.no_tasks:
        print("\nregistered tasks, native vector env N=8, random actions (episodes reset as they end):")
        for env_id in sorted(yarngym.TASKS):
            r = bench_task(env_id, 8, args.seconds)
            print(f"  {env_id:28s} {r:12,.0f} env steps/s  ({1e6 / r:8.1f} us/step)")


if __name__ == "__main__":
    main()
