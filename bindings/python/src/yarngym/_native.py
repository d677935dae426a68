"""The native library: cffi (ABI mode) over libyarngym's C ABI (yarngym.h).

The library is loaded lazily, by the first environment created (or by
:func:`set_threads` / :func:`abi_version`), never at import: a process that
forks after the Go runtime has started hangs in the child as soon as it calls
Go. If a process forks anyway, the child's environments raise
:class:`YarnGymError` instead of hanging (see ``_after_fork``). When it loads,
and the program has not chosen a multiprocessing start method, it chooses
"spawn" (see ``_prefer_spawn``).

Ctrl-C during a call that changes an environment (a step or a reset) is held
until the call has returned its results (see :func:`defer_sigint`).

:class:`NativeBatch` owns one handle and the numpy buffers Go writes into;
Go keeps no pointer to them after a call returns.
"""

from __future__ import annotations

import _thread
import dataclasses
import json
import operator
import os
import signal
import sys
import threading
import weakref
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

__all__ = [
    "EnvConfig",
    "YarnGymError",
    "YarnGymPanic",
    "NativeBatch",
    "abi_version",
    "set_threads",
    "library_path",
    "max_threads",
    "registry",
    "registry_path",
]

try:  # the C module behind signal: its getsignal/signal skip the enum
    import _signal  # conversions, which cost 2-4 us per call (every step)
except ImportError:  # pragma: no cover (not CPython)
    _signal = signal

ABI_VERSION = 2  # the YG_ABI_VERSION this package speaks
FLAG_NO_AUTORESET = 1
STR_FEATURES, STR_ACTIONS, STR_INFO, STR_CONFIG = 0, 1, 2, 3
REG_TASKS, REG_BASELINES, REG_POLICIES, REG_SCENARIOS, REG_OBJECTIVES, REG_CONFIG = 0, 1, 2, 3, 4, 5
_STATUS = {1: "invalid argument", 2: "bad handle", 3: "environment error", 4: "internal error"}

_PKG = Path(__file__).resolve().parent


class YarnGymError(RuntimeError):
    """An error reported by the Go library; the message is Go's.

    ``status`` is the C status code (1 invalid argument, 2 bad handle,
    3 environment error, 4 recovered Go panic: :class:`YarnGymPanic`).
    """

    def __init__(self, message: str, status: int = 0):
        super().__init__(message)
        self.status = status


class YarnGymPanic(YarnGymError):
    """A Go panic inside the library, recovered (status 4, YG_ERR_PANIC): a
    bug in yarngym, not in the caller's input; please report it with the
    message. The environment (or vector env, or run) it happened in is
    unusable from then on: every later call on it raises YarnGymPanic naming
    the original panic. Close it and create a new one.
    """


class _ForkedLib:
    """Stands in for the library in a child forked after Go was loaded."""

    def __getattr__(self, name: str) -> Any:
        def refuse(*args: Any) -> int:
            raise YarnGymError(
                "yarngym: this process was forked after the Go library was loaded, and Go's "
                "runtime does not survive fork; create environments in worker processes "
                "started with multiprocessing's 'spawn' (or 'forkserver') method"
            )

        return refuse


_lock = threading.Lock()
_ffi: Any = None
_lib: Any = None
_pid = os.getpid()
_pending_threads: int | None = None
_live: "weakref.WeakSet[NativeBatch]" = weakref.WeakSet()


def _lib_name() -> str:
    if sys.platform == "darwin":
        return "libyarngym.dylib"
    if sys.platform == "win32":
        return "yarngym.dll"
    return "libyarngym.so"


def library_path() -> Path:
    """Where the shared library is looked for (``$YARNGYM_LIBRARY`` wins)."""
    env = os.environ.get("YARNGYM_LIBRARY")
    if env:
        return Path(env)
    return _PKG / _lib_name()


def registry_path() -> Path:
    """The task registry the build wrote beside the library (see build_hook.py)."""
    return library_path().with_name("_registry.json")


