"""Loading and process rules: the library loads lazily, a fork after loading
fails cleanly in the child instead of hanging, threads are set from Python."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

import yarngym
from _helpers import run_py


def test_import_does_not_load_the_library():
    r = run_py(
        """
        import gymnasium as gym, yarngym
        from yarngym import _native
        assert _native._lib is None, "loaded at import"
        gym.spec("yarngym/AutoAdmin66-Fair-v0")
        assert _native._lib is None, "loaded by gym.spec"
        env = gym.make("yarngym/AutoAdmin66-Fair-v0")
        assert _native._lib is not None, "not loaded by the first env"
        print("ok")
        """
    )
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_fork_before_loading_is_fine_and_after_loading_fails_cleanly():
    r = run_py(
        """
        import os, sys, yarngym
        pid = os.fork()  # before Go is loaded: the child may use yarngym
        if pid == 0:
            env = yarngym.ClusterEnv("quick"); env.reset(seed=1); env.step(None)
            os._exit(0)
        _, st = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(st) == 0, st

        env = yarngym.ClusterEnv("quick"); env.reset(seed=1)
        pid = os.fork()  # after Go is loaded: calls raise instead of hanging
        if pid == 0:
            code = 3
            try:
                env.step(None)
            except yarngym.YarnGymError as e:
                code = 0 if "spawn" in str(e) else 4
            try:
                yarngym.ClusterEnv("quick")
                code = 5
            except yarngym.YarnGymError:
                pass
            del env  # the finaliser must not call Go either
            os._exit(code)
        _, st = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(st) == 0, st
        env.step(None)  # the parent is unaffected
        print("ok")
        """
    )
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


def test_set_threads_before_loading_applies_at_load():
    r = run_py(
        """
        import yarngym
        assert yarngym.set_threads(1) is None  # not loaded yet: deferred
        v = yarngym.VectorClusterEnv(4, "quick")
        assert v.workers == 1, v.workers
        assert yarngym.set_threads(2) == 1
        assert yarngym.VectorClusterEnv(4, "quick").workers == 2
        assert yarngym.VectorClusterEnv(4, "quick", workers=3).workers == 3
        print("ok")
        """
    )
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


def test_set_threads_rejects_nonsense():
    for bad in (0, -1, 2.5, 2**31 - 1, yarngym.max_threads() + 1):
        with pytest.raises(ValueError, match="set_threads"):
            yarngym.set_threads(bad)


def test_abi_version_and_library_path():
    assert yarngym.abi_version() == 2
    assert yarngym.library_path().is_file()


def test_stale_registry_is_refused(tmp_path):
    """The ids come from the registry file the build wrote beside the
    library; a library whose registry differs is refused when it loads."""
    import shutil

    lib = tmp_path / yarngym.library_path().name
    shutil.copyfile(yarngym.library_path(), lib)
    (tmp_path / "_registry.json").write_text('[{"gym_id": "yarngym/Old-v0", "env": {"scenario": "quick"}}]')
    env = dict(os.environ, YARNGYM_LIBRARY=str(lib))
    env["PYTHONPATH"] = os.pathsep.join([os.path.dirname(__file__)] + sys.path)
    code = textwrap.dedent(
        """
        import gymnasium as gym, yarngym
        assert "yarngym/Old-v0" in yarngym.TASKS  # read at import, Go not loaded
        try:
            yarngym.ClusterEnv("quick")
        except yarngym.YarnGymError as e:
            assert "does not match the library" in str(e), e
            print("ok")
        """
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stdout + r.stderr


def test_header_is_the_cdef():
    """cffi declares the ABI from yarngym_api.h as it is, no text rewritten."""
    import cffi

    from yarngym import _native

    path = _native._header_path()
    assert path.name == "yarngym_api.h"
    ffi = cffi.FFI()
    ffi.cdef(path.read_text())
    assert ffi.sizeof("yg_job") > 0 and ffi.sizeof("yg_task") > 0
    lib = ffi.dlopen(str(_native.library_path()))
    v = ffi.new("int32_t *")
    assert lib.YG_ERR_PANIC == 4 and lib.yg_abi_version(v) == lib.YG_OK and v[0] == lib.YG_ABI_VERSION


def test_ctrl_c_still_reaches_python_after_go_loads():
    # Python installs its SIGINT handler only when SIGINT starts at SIG_DFL; a
    # parent that ignores SIGINT (`make test &` from a script: background jobs
    # without job control get SIG_IGN, and exec keeps it) would leave the
    # child ignoring it. Install it explicitly, as an interactive Python has
    # it, before Go loads: the test still catches Go replacing or blocking it.
    r = run_py(
        """
        import os, signal, time, yarngym
        signal.signal(signal.SIGINT, signal.default_int_handler)
        env = yarngym.ClusterEnv("quick"); env.reset(seed=1)
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)
            print("no KeyboardInterrupt")
        except KeyboardInterrupt:
            env.step(None)
            print("ok")
        """
    )
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stdout + r.stderr


def test_dropping_an_env_frees_its_handle():
    from yarngym import _native

    ffi, lib = _native.load()
    env = yarngym.ClusterEnv("quick")
    venv = yarngym.VectorClusterEnv(2, "quick")
    handles = [env._b.handle, venv._b.handle]
    for h in handles:
        assert lib.yg_batch_dims(h, ffi.NULL, ffi.NULL, ffi.NULL, ffi.NULL, ffi.NULL) == lib.YG_OK
    del env, venv  # no reference cycles: freed at once, without the garbage collector
    for h in handles:
        assert lib.yg_batch_dims(h, ffi.NULL, ffi.NULL, ffi.NULL, ffi.NULL, ffi.NULL) == lib.YG_ERR_HANDLE


def test_set_threads_is_bounded():
    """set_threads takes 1 to max_threads() (4 x the CPUs, at least 256);
    2**31-1 once killed the process (Go out of memory) and 100000 took
    minutes. Run where memory is capped, so that a regression fails the test
    instead of exhausting the machine."""
    r = run_py(
        """
        import resource, yarngym
        from yarngym import _native
        resource.setrlimit(resource.RLIMIT_AS, (8 << 30, 8 << 30))
        for bad in (100000, 2**31 - 1, 2**40, 0, -3, 1.5, "4", True):
            try:
                yarngym.set_threads(bad)  # before loading: refused, not deferred
                raise SystemExit(f"set_threads({bad!r}) accepted before loading")
            except ValueError as e:
                assert "set_threads" in str(e), e
        assert _native._lib is None and _native._pending_threads is None
        env = yarngym.ClusterEnv("quick"); env.reset(seed=1)
        prev = yarngym.set_threads(2)
        m = yarngym.max_threads()
        assert m >= 256 and m >= 4 * _native._cpu_count(), m
        for bad in (2**31 - 1, m + 1):
            try:
                yarngym.set_threads(bad)
                raise SystemExit(f"set_threads({bad!r}) accepted")
            except ValueError as e:
                assert f"want 1 to {m}" in str(e), e
        # The C ABI refuses it too, with a status and a message, and changes nothing.
        ffi, lib = _native.load()
        p = ffi.new("int32_t *")
        assert lib.yg_set_threads(2**31 - 1, p) == lib.YG_ERR_INVALID
        buf = ffi.new("char[]", 512); lib.yg_last_error(buf, 512, ffi.NULL)
        assert f"want 1 to {m}" in ffi.string(buf).decode(), ffi.string(buf)
        assert lib.yg_set_threads(0, p) == 0 and p[0] == 2, p[0]
        assert yarngym.set_threads(m) == 2 and yarngym.set_threads(1) == m
        env.step(None)
        print("ok")
        """
    )
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stdout + r.stderr[-3000:]


# Ctrl-C during a step: the engine raises SIGINT itself in the middle of a
# step (the yarngym_debug library's test hook), as a user's Ctrl-C arriving
# while Go runs. The step must either return its results, KeyboardInterrupt
# following in the caller, or not happen: what the caller last got and the
# env's state agree (the next step is the one after the last one returned).
CTRL_C = """
    import signal, time, numpy as np, yarngym
    from _helpers import debug_hook
    signal.signal(signal.SIGINT, signal.default_int_handler)  # as an interactive Python has it
    dbg = debug_hook()
    env = {make}
    assert dbg.yg_debug_hook(env._b.handle, dbg.YG_DEBUG_SIGINT, 150.0) == 0  # in the third step (120-180 s)
    env.reset(seed=1)
    last = None
    try:
        for k in range(30):
            last = env.step({act})
        raise SystemExit("no KeyboardInterrupt")
    except KeyboardInterrupt:
        pass
    seen = int(np.max(last[4]["step"]))
    # The interrupted step's results reached the caller; the Ctrl-C came at
    # the latest before the step after it changed anything.
    assert seen in (3, 4), seen
    nxt = env.step({act})
    assert int(np.max(nxt[4]["step"])) == seen + 1, (seen, nxt[4]["step"])
    time.sleep(0.3)  # a Ctrl-C is delivered once, not again later
    env.step({act})
    print("ok", seen)
"""


@pytest.mark.parametrize(
    "make, act",
    [
        ('yarngym.ClusterEnv("opera-mr")', "None"),
        ('yarngym.VectorClusterEnv(2, "opera-mr", workers=2)', "None"),
        ('yarngym.ClusterEnv("opera-mr", controlled=["rho"], policy="opera")', "[1.2]"),
    ],
)
def test_ctrl_c_during_a_step_keeps_env_and_results_consistent(debug_lib, make, act):
    r = run_py(CTRL_C.format(make=make, act=act), env=debug_lib)
    assert r.returncode == 0 and r.stdout.startswith("ok"), r.stdout + r.stderr[-3000:]
