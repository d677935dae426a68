"""Go's errors arrive as Python exceptions with Go's message; bad calls on
the raw C ABI return status codes; nothing crashes the interpreter."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import yarngym
from yarngym import YarnGymError, _native
from _helpers import QUICK, run_py


@pytest.mark.parametrize(
    "kwargs, status, message",
    [
        ({"scenario": "no-such-scenario"}, 1, 'scenario "no-such-scenario"'),
        # The message lists the policy's parameters, first and last as fair declares them.
        ({"scenario": "quick", "controlled": ["rho"]}, 1, 'policy fair has no parameter "rho" (it has: max_am_share, '),
        ({"scenario": "quick", "controlled": ["rho"]}, 1, ", locality_delay)"),
        ({"scenario": "quick", "policy": "nope"}, 1, 'policy "nope"'),
        ({"scenario": "quick", "reward": {"speed": 1}}, 1, 'unknown objective "speed"'),
        ({"scenario": "quick", "control_interval_s": -1}, 1, "control_interval_s: -1"),
        ({"scenario": "quick", "max_steps": -3}, 1, "max_steps: -3"),
        ({"scenario": "quick", "sets": ["no_such_key=1"]}, 1, "no_such_key"),
        ({"scenario": "quick", "reward": {"kills": 1}}, 1, "stall"),
        ({"scenario": "quick", "horizon_s": -5}, 1, "horizon_s"),
        ({"scenario": "quick", "controlled": ["max_am_share"], "bounds": {"max_am_share": (0, 3)}}, 1, "bounds: max_am_share"),
    ],
)
def test_bad_config(kwargs, status, message):
    import gc
    import warnings

    for make in (lambda: yarngym.ClusterEnv(**kwargs), lambda: yarngym.VectorClusterEnv(2, **kwargs)):
        with pytest.raises(YarnGymError) as e:
            make()
        assert e.value.status == status
        assert message in str(e.value)
    # The half-built envs are collected without an error from close().
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        gc.collect()


def test_bad_scenario_file_names_file_and_key(tmp_path):
    p = tmp_path / "bad.toml"
    p.write_text('name = "bad"\n[cluster]\nnodes_per_rack = "two"\n')
    with pytest.raises(YarnGymError) as e:
        yarngym.ClusterEnv(str(p))
    assert "bad.toml" in str(e.value) and "nodes_per_rack" in str(e.value)


def test_python_side_config_errors():
    with pytest.raises(ValueError):
        yarngym.ClusterEnv("")
    with pytest.raises(TypeError):
        yarngym.ClusterEnv("quick", no_such_option=1)
    with pytest.raises(ValueError):
        yarngym.ClusterEnv("quick", render_mode="human")


def test_bad_action_shape():
    env = yarngym.ClusterEnv(**QUICK)
    env.reset(seed=0)
    for bad in ([0.1, 0.2], np.zeros((1, 1)), 0.5, np.zeros(0)):
        with pytest.raises(ValueError, match=r"action has shape .* want \(1,\)"):
            env.step(bad)
    with pytest.raises(ValueError):
        env.step(["x"])
    venv = yarngym.VectorClusterEnv(3, **QUICK)
    venv.reset(seed=0)
    with pytest.raises(ValueError, match=r"want \(3, 1\)"):
        venv.step(np.zeros(3))
    free = yarngym.ClusterEnv("quick")  # no controlled parameter
    free.reset(seed=0)
    with pytest.raises(ValueError, match="controls no parameter"):
        free.step([1.0])


def test_nan_action_is_a_go_error():
    env = yarngym.ClusterEnv(**QUICK)
    env.reset(seed=0)
    with pytest.raises(YarnGymError, match=r'action\[0\] for parameter "max_am_share" is NaN') as e:
        env.step(np.array([np.nan], np.float32))
    assert e.value.status == 3
    env.step(np.array([0.0], np.float32))  # the env is still usable
    venv = yarngym.VectorClusterEnv(4, **QUICK)
    venv.reset(seed=0)
    venv.step(np.zeros((4, 1)))
    # A NaN for env 2 refuses the whole step before any env moves.
    with pytest.raises(YarnGymError, match=r"env 2: step: action\[0\] .* is NaN \(no env was stepped\)"):
        venv.step(np.array([[0.0], [0.0], [np.nan], [0.0]]))
    _, _, _, _, info = venv.step(np.zeros((4, 1)))
    assert list(info["step"]) == [2, 2, 2, 2]


def test_step_order_errors():
    env = yarngym.ClusterEnv("quick", max_steps=1)
    with pytest.raises(YarnGymError, match="no episode; call Reset first"):
        env.step(None)
    env.reset(seed=0)
    assert env.step(None)[3] is True
    with pytest.raises(YarnGymError, match="the episode has ended; call Reset"):
        env.step(None)


def test_closed_env_raises_and_double_close_is_harmless():
    env = yarngym.ClusterEnv("quick")
    env.reset(seed=0)
    env.close()
    env.close()
    with pytest.raises(YarnGymError, match="unknown or already freed") as e:
        env.step(None)
    assert e.value.status == 2
    venv = yarngym.VectorClusterEnv(2, "quick")
    venv.close()
    venv.close()


def _raw():
    ffi, lib = _native.load()
    return ffi, lib


def _last_error(ffi, lib):
    buf = ffi.new("char[]", 4096)
    n = ffi.new("int32_t *")
    assert lib.yg_last_error(buf, 4096, n) == 0
    return ffi.string(buf).decode(), n[0]


def test_raw_abi_status_codes():
    ffi, lib = _raw()
    v = ffi.new("int32_t *")
    assert lib.yg_abi_version(v) == 0 and v[0] == lib.YG_ABI_VERSION == _native.ABI_VERSION
    assert lib.yg_abi_version(ffi.NULL) == lib.YG_ERR_INVALID
    h = ffi.new("int64_t *")
    assert lib.yg_batch_new(ffi.NULL, 1, 0, 0, h) == lib.YG_ERR_INVALID
    assert lib.yg_batch_new(b'{"scenario":"quick"}', 0, 0, 0, h) == lib.YG_ERR_INVALID
    msg, n = _last_error(ffi, lib)
    assert msg == "batch: n = 0, want 1 to 1048576 environments" and n == len(msg)
    assert lib.yg_batch_new(b'{"scenario":"quick","oops":1}', 1, 0, 0, h) == lib.YG_ERR_INVALID
    assert 'unknown field "oops"' in _last_error(ffi, lib)[0]
    assert lib.yg_batch_dims(987654321, ffi.NULL, ffi.NULL, ffi.NULL, ffi.NULL, ffi.NULL) == lib.YG_ERR_HANDLE
    assert lib.yg_batch_free(987654321) == lib.YG_OK  # unknown: harmless
    assert lib.yg_batch_new(b'{"scenario":"quick"}', 2, 1, 0, h) == lib.YG_OK
    handle = h[0]
    assert lib.yg_batch_reset(handle, ffi.NULL, ffi.NULL, ffi.NULL, ffi.NULL) == lib.YG_ERR_INVALID
    assert lib.yg_batch_string(handle, 42, ffi.NULL, 0, ffi.NULL) == lib.YG_ERR_INVALID
    # A wild pointer is the caller's bug; a Go panic still comes back as a status.
    assert lib.yg_batch_spaces(handle, ffi.cast("float *", 16), ffi.NULL, ffi.NULL, ffi.NULL) == lib.YG_ERR_PANIC
    assert "Go panic" in _last_error(ffi, lib)[0]
    # Truncated copies of the error text stay NUL-terminated.
    small = ffi.new("char[]", 6)
    n = ffi.new("int32_t *")
    lib.yg_last_error(small, 6, n)
    assert ffi.string(small) == b"yarng" and n[0] > 6
    assert lib.yg_batch_free(handle) == lib.YG_OK
    assert lib.yg_batch_free(handle) == lib.YG_OK
    assert lib.yg_batch_new(b'{"scenario":"quick"}', 1, 1, 0, h) == lib.YG_OK
    assert h[0] > handle  # never reused
    lib.yg_batch_free(h[0])


def test_last_error_is_per_thread():
    ffi, lib = _raw()
    h = ffi.new("int64_t *")
    go_b, done_b = threading.Event(), threading.Event()
    seen = {}

    def a():
        lib.yg_batch_new(b'{"scenario":"quick"}', 0, 0, 0, h)  # n = 0
        go_b.set()
        done_b.wait(30)
        seen["a"] = _last_error(ffi, lib)[0]

    def b():
        go_b.wait(30)
        lib.yg_batch_new(b'{"scenario":"quick"}', 1, -7, 0, h)  # workers = -7
        seen["b"] = _last_error(ffi, lib)[0]
        done_b.set()

    ts = [threading.Thread(target=a), threading.Thread(target=b)]
    for t in ts:
        t.start()
    for t in ts:
        t.join(60)
    assert "n = 0" in seen["a"] and "workers = -7" in seen["b"]


# A Go panic (a bug in yarngym; provoked here with the yarngym_debug
# library's test hook) is status 4 everywhere, raises YarnGymPanic, and
# poisons what it happened in: every later call on it raises YarnGymPanic
# naming the original panic, instead of stepping a corrupted simulation.
def test_engine_panic_poisons_the_env(debug_lib):
    r = run_py(
        """
        import numpy as np, yarngym
        from _helpers import debug_hook
        dbg = debug_hook()
        for make in (lambda: yarngym.ClusterEnv("quick", controlled=["max_am_share"]),
                     lambda: yarngym.VectorClusterEnv(3, "quick", controlled=["max_am_share"], workers=2)):
            env = make()
            n = getattr(env, "num_envs", 0)
            act = np.full((n, 1) if n else (1,), 0.5)
            assert dbg.yg_debug_hook(env._b.handle, dbg.YG_DEBUG_PANIC, 90.0) == 0
            env.reset(seed=1)
            env.step(act)  # 0-60 s
            try:
                env.step(act)  # 60-120 s: the engine panics at 90 s
                raise SystemExit("no error from the panicking step")
            except yarngym.YarnGymError as e:
                first = str(e)
                assert e.status == 4 and type(e).__name__ == "YarnGymPanic", (e.status, first)
                assert "yg_debug_hook: deliberate panic at 90" in first and "Go panic, a bug in yarngym" in first, first
                assert "[at " in first and "can no longer be used" in first, first
            original = first.split("): ", 1)[1].split("; handle")[0]  # "env 0: yg_debug_hook: ... [at file:line]"
            for call in (lambda: env.step(act), lambda: env.reset(seed=2), lambda: env.step(act)):
                try:
                    call()
                    raise SystemExit("a call after the panic went through")
                except yarngym.YarnGymError as e:
                    assert isinstance(e, yarngym.YarnGymPanic) and e.status == 4, (e.status, str(e))
                    assert original in str(e) and "is unusable" in str(e), (original, str(e))
            env.close()
            env.close()
        print("ok")
        """,
        env=debug_lib,
    )
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stdout + r.stderr


def test_run_panic_is_the_same_status(debug_lib):
    r = run_py(
        """
        import yarngym
        from _helpers import debug_hook
        dbg = debug_hook()
        assert dbg.yg_debug_hook(0, dbg.YG_DEBUG_PANIC, 30.0) == 0  # every later run
        try:
            yarngym.run("quick", seed=1)
            raise SystemExit("no error")
        except yarngym.YarnGymError as e:
            assert e.status == 4 and type(e).__name__ == "YarnGymPanic", (e.status, str(e))
            assert "deliberate panic at 30" in str(e) and "[at " in str(e), str(e)
        assert dbg.yg_debug_hook(0, dbg.YG_DEBUG_NONE, 0) == 0
        assert yarngym.run("quick", seed=1).summary["seed"] == 1
        print("ok")
        """,
        env=debug_lib,
    )
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stdout + r.stderr


def test_complex_actions_are_refused():
    import gymnasium as gym
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no ComplexWarning: an error instead
        env = yarngym.ClusterEnv(**QUICK)
        env.reset(seed=0)
        for bad in (np.array([0.3 + 1j]), [0.3 + 1j], np.array([0.3 + 0j], np.complex64), np.array([0.3 + 1j], object)):
            with pytest.raises(ValueError, match="complex|real numbers"):
                env.step(bad)
        assert env.step(np.array([0.3]))[4]["step"] == 1  # nothing was stepped by the refused actions
        with gym.make("yarngym/OPERA-v0") as task_env:  # normalized actions
            task_env.reset(seed=0)
            with pytest.raises(ValueError, match="complex-valued"):
                task_env.unwrapped.step(np.array([0.1j, 0.2]))
        venv = yarngym.VectorClusterEnv(2, **QUICK)
        venv.reset(seed=0)
        with pytest.raises(ValueError, match="complex-valued"):
            venv.step(np.full((2, 1), 0.5 + 1j))
        assert list(venv.step(np.full((2, 1), 0.5))[4]["step"]) == [1, 1]


@pytest.mark.parametrize("bad", [1.9, 2.5, float("nan"), float("inf"), "7", True, -1, 2**64])
def test_non_integral_seeds_are_refused(bad):
    env = yarngym.ClusterEnv(**QUICK)
    with pytest.raises(ValueError, match="episode_seed"):
        env.reset(options={"episode_seed": bad})
    venv = yarngym.VectorClusterEnv(2, **QUICK)
    with pytest.raises(ValueError, match="seed"):
        venv.reset(seed=[bad, 3])
    with pytest.raises(ValueError, match="episode_seed"):
        venv.reset(options={"episode_seeds": [bad, 3]})
    with pytest.raises(ValueError, match="seed"):
        yarngym.run("quick", seed=bad)
    with pytest.raises(ValueError, match="seed"):
        yarngym.evaluate("AutoAdmin-v0", [1.5], seeds=[bad])


def test_integral_seeds_are_taken_exactly():
    env = yarngym.ClusterEnv(**QUICK)
    want = env.reset(options={"episode_seed": 7})[0]
    for s in (7.0, np.int32(7), np.uint64(7), np.float32(7)):
        obs, info = env.reset(options={"episode_seed": s})
        assert info["episode_seed"] == 7 and type(info["episode_seed"]) is int and np.array_equal(obs, want)
    big = 2**64 - 1
    assert env.reset(options={"episode_seed": big})[1]["episode_seed"] == big
    venv = yarngym.VectorClusterEnv(2, **QUICK)
    venv.reset(options={"episode_seeds": [7.0, np.uint64(8)]})
    assert list(venv.episode_seeds()) == [7, 8]


def test_timeline_below_a_millisecond_is_refused():
    for bad in (0.0005, 1e-9, -1, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="timeline_s"):
            yarngym.run("quick", seed=1, timeline_s=bad)
    r = yarngym.run("quick", seed=1, timeline_s=0.001)  # the engine's resolution: taken
    assert r.timeline["t_s"].size > 1 and r.timeline["t_s"][1] - r.timeline["t_s"][0] == pytest.approx(0.001)
    # So does the scenario's own run.timeline_s, and the C ABI.
    with pytest.raises(YarnGymError, match="run.timeline_s: 0.0005 s is below the engine's resolution of 1 ms") as e:
        yarngym.run("quick", seed=1, sets={"run.timeline_s": 0.0005})
    assert e.value.status == 1
    ffi, lib = _raw()
    h = ffi.new("int64_t *")
    assert lib.yg_run_new(b'{"scenario": "quick", "timeline_s": 0.0005}', h) == lib.YG_ERR_INVALID
    assert "resolution of 1 ms" in _last_error(ffi, lib)[0]