def _header_path() -> Path:
    """yarngym_api.h, the ABI's declarations as cffi's cdef reads them (no
    preprocessing: yarngym.h includes it and adds what a C compiler needs)."""
    for p in (_PKG / "yarngym_api.h", _PKG.parents[2] / "capi" / "yarngym_api.h"):
        if p.is_file():
            return p
    raise YarnGymError(f"yarngym: the C header yarngym_api.h is missing (looked in {_PKG} and bindings/capi)")


def _after_fork() -> None:
    """In a child forked after the library was loaded: refuse further calls."""
    global _lib
    if _lib is None:
        return
    _lib = _ForkedLib()
    for b in list(_live):
        b._poison()


def _prefer_spawn() -> None:
    """Once Go has loaded, a forked child cannot use yarngym (and a fork of a
    process running Go's threads is unsafe; Python 3.14 stopped forking by
    default for such reasons). So when the program has not chosen a
    multiprocessing start method and the platform's default is "fork",
    choose "spawn": worker processes that are started with the default
    context afterwards (gymnasium's AsyncVectorEnv, a multiprocessing.Pool)
    then work. A program that calls ``multiprocessing.set_start_method``
    before creating its first environment keeps its choice."""
    import multiprocessing as mp

    try:
        if mp.get_start_method(allow_none=True) is None and mp.get_all_start_methods()[0] == "fork":
            mp.set_start_method("spawn")
    except RuntimeError:  # set meanwhile by another thread: theirs stands
        pass


def load() -> tuple[Any, Any]:
    """Loads the library once and returns (ffi, lib)."""
    global _ffi, _lib, _pending_threads, _pid
    if _lib is not None:
        return _ffi, _lib
    with _lock:
        if _lib is not None:
            return _ffi, _lib
        import cffi

        path = library_path()
        if not path.is_file():
            raise YarnGymError(
                f"yarngym: the native library {path} is missing. Install the package with "
                "`pip install .` (or `pip install -e .`) from the repository root, which runs "
                "`go build -buildmode=c-shared`, or point $YARNGYM_LIBRARY at a built library"
            )
        ffi = cffi.FFI()
        ffi.cdef(_header_path().read_text())
        lib = ffi.dlopen(str(path))
        v = ffi.new("int32_t *")
        lib.yg_abi_version(v)
        if v[0] != ABI_VERSION:
            raise YarnGymError(f"yarngym: library {path} speaks ABI version {v[0]}, this package {ABI_VERSION}: rebuild it")
        _check_registry(ffi, lib, path)
        if _pending_threads is not None:
            lib.yg_set_threads(_pending_threads, ffi.NULL)
            _pending_threads = None
        if hasattr(os, "register_at_fork"):
            os.register_at_fork(after_in_child=_after_fork)
        _prefer_spawn()
        _ffi = ffi
        _lib = lib
        _pid = os.getpid()
    return _ffi, _lib


def _registry_text(ffi: Any, lib: Any, what: int) -> str:
    n = ffi.new("int32_t *")
    st = lib.yg_registry(what, ffi.NULL, 0, n)
    if st:
        raise _error_from(ffi, lib, st)
    buf = ffi.new("char[]", n[0] + 1)
    st = lib.yg_registry(what, buf, n[0] + 1, ffi.NULL)
    if st:
        raise _error_from(ffi, lib, st)
    return ffi.string(buf).decode()


def _check_registry(ffi: Any, lib: Any, path: Path) -> None:
    """The ids were registered at import from registry_path(): refuse a
    library whose task registry differs (a stale build)."""
    reg = registry_path()
    if not reg.is_file():
        return
    if _registry_text(ffi, lib, REG_TASKS) != reg.read_text():
        raise YarnGymError(
            f"yarngym: the task registry {reg} does not match the library {path} (built at different "
            "times): reinstall the package (`pip install -e .` or `make pytest`) to rebuild both"
        )


