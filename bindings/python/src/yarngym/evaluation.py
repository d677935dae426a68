"""Evaluating a task's static action or trained model on chosen seeds, in Go.

>>> import yarngym
>>> yarngym.evaluate("AutoAdmin-v0", [1.5], split="test")   # one return per test seed
>>> yarngym.evaluate("AutoAdmin-v0", model="out/learn/AutoAdmin-v0/ppo", split="test")
>>> yarngym.evaluate("AutoAdmin-v0", saved="ppo")   # the model committed in benchmarks/models

The episodes run side by side in Go (env.Batch); the returns are exactly the
ones `yarngym baselines` and the Go tuners compute for the same seeds.
"""

from __future__ import annotations

import json
import os
from typing import Sequence

import numpy as np

from ._native import _check, as_seed, load
from .registration import TASKS

__all__ = ["evaluate", "task_seeds"]


def task_seeds(task_id: str, split: str = "test", n: int | None = None) -> list[int]:
    """A task's test or validation seeds (all, or the first ``n``), or its
    first ``n`` (default 20) train seeds. The three runs are disjoint, as
    Go's task registry checks (a learner trains on train, may select on
    validation and is judged on test)."""
    key = task_id if task_id.startswith("yarngym/") else "yarngym/" + task_id
    t = TASKS[key]
    if split in ("test", "validation"):
        s = t[split + "_seeds"]
        return list(range(s["first"], s["first"] + (n or s["count"])))
    if split == "train":
        s = t["train_seeds"]
        return list(range(s["first"], s["first"] + (n or 20)))
    raise ValueError(f"split {split!r}: want 'train', 'validation' or 'test'")


def evaluate(
    task_id: str,
    action: Sequence[float] | None = None,
    *,
    model: str | os.PathLike | None = None,
    saved: str | None = None,
    seeds: Sequence[int] | None = None,
    split: str = "test",
    workers: int = 0,
) -> np.ndarray:
    """Plays ``action`` (the task's parameters, in their own units), a
    trained ``model`` (model.json or its folder) or a ``saved`` model
    committed with yarngym ("ppo", "cmaes": benchmarks/models/TASK/ALGO) for
    one episode per seed and returns the returns, in seed order. ``seeds`` default to the task's
    test seeds (``split="train"``: its first 20 train seeds;
    ``"validation"``: its validation seeds)."""
    bare = task_id.removeprefix("yarngym/")
    if seeds is None:
        seeds = task_seeds(bare, split)
    cfg: dict = {"task": bare, "seeds": [as_seed(s) for s in seeds], "workers": int(workers)}
    if model is not None:
        cfg["model"] = os.fspath(model)
    if saved is not None:
        cfg["saved"] = str(saved)
    if action is not None:
        cfg["action"] = [float(a) for a in np.atleast_1d(action)]
    ffi, lib = load()
    out = np.zeros(len(cfg["seeds"]), np.float64)
    _check(lib.yg_evaluate(json.dumps(cfg).encode(), ffi.cast("double *", out.ctypes.data), len(out)))
    return out
