"""Hatchling build hook: builds the Go c-shared library into the package.

Runs ``go build -buildmode=c-shared ./bindings/capi`` (needs Go and a C
compiler on PATH) and puts libyarngym next to yarngym/__init__.py, where the
package loads it from; the wheel carries it with the C headers. The library
does not link libpython, so the wheel is tagged ``py3-none-<platform>``:
one wheel per platform serves every Python 3 version.

It also writes ``_registry.json``, the task registry as the freshly built
library reports it (``yg_registry(YG_REG_TASKS)``, read in a subprocess so
that this process never loads Go): the package registers its gymnasium ids
from it at import, without loading the library, and checks it against the
library when the library loads. The Go registry stays the only table.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


def _lib_name() -> str:
    if sys.platform == "darwin":
        return "libyarngym.dylib"
    if sys.platform == "win32":
        return "yarngym.dll"
    return "libyarngym.so"


class GoBuildHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict) -> None:
        if self.target_name != "wheel":
            return
        root = Path(self.root)
        pkg = root / "bindings" / "python" / "src" / "yarngym"
        headers = [root / "bindings" / "capi" / h for h in ("yarngym.h", "yarngym_api.h")]
        lib = pkg / _lib_name()
        go = shutil.which("go")
        if go is None:
            raise RuntimeError(
                "yarngym: building the native library needs Go (see go.mod for the version) and a C "
                "compiler on PATH: `go build -buildmode=c-shared ./bindings/capi`"
            )
        env = dict(os.environ, CGO_ENABLED="1")
        with tempfile.TemporaryDirectory(prefix="yarngym-build-") as tmp:
            out = Path(tmp) / _lib_name()
            cmd = [go, "build", "-buildmode=c-shared", "-trimpath", "-o", str(out), "./bindings/capi"]
            self.app.display_info("yarngym: " + " ".join(cmd[1:]))
            res = subprocess.run(cmd, cwd=root, env=env)
            if res.returncode != 0:
                raise RuntimeError(f"yarngym: `{' '.join(cmd)}` failed (exit {res.returncode})")
            # The generated header (libyarngym.h) is dropped: yarngym.h is
            # the hand-written one, checked against the exports by cgo.
            tmp_lib = lib.with_name(lib.name + ".tmp")
            shutil.copyfile(out, tmp_lib)
            os.replace(tmp_lib, lib)
        registry = pkg / "_registry.json"
        tmp_reg = registry.with_name(registry.name + ".tmp")
        res = subprocess.run([sys.executable, "-c", _DUMP, str(lib), str(tmp_reg)], cwd=root)
        if res.returncode != 0:
            raise RuntimeError(f"yarngym: reading the task registry from {lib} failed (exit {res.returncode})")
        json.loads(tmp_reg.read_text())  # valid JSON, or fail the build
        os.replace(tmp_reg, registry)

        plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
        build_data["pure_python"] = False
        build_data["tag"] = f"py3-none-{plat}"
        if version != "editable":
            build_data["force_include"][str(lib)] = f"yarngym/{lib.name}"
            build_data["force_include"][str(registry)] = "yarngym/_registry.json"
            # yarngym.h for C clients, yarngym_api.h (which it includes) for
            # cffi, which reads the declarations from it as they are.
            for h in headers:
                build_data["force_include"][str(h)] = f"yarngym/{h.name}"


# Run in a subprocess: loads the library with ctypes and writes
# yg_registry(YG_REG_TASKS) to a file (argv: library, output).
_DUMP = r"""
import ctypes, sys
lib = ctypes.CDLL(sys.argv[1])
n = ctypes.c_int32()
if lib.yg_registry(0, None, 0, ctypes.byref(n)) != 0:
    sys.exit("yg_registry failed")
buf = ctypes.create_string_buffer(n.value + 1)
if lib.yg_registry(0, buf, n.value + 1, None) != 0:
    sys.exit("yg_registry failed")
open(sys.argv[2], "wb").write(buf.value)
"""