def registry(what: int) -> Any:
    """One of the Go registries (REG_TASKS, REG_BASELINES, REG_POLICIES,
    REG_SCENARIOS, REG_OBJECTIVES), parsed from its JSON (loads the library)."""
    ffi, lib = load()
    return json.loads(_registry_text(ffi, lib, int(what)))


def _error_from(ffi: Any, lib: Any, status: int) -> YarnGymError:
    n = ffi.new("int32_t *")
    lib.yg_last_error(ffi.NULL, 0, n)
    buf = ffi.new("char[]", n[0] + 1)
    lib.yg_last_error(buf, n[0] + 1, ffi.NULL)
    msg = ffi.string(buf).decode("utf-8", "replace") or _STATUS.get(status, f"status {status}")
    return (YarnGymPanic if status == 4 else YarnGymError)(msg, status)


def _error(status: int) -> YarnGymError:
    return _error_from(_ffi, _lib, status)


def _check(status: int) -> None:
    if status:
        raise _error(status)


def abi_version() -> int:
    """The loaded library's ABI version (loads the library)."""
    ffi, lib = load()
    v = ffi.new("int32_t *")
    _check(lib.yg_abi_version(v))
    return int(v[0])


def _cpu_count() -> int:
    """The CPUs this process may run on, as Go's runtime.NumCPU counts them
    (the affinity mask where there is one)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def max_threads() -> int:
    """The largest count :func:`set_threads` takes: 4 x the CPUs this
    process may run on, at least 256 (the Go library applies the same
    bound, yarngym.h's yg_set_threads)."""
    return max(256, 4 * _cpu_count())


def set_threads(n: int) -> int | None:
    """Sets the Go scheduler's thread count (GOMAXPROCS) to ``n``, an
    integer from 1 to :func:`max_threads` (4 x the CPUs, at least 256: the
    simulator is CPU-bound, and a huge count only exhausts memory).

    Call it before creating environments: a native vector env's worker count
    is fixed when it is created (``workers=0`` means this count). Returns
    the previous count, or None when the library is not loaded yet (then the
    count is applied when it loads, so calling this does not load Go).
    """
    global _pending_threads
    if isinstance(n, (bool, np.bool_)):
        raise ValueError(f"set_threads: n = {n!r}, want an integer from 1 to {max_threads()}")
    try:
        n = operator.index(n)
    except TypeError:
        raise ValueError(f"set_threads: n = {n!r}, want an integer from 1 to {max_threads()}") from None
    if not 1 <= n <= max_threads():
        raise ValueError(
            f"set_threads: n = {n}, want 1 to {max_threads()} (4 x the {_cpu_count()} CPUs this process may "
            "use, at least 256: the simulator is CPU-bound, and more threads only cost memory)"
        )
    if _lib is None:
        with _lock:
            if _lib is None:
                _pending_threads = n
                return None
    ffi = _ffi
    prev = ffi.new("int32_t *")
    _check(_lib.yg_set_threads(n, prev))
    return int(prev[0])


def as_seed(value: Any, what: str = "seed") -> int:
    """``value`` as a seed for Go: an integer 0 <= seed < 2**64 (an int, a
    numpy integer, or a float holding an integer, as 7.0). A non-integral
    number (1.9) or anything else is refused with ValueError, never
    truncated."""
    if not isinstance(value, (bool, np.bool_)):
        try:
            s = operator.index(value)
        except TypeError:
            s = None
            if isinstance(value, (float, np.floating)) and np.isfinite(value) and float(value).is_integer():
                s = int(value)
        if s is not None:
            if 0 <= s < 2**64:
                return s
            raise ValueError(f"{what} {s}: want 0 <= {what} < 2**64")
    if isinstance(value, (float, np.floating)):
        raise ValueError(f"{what} {value!r} is not a whole number: want an integer 0 <= {what} < 2**64 (seeds are never rounded)")
    raise ValueError(f"{what} {value!r}: want an integer 0 <= {what} < 2**64, not a {type(value).__name__}")


# Ctrl-C during a call into Go. A cffi call releases the GIL, and Python runs
# its SIGINT handler (KeyboardInterrupt) only when the call has returned, at
# the next point the interpreter checks for signals: inside the env's step,
# after Go has stepped, so that step's results were lost though the env had
# advanced. Now an env's step or reset is wrapped in defer_sigint /
# resume_sigint: a Ctrl-C during the call is recorded instead, the call
# returns its results, and the Ctrl-C is delivered after it has returned: a
# helper thread sends SIGINT to the main thread once resume_sigint's last
# instruction that checks for signals has run (nothing after it in the env's
# step checks for them), so KeyboardInterrupt is raised in the caller, after
# it has the results. If the next step or reset comes first, it delivers
# the Ctrl-C itself, before it calls Go (the env unchanged). Either way the
# env's state and what the caller has seen agree. Only the main thread gets
# signals in Python, so only its calls are wrapped; a handler that is not
# Python's (SIG_DFL, SIG_IGN, a C handler) is left alone.

_SIGINT = int(signal.SIGINT)
_sigint_seen = False  # a Ctrl-C came during the call in progress
_sigint_owed: list[int] = []  # a Ctrl-C to deliver: taken (pop) by the helper thread or the next call


def _sigint_record(signum: int, frame: Any) -> None:
    global _sigint_seen
    _sigint_seen = True


def _sigint_redeliver(gate: Any) -> None:
    with gate:  # released by resume_sigint as its last call
        pass
    try:
        _sigint_owed.pop()
    except IndexError:  # the next call into Go delivered it
        return
    if hasattr(signal, "pthread_kill"):
        # A real SIGINT, which also interrupts a blocking call of the main thread.
        signal.pthread_kill(threading.main_thread().ident, _SIGINT)
    else:  # pragma: no cover (Windows)
        _thread.interrupt_main(_SIGINT)


def defer_sigint() -> Any:
    """Call before a call into Go that changes an environment; pass what it
    returns to :func:`resume_sigint` once the results are in hand, as the
    last thing before returning them (nothing after it may call a function
    implemented in C, such as copy(): the interpreter checks for signals
    after those)."""
    if threading.get_ident() != threading.main_thread().ident:
        return None
    old = _signal.getsignal(_SIGINT)
    if old is _sigint_record or not callable(old):
        return None  # nested, or not Python's handler
    if _sigint_owed:
        try:
            _sigint_owed.pop()
        except IndexError:
            pass
        else:
            old(_SIGINT, sys._getframe(1))  # an earlier call's Ctrl-C, before this call changes anything
    _signal.signal(_SIGINT, _sigint_record)
    return old


def resume_sigint(old: Any) -> None:
    """Ends :func:`defer_sigint`'s window: puts the SIGINT handler back and,
    if a Ctrl-C came meanwhile, has it delivered after the caller returns."""
    global _sigint_seen
    if old is None:
        return
    if not _sigint_seen:
        _signal.signal(_SIGINT, old)
        return
    _sigint_owed.append(1)
    gate = threading.Lock()
    gate.acquire()
    threading.Thread(target=_sigint_redeliver, args=(gate,), name="yarngym-ctrl-c", daemon=True).start()
    _sigint_seen = False
    _signal.signal(_SIGINT, old)
    gate.release()


def _free(handle: int) -> None:
    lib = _lib
    if lib is None or isinstance(lib, _ForkedLib) or os.getpid() != _pid:
        return
    lib.yg_batch_free(handle)


def _sets_list(sets: Any) -> list[str]:
    """Scenario overrides as the C ABI takes them: {key: value}, one
    "KEY=VALUE" string or a sequence of them, as a list of strings."""
    if isinstance(sets, Mapping):
        sets = [f"{k}={v}" for k, v in sets.items()]
    elif isinstance(sets, str):
        sets = [sets]
    return [str(s) for s in sets]


@dataclasses.dataclass(frozen=True)
class EnvConfig:
    """An environment's configuration: Go's ``env.Config``, field for field
    (a test checks these fields against the library's, YG_REG_CONFIG).
    ``sets`` may be a mapping {key: value} or a list of "KEY=VALUE" strings
    (scenario overrides); ``bounds`` narrows controlled parameters' ranges
    {name: (low, high)}; None leaves a field at Go's default."""

    scenario: str = "quick"
    sets: Sequence[str] | Mapping[str, Any] | None = None
    policy: str | None = None
    controlled: Sequence[str] | None = None
    bounds: Mapping[str, Sequence[float]] | None = None
    control_interval_s: float | None = None
    horizon_s: float | None = None
    max_steps: int | None = None
    reward: Mapping[str, float] | None = None

    def to_json(self) -> dict[str, Any]:
        """The JSON object Go's env.Config reads (unset fields left out)."""
        scenario = self.scenario
        if not isinstance(scenario, (str, os.PathLike)) or not str(scenario).strip():
            raise ValueError(f"scenario: {scenario!r}, want a built-in scenario name or a .toml path")
        cfg: dict[str, Any] = {"scenario": os.fspath(scenario)}
        if self.sets:
            cfg["sets"] = _sets_list(self.sets)
        if self.policy:
            cfg["policy"] = str(self.policy)
        if self.controlled:
            controlled = [self.controlled] if isinstance(self.controlled, str) else self.controlled
            cfg["controlled"] = [str(c) for c in controlled]
        if self.bounds:
            cfg["bounds"] = {str(k): [float(v[0]), float(v[1])] for k, v in self.bounds.items()}
        if self.control_interval_s is not None:
            cfg["control_interval_s"] = float(self.control_interval_s)
        if self.horizon_s:
            cfg["horizon_s"] = float(self.horizon_s)
        if self.max_steps:
            cfg["max_steps"] = int(self.max_steps)
        if self.reward:
            cfg["reward"] = {str(k): float(v) for k, v in self.reward.items()}
        return cfg


#: EnvConfig's field names, in Go's order: the keyword arguments the
#: environments take for their configuration.
CONFIG_KEYS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(EnvConfig))


