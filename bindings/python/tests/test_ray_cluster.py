"""Ray as a cluster: a head started as its own process (``ray start --head``,
as on a real cluster), a driver in another process that joins it with
``ray.init(address=...)`` and runs a sweep on the head's workers, then the
head is stopped. test_tune.py covers the in-process ``ray.init(num_cpus=2)``
path; this is the path a user takes to an existing cluster."""

from __future__ import annotations

import glob
import json
import math
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from _helpers import run_py

ray = pytest.importorskip("ray")  # make test installs ray[tune]: no skip there

RAY = Path(sys.executable).parent / "ray"
# Marks the head's processes in their environment, which the raylet's
# workers inherit (they start their own process groups, and Ray rewrites
# their command lines): the fixture stops exactly these.
MARK = "YARNGYM_TEST_RAY_HEAD"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _head_pids(pgid: int, temp_dir: str) -> list[int]:
    """This user's processes that belong to the head: in the process group
    `ray start` led, or carrying the head's mark in their environment."""
    out = []
    for d in os.listdir("/proc"):
        if not d.isdigit() or int(d) == os.getpid():
            continue
        pid = int(d)
        try:
            if os.getpgid(pid) == pgid:
                out.append(pid)
                continue
            with open(f"/proc/{pid}/environ", "rb") as f:
                if f"{MARK}={temp_dir}".encode() in f.read().split(b"\0"):
                    out.append(pid)
        except OSError:  # gone, or not ours
            pass
    return out


def _comm(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""


def _stop_head(pgid: int, temp_dir: str, grace: float = 2.0) -> list[int]:
    """`ray stop`, scoped to this head: `ray stop` itself kills every Ray
    process of the user on the machine (another test's, another user
    session's), so the head's processes are signalled by id instead: SIGTERM,
    then SIGKILL (`ray stop --force`) after ``grace`` seconds. Returns the
    pids still alive afterwards (none, normally)."""
    for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 10.0)):
        for pid in _head_pids(pgid, temp_dir):
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline and _head_pids(pgid, temp_dir):
            time.sleep(0.2)
        if not _head_pids(pgid, temp_dir):
            return []
    return _head_pids(pgid, temp_dir)


