"""Loading and process rules: the library loads lazily, a fork after loading
fails cleanly in the child instead of hanging, threads are set from Python."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

import yarngym


def run_py(code: str, timeout: float = 120) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([os.path.dirname(__file__)] + sys.path)
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=timeout, env=env
    )


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
    with pytest.raises(ValueError):
        yarngym.set_threads(0)


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
    from yarngym import _native

    cdef = _native._cdef(_native._header_path().read_text())
    assert "extern" not in cdef and "#include" not in cdef
    for name in ("yg_batch_step", "yg_last_error", "yg_set_threads", "YG_ERR_PANIC"):
        assert name in cdef


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
