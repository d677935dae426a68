"""Fixtures shared by the tests."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def debug_lib(tmp_path_factory) -> dict[str, str]:
    """A library built with the yarngym_debug tag (its test hook
    yg_debug_hook makes the engine panic or raise SIGINT on purpose; see
    bindings/capi/yarngym_debug_api.h), for tests in a subprocess: the
    environment variables that make yarngym load it there (one Go library
    per process)."""
    import yarngym

    out = tmp_path_factory.mktemp("debuglib")
    lib = out / yarngym.library_path().name
    # -trimpath as the package build: the two share Go's build cache.
    subprocess.run(["go", "build", "-tags", "yarngym_debug", "-buildmode=c-shared", "-trimpath", "-o", str(lib), "./bindings/capi"],
                   cwd=ROOT, check=True)  # fmt: skip
    shutil.copyfile(yarngym.library_path().with_name("_registry.json"), out / "_registry.json")
    return {"YARNGYM_LIBRARY": str(lib), "YARNGYM_DEBUG_HEADER": str(ROOT / "bindings" / "capi" / "yarngym_debug_api.h")}
