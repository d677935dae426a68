"""Runs as data: a scenario run to its end in Go, its summary and its job and
task records returned as numpy arrays (no subprocess, no CSV).

>>> import yarngym
>>> r = yarngym.run("opera-mr", policy="opera", seed=1)
>>> r.summary["mean_completion_s"]
>>> jobs = r.jobs_frame()        # pandas.DataFrame, one row per job (as jobs.csv)
>>> tasks = r.tasks_frame()      # one row per task attempt (as tasks.csv)

Go fills numpy record arrays (the C structs yg_job and yg_task of
yarngym.h) in one call per table; :attr:`Run.jobs` and :attr:`Run.tasks`
are dicts of column arrays (views of those records, codes mapped to names
with one vectorised take), which ``pandas.DataFrame`` takes as they are.
"""

from __future__ import annotations

import json
import os
from typing import Any, Mapping, Sequence

import numpy as np

from ._native import _check, _sets_list, as_seed, load

__all__ = ["Run", "run"]

RUN_SUMMARY, RUN_JOB_STRINGS, RUN_ENUMS, RUN_STATE_NAMES = 0, 1, 2, 3

# The C structs' layouts (checked against cffi's at first use).
JOB_DTYPE = np.dtype(
    [("id", "<i8"), ("state", "<i4"), ("tasks", "<i4"), ("submit_s", "<f8"), ("admit_s", "<f8"), ("start_s", "<f8"),
     ("finish_s", "<f8"), ("goal_s", "<f8")],
    align=True,
)  # fmt: skip
TASK_DTYPE = np.dtype(
    [("job", "<i4"), ("stage", "<i4"), ("index", "<i4"), ("attempt", "<i4"), ("node", "<i4"), ("kind", "i1"),
     ("container", "i1"), ("locality", "i1"), ("outcome", "i1"), ("start_s", "<f8"), ("end_s", "<f8")],
    align=True,
)  # fmt: skip
SAMPLE_DTYPE = np.dtype(
    [("t_s", "<f8"), ("vcores_guaranteed", "<f8"), ("vcores_opportunistic", "<f8"), ("cpu_used", "<f8"),
     ("mem_mb_reserved", "<f8"), ("mem_mb_used", "<f8"), ("containers_guaranteed", "<i4"),
     ("containers_opportunistic", "<i4"), ("pending_tasks", "<i4"), ("waiting_jobs", "<i4"), ("running_jobs", "<i4"),
     ("_pad", "<i4")],
    align=True,
)  # fmt: skip


def _check_layout(ffi: Any) -> None:
    for ctype, dt in (("yg_job", JOB_DTYPE), ("yg_task", TASK_DTYPE), ("yg_sample", SAMPLE_DTYPE)):
        if ffi.sizeof(ctype) != dt.itemsize:
            raise RuntimeError(f"yarngym: {ctype} is {ffi.sizeof(ctype)} bytes in C, {dt.itemsize} in numpy")
        for name in dt.names:
            if ffi.offsetof(ctype, name) != dt.fields[name][1]:
                raise RuntimeError(f"yarngym: {ctype}.{name} is at {ffi.offsetof(ctype, name)} in C, {dt.fields[name][1]} in numpy")


class Run:
    """A finished run: ``summary`` (as summary.json), ``jobs`` and ``tasks``
    (dicts of numpy columns, as jobs.csv and tasks.csv), ``timeline`` (the
    cluster sampled every ``timeline_s``, with the policy's state as
    ``policy.NAME`` columns), and the numpy record arrays Go filled
    (``job_records``, ``task_records``, ``samples``, ``state``)."""

    def __init__(self, summary: dict[str, Any], job_records: np.ndarray, task_records: np.ndarray,
                 job_strings: dict[str, list[str]], enums: dict[str, list[str]],
                 samples: np.ndarray | None = None, state: np.ndarray | None = None,
                 state_names: list[str] | None = None):  # fmt: skip
        self.summary = summary
        self.job_records = job_records
        self.task_records = task_records
        self.samples = samples if samples is not None else np.zeros(0, SAMPLE_DTYPE)
        self.state = state if state is not None else np.zeros((0, 0))
        self.state_names = state_names or []
        self.enums = enums
        names = {k: np.asarray(v, dtype=object) for k, v in enums.items()}
        j = job_records
        self.jobs: dict[str, np.ndarray] = {
            "job": j["id"], "name": np.asarray(job_strings["name"], dtype=object), "app": np.asarray(job_strings["app"], dtype=object),
            "framework": np.asarray(job_strings["framework"], dtype=object), "queue": np.asarray(job_strings["queue"], dtype=object),
            "state": names["state"].take(j["state"]), "submit_s": j["submit_s"], "admit_s": j["admit_s"], "start_s": j["start_s"],
            "finish_s": j["finish_s"], "wait_s": j["start_s"] - j["submit_s"], "completion_s": j["finish_s"] - j["submit_s"],
            "tasks": j["tasks"], "goal_s": j["goal_s"],
        }  # fmt: skip
        t = task_records
        self.tasks: dict[str, np.ndarray] = {
            "job": t["job"], "kind": names["kind"].take(t["kind"]), "stage": t["stage"], "index": t["index"], "attempt": t["attempt"],
            "node": t["node"], "container": names["container"].take(t["container"]), "locality": names["locality"].take(t["locality"]),
            "start_s": t["start_s"], "end_s": t["end_s"], "outcome": names["outcome"].take(t["outcome"]),
        }  # fmt: skip

        self.timeline: dict[str, np.ndarray] = {k: self.samples[k] for k in self.samples.dtype.names if k != "_pad"}
        for i, name in enumerate(self.state_names):
            self.timeline["policy." + name] = self.state[:, i]

    def timeline_frame(self):
        """The timeline as a pandas DataFrame (needs pandas)."""
        import pandas as pd

        return pd.DataFrame(self.timeline)

    def jobs_frame(self):
        """The jobs as a pandas DataFrame (needs pandas)."""
        import pandas as pd

        return pd.DataFrame(self.jobs)

    def tasks_frame(self):
        """The task attempts as a pandas DataFrame (needs pandas)."""
        import pandas as pd

        return pd.DataFrame(self.tasks)

    def __repr__(self) -> str:
        s = self.summary
        return (f"Run({s['scenario']!r}, policy={s['policy']!r}, seed={s['seed']}, jobs={len(self.job_records)}, "
                f"tasks={len(self.task_records)}, mean_completion_s={s['mean_completion_s']})")  # fmt: skip


