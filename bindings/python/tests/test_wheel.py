"""The platform wheel (`make wheel`) on a machine without Go: built by the
Makefile target into a temporary directory, installed in a fresh virtualenv
with only binary wheels, and run there with no Go or C compiler on PATH and
the source tree out of reach."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import sysconfig
import textwrap
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

# What a researcher runs: a registered task, reset with a seed, stepped to
# its end with the task's default (the paper's) action.
SCRIPT = textwrap.dedent(
    """
    import json, shutil, sys, sysconfig
    import gymnasium as gym, numpy as np
    import yarngym

    for tool in ("go", "gcc", "cc", "clang"):
        assert shutil.which(tool) is None, shutil.which(tool)
    task = yarngym.TASKS["yarngym/AutoAdmin-v0"]
    env = gym.make("yarngym/AutoAdmin-v0", normalize_actions=False)  # the default in the parameter's own units
    obs, info = env.reset(seed=1)
    action = np.asarray(task["default"], dtype=np.float32)
    ret, steps, terminated, truncated = 0.0, 0, False, False
    while not (terminated or truncated):
        obs, r, terminated, truncated, info = env.step(action)
        ret += float(r)
        steps += 1
    env.close()
    print(json.dumps({"file": yarngym.__file__, "library": str(yarngym.library_path()),
                      "site": sysconfig.get_paths()["platlib"], "prefix": sys.prefix,
                      "return": ret, "steps": steps, "terminated": terminated}))
    """
)

# Tools whose directories leave PATH: the wheel must need none of them.
_BUILD_TOOLS = ("go", "gofmt", "gcc", "cc", "clang")


def _plat() -> str:
    return sysconfig.get_platform().replace("-", "_").replace(".", "_")


def _stripped_path(venv_bin: Path) -> str:
    keep = [str(venv_bin)]
    for d in os.environ.get("PATH", "").split(os.pathsep):
        if d and not any(os.access(os.path.join(d, t), os.X_OK) for t in _BUILD_TOOLS):
            keep.append(d)
    return os.pathsep.join(keep)


def _clean_env(venv: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("GO", "CGO_", "PYTHON", "YARNGYM_")) and k not in ("CC", "CXX", "VIRTUAL_ENV")}  # fmt: skip
    env["PATH"] = _stripped_path(venv / "bin")
    env["VIRTUAL_ENV"] = str(venv)
    env["PYTHONNOUSERSITE"] = "1"
    return env


def test_wheel_runs_without_go(tmp_path):
    # 1. The Makefile target, into tmp_path, with this interpreter's venv.
    dist = tmp_path / "dist"
    subprocess.run(["make", "-s", "wheel", f"WHEEL_DIR={dist}", f"VENV={sys.prefix}"], cwd=ROOT, check=True, timeout=600)
    wheels = sorted(dist.glob("*.whl"))
    assert len(wheels) == 1, wheels
    whl = wheels[0]
    import yarngym
    from yarngym._native import _lib_name

    assert whl.name == f"yarngym-{yarngym.__version__}-py3-none-{_plat()}.whl"  # not cpXY: every Python 3
    lib_name = _lib_name()
    with zipfile.ZipFile(whl) as z:
        names = set(z.namelist())
        for f in (f"yarngym/{lib_name}", "yarngym/yarngym.h", "yarngym/yarngym_api.h", "yarngym/_registry.json", "yarngym/__init__.py"):
            assert f in names, f"{f} is not in {whl.name}"
        meta = z.read(f"yarngym-{yarngym.__version__}.dist-info/WHEEL").decode()
    assert f"Tag: py3-none-{_plat()}" in meta and "Root-Is-Purelib: false" in meta, meta

    # 2. A fresh virtualenv (no system site-packages) and the wheel in it:
    # binary wheels only, so nothing is compiled on the way.
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    py = venv / "bin" / "python"
    env = _clean_env(venv)
    subprocess.run([str(py), "-m", "pip", "install", "-q", "--disable-pip-version-check", "--only-binary=:all:", str(whl)],
                   cwd=tmp_path, env=env, check=True, timeout=600)  # fmt: skip

    # 3. Run it away from the source tree, with no Go or C compiler on PATH.
    work = tmp_path / "work"
    work.mkdir()
    res = subprocess.run([str(py), "-c", SCRIPT], cwd=work, env=env, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, f"exit {res.returncode}\nstdout:\n{res.stdout}\nstderr:\n{res.stderr}"
    out = json.loads(res.stdout.strip().splitlines()[-1])
    site = Path(out["site"]).resolve()
    assert Path(out["prefix"]).resolve() == venv.resolve()
    assert Path(out["file"]).resolve() == site / "yarngym" / "__init__.py", out
    assert Path(out["library"]).resolve() == site / "yarngym" / lib_name, out
    assert not Path(out["file"]).resolve().is_relative_to(ROOT.resolve())
    assert out["terminated"] and out["steps"] > 0, out
    assert math.isfinite(out["return"]), out
    print(f"{whl.name}: {whl.stat().st_size} bytes; AutoAdmin-v0 seed 1, default action: "
          f"{out['steps']} steps, return {out['return']:.6f}")

