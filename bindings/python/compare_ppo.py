"""yarngym's gorgonia PPO beside stable-baselines3's PPO on one task, with the
same budget, network and hyper-parameters (not a test; prints a table).

    .venv/bin/python bindings/python/compare_ppo.py [--task AutoAdmin66-Fair-v0] [--steps 100000] [--seed 1]

Both learners: 8 environments, rollouts of 32 steps, 10 epochs of minibatches
of 64, gamma 0.99, GAE lambda 0.95, clip 0.2, no entropy bonus, value
coefficient 0.5, gradient norm 0.5, Adam at 3e-4, two tanh hidden layers of
64 for the actor and the critic, initial log std -0.5, observations
normalised (clip 10) and rewards scaled by the running std of the
discounted return. SB3 runs on the native vector env (yarngym.sb3) with
VecNormalize; its episodes start on the task's train seeds. Both are
evaluated the same way: the deterministic (mean) action on the task's test
seeds, one episode each, paired. The Go side is `bin/yarngym learn TASK
--algo ppo` (run here unless --go-dir already holds its results).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

import yarngym

ROOT = Path(__file__).resolve().parents[2]


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
    t0 = time.perf_counter()
    model.learn(total_timesteps=steps)
    return model, norm, time.perf_counter() - t0


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


def go_result(task_id: str, steps: int, seed: int, go_dir: Path) -> tuple[list[float], float]:
    ev = go_dir / task_id / "ppo" / "eval.json"
    tm = go_dir / task_id / "ppo" / "timing.json"
    if not ev.is_file() or not tm.is_file():
        subprocess.run(
            [str(ROOT / "bin" / "yarngym"), "learn", task_id, "--algo", "ppo", "--budget", str(steps), "--seed", str(seed),
             "--out", str(go_dir), "--workers", "1"],
            check=True,
        )  # fmt: skip
    return json.loads(ev.read_text())["returns"], json.loads(tm.read_text())["train_s"]


def stat(xs) -> str:
    xs = np.asarray(xs, float)
    return f"{xs.mean():.4g} ± {xs.std(ddof=1) / np.sqrt(len(xs)):.2g}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--task", default="AutoAdmin66-Fair-v0")
    ap.add_argument("--steps", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--go-dir", type=Path, default=ROOT / "out" / "compare-ppo")
    args = ap.parse_args()
    yarngym.set_threads(1)  # one core each: the Go side runs with --workers 1, torch with 1 thread
    task = yarngym.TASKS["yarngym/" + args.task]
    base = yarngym.baselines(args.task)

    go_returns, go_s = go_result(args.task, args.steps, args.seed, args.go_dir)
    model, norm, sb3_s = sb3_train(task, args.steps, args.seed)
    sb3_returns = sb3_evaluate(model, norm, task)

    d = np.asarray(go_returns) - np.asarray(sb3_returns)
    print(f"{args.task}: PPO, {args.steps} env steps, seed {args.seed}; test return over {len(d)} test seeds (mean ± s.e.)")
    rows = [
        ("paper default", stat(base["default"]["returns"]), "-"),
        ("best static (81-point grid, train seeds)", stat(base["best_static"]["returns"]), "-"),
        ("yarngym PPO (gorgonia)", stat(go_returns), f"{go_s:.1f}"),
        ("stable-baselines3 PPO (torch)", stat(sb3_returns), f"{sb3_s:.1f}"),
    ]
    for name, ret, secs in rows:
        print(f"  {name:32s} {ret:20s} train s {secs}")
    print(f"  gorgonia - SB3, paired: {d.mean():.4g} ± {d.std(ddof=1) / np.sqrt(len(d)):.2g}")
    print(f"  wall-clock ratio (gorgonia / SB3): {go_s / sb3_s:.2f}")


if __name__ == "__main__":
    sys.exit(main())