def run(
    scenario: str | os.PathLike,
    *,
    policy: str | None = None,
    sets: Sequence[str] | Mapping[str, Any] | None = None,
    seed: int | None = None,
    controller: str | os.PathLike | None = None,
    record_tasks: bool = True,
    timeline_s: float = 0,
) -> Run:
    """Runs a scenario to its end in Go, as ``yarngym run`` does, and returns
    its results as data. ``sets`` are scenario overrides ({key: value} or
    ["KEY=VALUE"]), ``seed`` the run's seed (default: the scenario's),
    ``controller`` a trained model (``yarngym learn``'s model.json) that sets
    the policy's parameters every control interval; ``timeline_s`` > 0
    samples the cluster (and the policy's state) that often: at least
    0.001 (the engine counts whole milliseconds; less is refused). A bug in
    the engine raises :class:`yarngym.YarnGymPanic`."""
    if timeline_s is None or not isinstance(timeline_s, (int, float, np.integer, np.floating)) or isinstance(timeline_s, bool):
        raise ValueError(f"timeline_s {timeline_s!r}: want 0 (the scenario's sampling) or a number of seconds >= 0.001")
    if not (timeline_s == 0 or timeline_s >= 0.001) or not np.isfinite(timeline_s):
        raise ValueError(
            f"timeline_s {timeline_s!r}: want 0 (the scenario's sampling) or at least 0.001 s, the engine's "
            "resolution (a shorter interval would sample nothing)"
        )
    ffi, lib = load()
    _check_layout(ffi)
    cfg: dict[str, Any] = {"scenario": os.fspath(scenario), "record_tasks": bool(record_tasks)}
    if policy:
        cfg["policy"] = str(policy)
    if sets:
        cfg["sets"] = _sets_list(sets)
    if seed is not None:
        cfg["seed"] = as_seed(seed)
    if controller:
        cfg["controller"] = os.fspath(controller)
    if timeline_s:
        cfg["timeline_s"] = float(timeline_s)
    h = ffi.new("int64_t *")
    try:
        # A Ctrl-C lands after yg_run_new has returned: free the run even then.
        _check(lib.yg_run_new(json.dumps(cfg).encode(), h))
    except BaseException:
        if h[0]:
            lib.yg_run_free(h[0])
        raise
    handle = h[0]
    try:
        nj, nt, ns, nv = (ffi.new("int64_t *") for _ in range(4))
        _check(lib.yg_run_counts(handle, nj, nt, ns, nv))
        jobs = np.zeros(nj[0], JOB_DTYPE)
        tasks = np.zeros(nt[0], TASK_DTYPE)
        samples = np.zeros(ns[0], SAMPLE_DTYPE)
        state = np.zeros((ns[0], nv[0]), np.float64)
        _check(lib.yg_run_jobs(handle, ffi.cast("yg_job *", jobs.ctypes.data), nj[0]))
        _check(lib.yg_run_tasks(handle, ffi.cast("yg_task *", tasks.ctypes.data) if nt[0] else ffi.NULL, nt[0]))
        _check(lib.yg_run_timeline(handle, ffi.cast("yg_sample *", samples.ctypes.data) if ns[0] else ffi.NULL, ns[0]))
        _check(lib.yg_run_state(handle, ffi.cast("double *", state.ctypes.data) if state.size else ffi.NULL, state.size))

        def text(what: int) -> str:
            n = ffi.new("int32_t *")
            _check(lib.yg_run_string(handle, what, ffi.NULL, 0, n))
            buf = ffi.new("char[]", n[0] + 1)
            _check(lib.yg_run_string(handle, what, buf, n[0] + 1, ffi.NULL))
            return ffi.string(buf).decode()

        return Run(json.loads(text(RUN_SUMMARY)), jobs, tasks, json.loads(text(RUN_JOB_STRINGS)), json.loads(text(RUN_ENUMS)),
                   samples, state, json.loads(text(RUN_STATE_NAMES)))  # fmt: skip
    finally:
        lib.yg_run_free(handle)