@pytest.fixture
def ray_head():
    """A one-node Ray cluster: `ray start --head` on a free port, 2 CPUs, in
    its own process group and temp dir (short: Ray's unix sockets live
    there, and their paths are limited to ~107 characters)."""
    temp_dir = tempfile.mkdtemp(prefix="rt", dir="/tmp")
    port = _free_port()
    # Token authentication, with this head's own token: Ray turns it on for
    # `ray start --head` whenever ~/.ray/auth_token exists (any local
    # ray.init() writes one) and a driver that names an address must then
    # set RAY_AUTH_MODE=token too; set it here so that the test does not
    # depend on the user's ~/.ray, and the driver proves it can join.
    token = Path(temp_dir) / "auth_token"
    token.write_text(secrets.token_hex(32))
    token.chmod(0o600)
    auth = {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN_PATH": str(token), "RAY_USAGE_STATS_ENABLED": "0"}
    env = {k: v for k, v in os.environ.items() if k != "RAY_AUTH_TOKEN"} | auth | {MARK: temp_dir}
    # Free ports for what would otherwise take fixed ones (dashboard 8265,
    # its agent 52365, Ray Client 10001) and clash with another Ray here.
    cmd = [str(RAY), "start", "--head", f"--port={port}", "--num-cpus=2",
           "--include-dashboard=false", f"--dashboard-port={_free_port()}", f"--dashboard-agent-listen-port={_free_port()}",
           f"--ray-client-server-port={_free_port()}",
           f"--temp-dir={temp_dir}", "--disable-usage-stats"]  # fmt: skip
    # A new session: the head's daemons (gcs_server, raylet, ...) stay in
    # the process group that `ray start` leads.
    start = subprocess.Popen(cmd, env=env, start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    pgid = start.pid
    try:
        out, _ = start.communicate(timeout=180)
        assert start.returncode == 0, out
        raylet = [p for p in _head_pids(pgid, temp_dir) if _comm(p) == "raylet"]
        assert len(raylet) == 1, (raylet, out)
        # The head's node, as its raylet was told (Ray advertises the
        # machine's address, even for 127.0.0.1).
        args = dict(a[2:].split("=", 1) for a in Path(f"/proc/{raylet[0]}/cmdline").read_text().split("\0") if a.startswith("--") and "=" in a)
        yield {"address": f"127.0.0.1:{port}", "temp_dir": temp_dir, "raylet_pid": raylet[0], "auth": auth,
               "node_id": args["node_id"], "node_ip": args["node_ip_address"]}  # fmt: skip
    finally:
        if start.poll() is None:
            start.kill()
            start.wait()
        left = _stop_head(pgid, temp_dir)
        shutil.rmtree(temp_dir, ignore_errors=True)
        assert not left, f"head processes still alive after SIGKILL: {left}"


def _head_logs(temp_dir: str, tail: int = 3000) -> str:
    """The non-empty error logs of the head's processes, for a failure."""
    out = []
    for f in sorted(glob.glob(f"{temp_dir}/session_*/logs/*.err")):
        text = Path(f).read_text(errors="replace").strip()
        if text:
            out.append(f"--- {os.path.basename(f)}\n{text[-tail:]}")
    return "\n".join(out)


DRIVER = """
import json, os, sys

import ray

address, storage = sys.argv[1:3]
# With an address, ray.init joins that cluster or fails: it starts no Ray of its own.
ray.init(address=address, log_to_driver=False)
nodes = [n for n in ray.nodes() if n["Alive"]]
info = {"driver_pid": os.getpid(), "cpus": ray.cluster_resources().get("CPU"),
        "driver_node": ray.get_runtime_context().get_node_id(),
        "nodes": [{k: n[k] for k in ("NodeID", "NodeManagerAddress", "RayletSocketName")} for n in nodes]}
# yarngym (the Go library) only now, in this fresh process; trials load it
# in the head's worker processes.
import yarngym.tune as yt
res = yt.sweep("AutoAdmin-v0", num_samples=4, n_seeds=5, chunk=5, seed=0, storage_path=storage)
info.update({k: res[k] for k in ("best_config", "best_train_return", "test_mean", "trials", "trials_full")},
            n_test=len(res["test_returns"]),
            trial_runs=[{"pid": r.metrics.get("pid"), "node_ip": r.metrics.get("node_ip")} for r in res["results"]])
ray.shutdown()
print("RESULT " + json.dumps(info))
"""


def test_sweep_on_a_separate_ray_head(ray_head, tmp_path):
    head, temp_dir = ray_head, ray_head["temp_dir"]
    t0 = time.monotonic()
    argv = f"import sys; sys.argv[1:] = [{head['address']!r}, {str(tmp_path / 'tune')!r}]\n"
    r = run_py(argv + DRIVER, timeout=600, env=head["auth"])
    lines = [ln for ln in r.stdout.splitlines() if ln.startswith("RESULT ")]
    if r.returncode != 0 or not lines:
        pytest.fail(f"driver failed ({r.returncode}):\n{r.stdout[-3000:]}\n{r.stderr[-6000:]}\n{_head_logs(temp_dir)}", pytrace=False)
    info = json.loads(lines[-1][len("RESULT "):])
    print(f"driver: {time.monotonic() - t0:.1f}s; {json.dumps(info)}")

    # The cluster is the head's: one node, 2 CPUs, whose raylet lives in the
    # fixture's temp dir; the driver joined it and started no node of its own.
    assert info["cpus"] == 2
    assert len(info["nodes"]) == 1, info["nodes"]
    node = info["nodes"][0]
    assert node["NodeID"] == head["node_id"] and node["NodeManagerAddress"] == head["node_ip"], (node, head)
    assert node["RayletSocketName"].startswith(temp_dir + "/"), node
    assert info["driver_node"] == head["node_id"]

    # The sweep ran: every trial scored on all 5 seeds, the best evaluated
    # on the test seeds.
    assert info["trials"] == 4 and info["trials_full"] == 4, info
    assert info["n_test"] > 0 and math.isfinite(info["test_mean"])

    # Each trial ran in a worker process of the head's raylet, not in the
    # driver: its log is in the head's session directory.
    for run in info["trial_runs"]:
        assert run["node_ip"] == head["node_ip"] and run["pid"] != info["driver_pid"], run
        logs = glob.glob(f"{temp_dir}/session_*/logs/worker-*-{run['pid']}.*")
        assert logs, (run, sorted(os.listdir(glob.glob(f"{temp_dir}/session_*/logs")[0])))

    # The head outlives its driver (the driver did not own it).
    assert Path(f"/proc/{head['raylet_pid']}").exists()
