"""yarngym's gorgonia PPO beside stable-baselines3's PPO on one task, with the
same budget, network and hyper-parameters, on one core (not a test; prints a
table).

    .venv/bin/python bindings/python/compare_ppo.py [--task AutoAdmin66-Fair-v0] [--steps 100000] [--seed 1] [--cpu K]
        [--yarngym bin/yarngym] [--go-dir out/compare-ppo] [--go-only]

Both learners: 8 environments, rollouts of 32 steps, 10 epochs of minibatches
of 64, gamma 0.99, GAE lambda 0.95, clip 0.2, no entropy bonus, value
coefficient 0.5, gradient norm 0.5, Adam at 3e-4, two tanh hidden layers of
64 for the actor and the critic, initial log std -0.5, observations
normalised (clip 10) and rewards scaled by the running std of the
discounted return. SB3 runs on the native vector env (yarngym.sb3) with
VecNormalize; its episodes start on the task's train seeds. Both are
evaluated the same way: the deterministic (mean) action on the task's test
seeds, one episode each, paired. The Go side is `bin/yarngym learn TASK
--algo ppo --workers 1` with GOMAXPROCS=1 (run here unless --go-dir already
holds its results for this task, budget and seed).

One core each: this process pins itself (and so the Go child) to CPU --cpu
(default: the last it may run on), torch runs one thread and the Go library
one. Each side's CPU time (the process's; on a shared core the wall clock
also counts other work) is split into the environment alone (the native
steps and resets: yarngym's env.Batch calls, SB3's VectorClusterEnv calls),
the updates alone (yarngym's epochs of gradient steps, SB3's PPO.train) and
the rest (the rollout's policy forward pass, normalisation, buffers, SB3's
VecEnv wrappers). Reported: env steps per CPU second of the environment,
gradient steps per CPU second of the updates, and the throughput, env steps
per CPU second of the whole training and per wall-clock second, with the
ratios yarngym / SB3.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

import yarngym

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Side:
    """One learner's figures: counts, its training's wall-clock seconds, its
    CPU seconds and their split, and its test returns."""

    name: str
    env_steps: int
    grad_steps: int
    wall_s: float
    cpu_s: float
    env_cpu_s: float
    update_cpu_s: float
    returns: list[float] = field(default_factory=list)

    @property
    def other_cpu_s(self) -> float:
        return max(0.0, self.cpu_s - self.env_cpu_s - self.update_cpu_s)


def sb3_train(task: dict, steps: int, seed: int):
    import torch
    from stable_baselines3 import PPO
    from stable_baselines3.common.vec_env import VecNormalize

    from yarngym.registration import env_kwargs
    from yarngym.sb3 import SB3VecEnv

    torch.set_num_threads(1)
    # Every episode on the task's train seeds, in turn, as yarngym's PPO trains.
    train = (task["train_seeds"]["first"], task["train_seeds"]["count"])
    venv = SB3VecEnv(8, normalize_actions=True, seed_cycle=train, **env_kwargs(task))
    norm = VecNormalize(venv, norm_obs=True, norm_reward=True, clip_obs=10.0, gamma=0.99)
    model = PPO(
        "MlpPolicy",
        norm,
        n_steps=32,
        batch_size=64,
        n_epochs=10,
        gamma=0.99,
        gae_lambda=0.95,
        clip_range=0.2,
        ent_coef=0.0,
        vf_coef=0.5,
        max_grad_norm=0.5,
        learning_rate=3e-4,
        policy_kwargs=dict(net_arch=dict(pi=[64, 64], vf=[64, 64]), activation_fn=torch.nn.Tanh, log_std_init=-0.5),
        seed=seed,
        device="cpu",
        verbose=0,
    )
    # The split of the CPU time: the native vector env's calls, PPO.train;
    # and the optimiser's steps counted.
    clock = {"env": 0.0, "update": 0.0, "grad": 0}

    def timed(fn, key):
        def wrapped(*a, **kw):
            t0 = time.process_time()
            try:
                return fn(*a, **kw)
            finally:
                clock[key] += time.process_time() - t0

        return wrapped

    native = venv.venv
    native.step, native.reset = timed(native.step, "env"), timed(native.reset, "env")
    model.train = timed(model.train, "update")
    opt_step = model.policy.optimizer.step

    def counted(*a, **kw):
        clock["grad"] += 1
        return opt_step(*a, **kw)

    model.policy.optimizer.step = counted
    t0, c0 = time.perf_counter(), time.process_time()
    model.learn(total_timesteps=steps)
    total, cpu = time.perf_counter() - t0, time.process_time() - c0
    side = Side("stable-baselines3 PPO (torch)", int(model.num_timesteps), clock["grad"], total, cpu, clock["env"], clock["update"])
    return model, norm, side


def sb3_evaluate(model, norm, task: dict) -> list[float]:
    from yarngym.registration import env_kwargs

    env = yarngym.ClusterEnv(normalize_actions=True, **env_kwargs(task))
    first, count = task["test_seeds"]["first"], task["test_seeds"]["count"]
    out = []
    for s in range(first, first + count):
        obs, _ = env.reset(options={"episode_seed": s})
        total, done = 0.0, False
        while not done:
            a, _ = model.predict(norm.normalize_obs(obs[None]), deterministic=True)
            obs, r, te, tr, _ = env.step(np.clip(a[0], -1, 1))
            total += r
            done = te or tr
        out.append(total)
    return out


def go_result(task_id: str, steps: int, seed: int, go_dir: Path, binary: Path) -> Side:
    d = go_dir / task_id / "ppo"
    ev, tm = d / "eval.json", d / "timing.json"
    stale = not ev.is_file() or not tm.is_file()
    if not stale:  # results of another budget, or from before timing.json held the split
        stale = json.loads(ev.read_text()).get("env_steps") != max(1, steps // 256) * 256 or "env_cpu_s" not in json.loads(tm.read_text())
    if stale:
        subprocess.run(
            [str(binary), "learn", task_id, "--algo", "ppo", "--budget", str(steps), "--seed", str(seed),
             "--out", str(go_dir), "--workers", "1"],
            check=True, env=dict(os.environ, GOMAXPROCS="1"),
        )  # fmt: skip
    e, t = json.loads(ev.read_text()), json.loads(tm.read_text())
    for key in ("env_cpu_s", "update_cpu_s", "train_cpu_s"):
        if key not in t:
            raise SystemExit(f"{tm}: no {key!r} (written by an older bin/yarngym: rebuild it with `make build`)")
    return Side("yarngym PPO (gorgonia)", int(e["env_steps"]), int(e["grad_steps"]), t["train_s"], t["train_cpu_s"],
                t["env_cpu_s"], t["update_cpu_s"], e["returns"])  # fmt: skip


def stat(xs) -> str:
    xs = np.asarray(xs, float)
    return f"{xs.mean():.4g} ± {xs.std(ddof=1) / np.sqrt(len(xs)):.2g}"


def table(go: Side, sb3: Side) -> list[str]:
    """The comparison's lines: each side's rates and split, then the ratios."""
    cols = [
        ("env steps/s", "{:11.0f}", lambda s: s.env_steps / s.env_cpu_s),
        ("grad steps/s", "{:12.0f}", lambda s: s.grad_steps / s.update_cpu_s),
        ("env CPU s", "{:9.1f}", lambda s: s.env_cpu_s),
        ("update CPU s", "{:12.1f}", lambda s: s.update_cpu_s),
        ("other CPU s", "{:11.1f}", lambda s: s.other_cpu_s),
        ("CPU s", "{:6.1f}", lambda s: s.cpu_s),
        ("wall s", "{:6.1f}", lambda s: s.wall_s),
        ("steps/CPU s", "{:11.0f}", lambda s: s.env_steps / s.cpu_s),
        ("steps/wall s", "{:12.0f}", lambda s: s.env_steps / s.wall_s),
    ]
    width = [len(h) for h, _, _ in cols]
    out = ["  " + f"{'':30s} " + " ".join(h for h, _, _ in cols) + "  test return"]
    for s in (go, sb3):
        out.append(f"  {s.name:30s} " + " ".join(f.format(v(s)) for _, f, v in cols) + f"  {stat(s.returns)}")
    # Speed-ups: rates divide yarngym's by SB3's, times SB3's by yarngym's.
    speed = []
    for (h, _, v), w in zip(cols, width):
        r = v(go) / v(sb3) if "/" in h else v(sb3) / max(v(go), 1e-9)
        speed.append(f"{r:{w}.2f}")
    out.append(f"  {'speed-up, yarngym over SB3':30s} " + " ".join(speed))
    d = np.asarray(go.returns) - np.asarray(sb3.returns)
    out.append(f"  test return, yarngym - SB3, paired over {len(d)} test seeds: {d.mean():.4g} ± {d.std(ddof=1) / np.sqrt(len(d)):.2g}")
    out.append("  (rates per CPU second of their own part; steps/CPU s and steps/wall s: the whole training's throughput)")
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--task", default="AutoAdmin66-Fair-v0")
    ap.add_argument("--steps", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cpu", type=int, default=None, help="the core both sides run on (default: the last this process may use)")
    ap.add_argument("--go-dir", type=Path, default=ROOT / "out" / "compare-ppo")
    ap.add_argument("--yarngym", type=Path, default=ROOT / "bin" / "yarngym", help="the yarngym binary the Go side runs (default: bin/yarngym)")
    ap.add_argument("--go-only", action="store_true", help="train and report the Go side only (no SB3)")
    args = ap.parse_args(argv)
    if args.steps < 256:
        ap.error("--steps must be at least one rollout, 256 (8 environments x 32 steps)")
    cpu = max(os.sched_getaffinity(0)) if args.cpu is None else args.cpu
    os.sched_setaffinity(0, {cpu})  # the Go child inherits it
    yarngym.set_threads(1)  # one core each: the Go side runs with --workers 1, torch with 1 thread
    # tasks(): the library's own table (TASKS is empty for a library given
    # by $YARNGYM_LIBRARY, as make compare-ppo gives this tree's).
    task = {t["gym_id"]: t for t in yarngym.tasks()}["yarngym/" + args.task]
    base = yarngym.baselines(args.task)

    go = go_result(args.task, args.steps, args.seed, args.go_dir / f"seed{args.seed}-steps{args.steps}", args.yarngym)
    if args.go_only:
        print(f"{go.name}: {go.env_steps} env steps, {go.grad_steps} gradient steps; CPU s {go.cpu_s:.1f} (env {go.env_cpu_s:.1f}, "
              f"update {go.update_cpu_s:.1f}, other {go.other_cpu_s:.1f}), wall s {go.wall_s:.1f}; test return {stat(go.returns)}")  # fmt: skip
        return
    model, norm, sb3 = sb3_train(task, args.steps, args.seed)
    sb3.returns = sb3_evaluate(model, norm, task)

    print(f"{args.task}: PPO, {args.steps} env steps, seed {args.seed}, CPU {cpu}; test return over {len(go.returns)} test seeds (mean ± s.e.)")
    print(f"  paper default {stat(base['default']['returns'])}; best static (81-point grid, train seeds) {stat(base['best_static']['returns'])}")
    for line in table(go, sb3):
        print(line)


if __name__ == "__main__":
    sys.exit(main())
