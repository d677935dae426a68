"""The gymnasium ids of yarngym's environments.

Every id has ``entry_point`` (:class:`yarngym.ClusterEnv`) and
``vector_entry_point`` (:class:`yarngym.VectorClusterEnv`), so both
``gymnasium.make(id)`` and ``gymnasium.make_vec(id, num_envs=N)`` work;
keyword arguments override the registered ones (e.g.
``gymnasium.make("yarngym/Scenario-v0", scenario="opera-spark")``).

Tuner tasks run a paper's experiment (its built-in scenario) and let the
agent set policy parameters each control interval (60 simulated seconds).
Registered ids declare normalized actions (``normalize_actions=True``): the
action space is [-1, 1] per parameter, mapped linearly onto the parameter's
range (``env.unwrapped.param_low`` / ``param_high``); pass
``normalize_actions=False`` for the parameters' own values.
"""

from __future__ import annotations

from typing import Any

__all__ = ["TASKS", "register_envs"]

_ENTRY = "yarngym.envs:ClusterEnv"
_VECTOR_ENTRY = "yarngym.envs:VectorClusterEnv"

# id -> (kwargs, description)
TASKS: dict[str, tuple[dict[str, Any], str]] = {
    # Generic environments.
    "yarngym/Quick-v0": (
        {"scenario": "quick", "controlled": ["max_am_share"]},
        "scenario quick (4 nodes, a small MapReduce + Spark mix) under Fair; the action sets max_am_share",
    ),
    "yarngym/Scenario-v0": (
        {"scenario": "quick"},
        "any scenario: pass scenario= (a built-in name or a .toml path) and optionally sets=, policy=, "
        "controlled=, control_interval_s=, max_steps=, reward=; default quick with no controlled parameter",
    ),
    # Tuner tasks on each paper's scenario with the stock scheduler's parameter.
    "yarngym/OperaMR-Fair-v0": (
        {"scenario": "opera-mr", "policy": "fair", "controlled": ["max_am_share"]},
        "OPERA Sec. IV-B MapReduce experiment under Fair; the action sets max_am_share",
    ),
    "yarngym/DressSpark-Capacity-v0": (
        {"scenario": "dress-spark", "policy": "capacity", "controlled": ["max_am_percent"]},
        "DRESS Spark-on-YARN experiment under Capacity; the action sets max_am_percent",
    ),
    "yarngym/AutoAdmin66-Fair-v0": (
        {"scenario": "autoadmin-66", "policy": "fair", "controlled": ["max_am_share"]},
        "AutoAdmin's 66 terasort jobs on 64 vCores under Fair; the action sets max_am_share",
    ),
    "yarngym/iKayak-Capacity-v0": (
        {"scenario": "ikayak", "policy": "capacity", "controlled": ["max_am_percent"]},
        "iKayak's Spark + MapReduce mix under Capacity; the action sets max_am_percent",
    ),
    "yarngym/RAS-Fair-v0": (
        {"scenario": "ras", "policy": "fair", "controlled": ["max_am_share"]},
        "RAS's Gridmix mix under Fair; the action sets max_am_share",
    ),
    # Tuner tasks on each paper's own policy and scenario: the action sets the
    # paper's thresholds (the other parameters keep the paper's defaults).
    "yarngym/OPERA-v0": (
        {"scenario": "opera-mr", "policy": "opera", "controlled": ["rho", "duration_cutoff_s"]},
        "OPERA on its MapReduce experiment; the action sets rho (contention threshold, Sec. III-C) and "
        "duration_cutoff_s (the short/long classifier's cutoff, Sec. III-B)",
    ),
    "yarngym/DRESS-v0": (
        {"scenario": "dress-spark", "policy": "dress", "controlled": ["theta", "delta_min", "delta_max"]},
        "DRESS on its Spark-on-YARN experiment; the action sets theta (small/large-demand test, Sec. IV-C) "
        "and the bounds of the reserve ratio delta that Alg. 3 adapts",
    ),
    "yarngym/AutoAdmin-v0": (
        {"scenario": "autoadmin-66", "policy": "autoadmin", "controlled": ["rrp_floor"]},
        "AutoAdmin on 66 terasort jobs; the action sets the reservation floor rrp_floor (Sec. 3.2, Alg. 2)",
    ),
    "yarngym/iKayak-v0": (
        {"scenario": "ikayak", "policy": "ikayak", "controlled": ["suspend_v", "suspend_theta"]},
        "iKayak on its Spark + MapReduce mix; the action sets v and theta of the reducer suspension time "
        "(lambda^v - theta) x T (Sec. 3.2)",
    ),
    "yarngym/RAS-v0": (
        {"scenario": "ras", "policy": "ras", "controlled": ["control_interval_s"]},
        "RAS on its Gridmix mix; the action sets the placement's control cycle T (Sec. 3.2)",
    ),
}


def register_envs() -> None:
    """Registers every id of TASKS with gymnasium (idempotent)."""
    from gymnasium.envs.registration import register, registry

    for env_id, (kwargs, _doc) in TASKS.items():
        if env_id in registry:
            continue
        register(
            id=env_id,
            entry_point=_ENTRY,
            vector_entry_point=_VECTOR_ENTRY,
            kwargs={"normalize_actions": True, **kwargs},
        )
