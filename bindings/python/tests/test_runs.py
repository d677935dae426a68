"""Runs as data: yarngym.run returns what `yarngym run --out` writes, for
the same scenario and seed, without a subprocess."""

from __future__ import annotations

import csv
import json
import math
import subprocess
from pathlib import Path

import numpy as np
import pytest

import yarngym

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def cli(tmp_path_factory) -> Path:
    exe = tmp_path_factory.mktemp("bin") / "yarngym"
    subprocess.run(["go", "build", "-o", str(exe), "./cmd/yarngym"], cwd=ROOT, check=True)
    return exe


def _num(s: str) -> float:
    return float(s) if s != "" else math.nan


@pytest.mark.parametrize("scenario, policy, seed", [("quick", None, 3), ("opera-mr", "opera", 2), ("autoadmin-66", "autoadmin", 5)])
def test_run_matches_cli(cli, tmp_path, scenario, policy, seed):
    args = [str(cli), "run", scenario, "--seed", str(seed), "--out", str(tmp_path)]
    if policy:
        args += ["--policy", policy]
    subprocess.run(args, check=True, capture_output=True)
    r = yarngym.run(scenario, policy=policy, seed=seed)

    summary = json.loads((tmp_path / "summary.json").read_text())
    assert r.summary == summary

    with open(tmp_path / "jobs.csv") as f:
        jobs = list(csv.DictReader(f))
    assert len(jobs) == len(r.job_records)
    for i, row in enumerate(jobs):
        assert int(row["job"]) == r.jobs["job"][i] and row["name"] == r.jobs["name"][i] and row["state"] == r.jobs["state"][i]
        for col in ("submit_s", "admit_s", "start_s", "finish_s", "wait_s", "completion_s", "goal_s"):
            want, got = _num(row[col]), r.jobs[col][i]
            assert (math.isnan(want) and math.isnan(got)) or got == pytest.approx(want, abs=1e-9), (col, i)

    with open(tmp_path / "tasks.csv") as f:
        tasks = list(csv.DictReader(f))
    assert len(tasks) == len(r.task_records) > 0
    for i, row in enumerate(tasks):
        for col in ("job", "stage", "index", "attempt", "node"):
            assert int(row[col]) == r.tasks[col][i], (col, i)
        for col in ("kind", "container", "locality", "outcome"):
            assert row[col] == r.tasks[col][i], (col, i)
        assert float(row["start_s"]) == pytest.approx(r.tasks["start_s"][i], abs=1e-9)
        assert float(row["end_s"]) == pytest.approx(r.tasks["end_s"][i], abs=1e-9)


def test_run_columns_are_views_and_frames():
    pd = pytest.importorskip("pandas")
    r = yarngym.run("quick", seed=1)
    assert np.shares_memory(r.jobs["submit_s"], r.job_records)  # a view, not a copy
    df = r.jobs_frame()
    assert list(df.columns)[:3] == ["job", "name", "app"] and len(df) == 4
    assert (df["completion_s"] > 0).all()
    t = r.tasks_frame()
    assert set(t["outcome"]) <= {"done", "killed"} and isinstance(t, pd.DataFrame)
    assert "Run('quick'" in repr(r)


def test_run_errors():
    with pytest.raises(yarngym.YarnGymError, match="no-such"):
        yarngym.run("no-such")
    with pytest.raises(yarngym.YarnGymError, match="nope"):
        yarngym.run("quick", sets={"nope": 1})
    r = yarngym.run("quick", seed=2, record_tasks=False)
    assert len(r.task_records) == 0 and len(r.tasks["job"]) == 0


def test_timeline():
    r = yarngym.run("opera-mr", policy="opera", seed=1, timeline_s=10)
    tl = r.timeline
    assert len(tl["t_s"]) > 100 and tl["t_s"][1] - tl["t_s"][0] == pytest.approx(10)
    assert "policy.opera_blocked_vcores" in tl and len(tl["policy.opera_blocked_vcores"]) == len(tl["t_s"])
    assert (tl["cpu_used"] <= tl["vcores_guaranteed"] + tl["vcores_opportunistic"] + 1e-9).mean() > 0.5
    assert yarngym.run("quick", seed=1).timeline["t_s"].size == 0  # the scenario samples nothing by default
