"""Ray Tune: a small Optuna + ASHA sweep on a local Ray finds a setting
within 2% of the grid's best on the task's test seeds; search spaces come
from the Go registries."""

from __future__ import annotations

import numpy as np
import pytest

import yarngym

ray = pytest.importorskip("ray")  # make test installs ray[tune]: no skip there
import yarngym.tune as yt  # noqa: E402


def test_spaces_come_from_go():
    from ray import tune

    s = yt.task_space("OPERA-v0")
    assert set(s) == {"rho", "posterior_cutoff"}
    assert isinstance(s["rho"], tune.search.sample.Float) and s["rho"].lower == 0.5 and s["rho"].upper == 2
    p = yt.policy_space("opera", ["rho", "relief_policy"])
    assert p["rho"].lower == pytest.approx(0.1) and isinstance(p["relief_policy"], tune.search.sample.Integer)
    assert p["relief_policy"].lower == 0 and p["relief_policy"].upper == 3  # randint's upper bound is exclusive
    assert yt.task_default("AutoAdmin-v0") == {"rrp_scale": 1.0}
    with pytest.raises(KeyError):
        yt.policy_space("opera", ["nope"])


def test_evaluate_matches_baselines():
    b = yarngym.baselines("AutoAdmin-v0")
    rets = yarngym.evaluate("AutoAdmin-v0", b["default"]["action"])
    assert np.array_equal(rets, np.asarray(b["default"]["returns"]))


def test_optuna_asha_sweep_finds_the_grid_best():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        res = yt.sweep("AutoAdmin-v0", num_samples=16, n_seeds=20, chunk=5, seed=0)
    finally:
        ray.shutdown()
    grid = yarngym.baselines("AutoAdmin-v0")["best_static"]["return"]["mean"]
    assert res["trials"] == 16 and res["trials_full"] >= 2
    assert len(res["test_returns"]) == 20
    # Within 2% of the grid's best static setting on the test seeds.
    assert res["test_mean"] >= grid - 0.02 * abs(grid), (res["best_config"], res["test_mean"], grid)


def test_ray_client_is_installed_with_the_tune_extra():
    """The README's ray.init(address="ray://HEAD:10001") needs Ray's client
    (grpcio): the tune extra brings it."""
    import importlib.metadata as md
    import re

    reqs = md.requires("yarngym") or []
    ray_tune = [r for r in reqs if r.startswith("ray[") and re.search(r"extra == ['\"]tune['\"]", r)]
    assert ray_tune and "client" in re.match(r"ray\[([^\]]*)\]", ray_tune[0]).group(1).split(","), reqs
    import ray.util.client.worker  # noqa: F401  (imports grpc: fails without ray[client])