def env_config(scenario: str, **fields: Any) -> dict[str, Any]:
    """The JSON config of Go's env.Config: ``EnvConfig(scenario, **fields).to_json()``."""
    return EnvConfig(scenario, **fields).to_json()


def _ptr(ffi: Any, ctype: str, arr: np.ndarray) -> Any:
    assert arr.flags.c_contiguous
    return ffi.cast(ctype, arr.ctypes.data)


class NativeBatch:
    """N environments of one config behind a C handle, with the numpy
    buffers the library fills. Not thread-safe (the library serialises
    calls on a handle anyway)."""

    def __init__(self, config: Mapping[str, Any], n: int, *, workers: int = 0, autoreset: bool = True):
        ffi, lib = load()
        self._ffi, self._lib = ffi, lib
        n, workers = int(n), int(workers)
        h = ffi.new("int64_t *")
        js = json.dumps(dict(config)).encode()
        _check(lib.yg_batch_new(js, n, workers, 0 if autoreset else FLAG_NO_AUTORESET, h))
        self.handle = int(h[0])
        self._finalizer = weakref.finalize(self, _free, self.handle)
        _live.add(self)

        d = ffi.new("int32_t[5]")
        _check(lib.yg_batch_dims(self.handle, d + 0, d + 1, d + 2, d + 3, d + 4))
        self.n, self.obs_dim, self.act_dim, self.info_dim, self.workers = (int(x) for x in d)
        self.autoreset = autoreset

        self.obs_low = np.zeros(self.obs_dim, np.float32)
        self.obs_high = np.zeros(self.obs_dim, np.float32)
        self.act_low = np.zeros(self.act_dim, np.float32)
        self.act_high = np.zeros(self.act_dim, np.float32)
        _check(
            lib.yg_batch_spaces(
                self.handle,
                _ptr(ffi, "float *", self.obs_low),
                _ptr(ffi, "float *", self.obs_high),
                _ptr(ffi, "float *", self.act_low) if self.act_dim else ffi.NULL,
                _ptr(ffi, "float *", self.act_high) if self.act_dim else ffi.NULL,
            )
        )
        self.feature_names = self._lines(STR_FEATURES)
        self.action_names = self._lines(STR_ACTIONS)
        self.info_names = self._lines(STR_INFO)
        self.config = json.loads(self._string(STR_CONFIG))

        n, od, ad = self.n, self.obs_dim, self.act_dim
        self.obs = np.zeros((n, od), np.float32)
        self.final_obs = np.zeros((n, od), np.float32)
        self.actions = np.zeros((n, ad), np.float64)
        self.rewards = np.zeros(n, np.float64)
        self.terminated = np.zeros(n, np.bool_)
        self.truncated = np.zeros(n, np.bool_)
        self.info = np.zeros((n, self.info_dim), np.float64)
        self.seeds = np.zeros(n, np.uint64)
        self.mask = np.zeros(n, np.bool_)
        self._p_obs = _ptr(ffi, "float *", self.obs)
        self._p_final = _ptr(ffi, "float *", self.final_obs) if autoreset else ffi.NULL
        self._p_act = _ptr(ffi, "double *", self.actions) if ad else ffi.NULL
        self._p_rew = _ptr(ffi, "double *", self.rewards)
        self._p_term = _ptr(ffi, "uint8_t *", self.terminated)
        self._p_trunc = _ptr(ffi, "uint8_t *", self.truncated)
        self._p_info = _ptr(ffi, "double *", self.info)
        self._p_seeds = _ptr(ffi, "uint64_t *", self.seeds)
        self._p_mask = _ptr(ffi, "uint8_t *", self.mask)
        self._step_fn = lib.yg_batch_step
        self._step_args = (
            self.handle, self._p_act, self._p_obs, self._p_rew, self._p_term, self._p_trunc, self._p_final, self._p_info
        )

    def _string(self, what: int) -> str:
        ffi = self._ffi
        n = ffi.new("int32_t *")
        _check(self._lib.yg_batch_string(self.handle, what, ffi.NULL, 0, n))
        buf = ffi.new("char[]", n[0] + 1)
        _check(self._lib.yg_batch_string(self.handle, what, buf, n[0] + 1, ffi.NULL))
        return ffi.string(buf).decode()

    def _lines(self, what: int) -> list[str]:
        s = self._string(what)
        return s.split("\n") if s else []

    def _poison(self) -> None:
        self._lib = _ForkedLib()
        self._step_fn = self._lib.yg_batch_step

    def reset(self, seeds: Sequence[int] | np.ndarray, mask: np.ndarray | None = None) -> None:
        """Resets the envs (where mask is true) with ``seeds`` (n values)."""
        self.seeds[:] = np.asarray(seeds, dtype=np.uint64).reshape(self.n)
        p_mask = self._ffi.NULL
        if mask is not None:
            self.mask[:] = np.asarray(mask, dtype=np.bool_).reshape(self.n)
            p_mask = self._p_mask
        st = self._lib.yg_batch_reset(self.handle, self._p_seeds, p_mask, self._p_obs, self._p_info)
        if st:
            raise _error(st)

    def step(self) -> None:
        """Steps every env with ``self.actions``; results land in the buffers."""
        st = self._step_fn(*self._step_args)
        if st:
            raise _error(st)

    def episode_seeds(self) -> np.ndarray:
        """Each env's current episode seed (a fresh array)."""
        out = np.zeros(self.n, np.uint64)
        _check(self._lib.yg_batch_seeds(self.handle, _ptr(self._ffi, "uint64_t *", out)))
        return out

    def close(self) -> None:
        """Frees the handle (idempotent)."""
        self._finalizer()
