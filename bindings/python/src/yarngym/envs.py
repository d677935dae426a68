"""gymnasium environments over the native library.

:class:`ClusterEnv` is one environment (a ``gymnasium.Env``);
:class:`VectorClusterEnv` is a native ``gymnasium.vector.VectorEnv`` that
steps all N environments in one call into Go, on Go's worker threads, with
same-step autoreset. Both take the fields of Go's ``env.Config`` as keyword
arguments (see :func:`yarngym._native.env_config`).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ._native import NativeBatch, _error, as_seed, defer_sigint, env_config, resume_sigint

__all__ = ["ClusterEnv", "VectorClusterEnv"]

# Info scalars that are counts: reported as Python ints by ClusterEnv; and
# flags, reported as bools.
_INT_INFO = frozenset({"step", "jobs_completed", "jobs_stuck", "tasks_killed", "events"})
_BOOL_INFO = frozenset({"ended"})

# The info layout of ABI version 2, unpacked by name in ClusterEnv._info
# (the generic path handles any other layout).
_INFO_V2 = (
    "step", "sim_time_s", "horizon_s", "jobs_completed", "jobs_stuck", "tasks_killed", "events",
    "slowdown", "completion", "utilization", "kills", "wasted", "throughput",
    "return", "ended",
    "episode_slowdown", "episode_completion_s", "episode_utilization", "episode_kills", "episode_wasted_s",
    "episode_throughput",
)  # fmt: skip

# Action dtypes taken as they are (float, int, uint); anything else goes
# through _real_actions, which refuses complex values.
_REAL_KINDS = "fiu"


def _real_actions(a: Any, shape: tuple[int, ...], names: Sequence[str], what: str) -> np.ndarray:
    """``a`` as a float64 array of ``shape``: real numbers only (a complex
    value is refused, not cast with a warning that drops its imaginary part)."""
    want = f"real numbers, one per controlled parameter ({', '.join(names)})"
    if np.iscomplexobj(a):
        raise ValueError(f"{what} {a!r} is complex-valued: want {want}")
    try:
        arr = np.asarray(a, dtype=np.float64)
    except (TypeError, ValueError) as e:
        raise ValueError(f"{what} {a!r}: want {want} ({e})") from None
    if arr.shape != shape:
        raise ValueError(f"{what} has shape {arr.shape}, want {shape} ({want})")
    return arr


# render_mode "rgb_array": one bar per observation feature, its length the
# feature's place between its declared bounds.
_ROW_PX, _BAR_PX = 6, 160
_BG, _FG = (24, 24, 32), (70, 160, 230)


def _draw_seed(rng: np.random.Generator, seed_range: tuple[int, int] | None = None) -> int:
    """An episode seed for Go, drawn from a gymnasium np_random: uniform in
    ``seed_range`` (first, count) when given (a task's train seeds), else
    below 2**63 so that info["episode_seed"] fits an int64 (gymnasium's
    vector envs batch int infos into int64 arrays)."""
    if seed_range is not None:
        return seed_range[0] + int(rng.integers(0, seed_range[1], dtype=np.int64))
    return int(rng.integers(0, 2**63, dtype=np.int64))


def _seed_range(episode_seeds: Sequence[int] | None) -> tuple[int, int] | None:
    """Checks ``episode_seeds=(first, count)``."""
    if episode_seeds is None:
        return None
    first, count = (int(x) for x in episode_seeds)
    if first < 0 or count < 1 or first + count > 2**63:
        raise ValueError(f"episode_seeds=(first, count) wants first >= 0, count >= 1 and first + count <= 2**63, got {tuple(episode_seeds)!r}")
    return first, count


def _spaces(b: NativeBatch, normalize: bool) -> tuple[spaces.Box, spaces.Box]:
    obs = spaces.Box(low=b.obs_low.copy(), high=b.obs_high.copy(), dtype=np.float32)
    if normalize:
        act = spaces.Box(low=-1.0, high=1.0, shape=(b.act_dim,), dtype=np.float32)
    else:
        act = spaces.Box(low=b.act_low.copy(), high=b.act_high.copy(), dtype=np.float32)
    return obs, act


def _scale(b: NativeBatch) -> tuple[np.ndarray, np.ndarray]:
    """(mid, half) of each controlled parameter's range: a normalized action
    u in [-1, 1] sets the parameter to mid + half * u."""
    lo, hi = b.act_low.astype(np.float64), b.act_high.astype(np.float64)
    return (lo + hi) / 2, (hi - lo) / 2


class ClusterEnv(gym.Env):
    """A yarngym cluster simulation as a gymnasium environment.

    Args:
        scenario: a built-in scenario name ("quick", "opera-mr", ...) or a
            path to a scenario TOML file.
        sets: scenario overrides, {"KEY": value} or ["KEY=VALUE", ...]
            (a policy parameter name, or a dotted key of the scenario file).
        policy: overrides the scenario's policy.
        controlled: the policy parameters the action sets, in action order
            (empty: the action space has shape (0,) and actions are ignored).
        bounds: narrower ranges for controlled parameters, {name: (low, high)}.
        control_interval_s: simulated seconds per step (default 60).
        horizon_s: the episode's horizon, simulated seconds: the episode is
            truncated there, and jobs unfinished when it ends are charged up
            to it (default: see Go's env.Config.HorizonS).
        max_steps: truncate an episode after this many steps (0: no limit).
        reward: objective weights, e.g. {"slowdown": 1, "utilization": 0.5};
            an episode's rewards add up to its weighted objectives exactly
            (info["return"]; the objectives themselves in info["episode_*"]
            on the step that ends it).
        normalize_actions: declare the action space as [-1, 1] per parameter
            (as RL libraries prefer) and map it linearly onto each
            parameter's range [param_low, param_high]; the registered ids
            set it. Default False: actions are the parameters' own values.
        render_mode: None, "ansi" (render returns a one-line text summary)
            or "rgb_array" (render returns an RGB image, a uint8 array of
            6 px per observation feature x 160 px x 3: a bar per feature,
            its length the feature's place between its bounds; what
            stable-baselines3's make_vec_env and video recorders ask for).
        episode_seeds: (first, count): an episode without an explicit
            ``episode_seed`` draws its seed uniformly from first ..
            first + count - 1 (a task's train seeds; the registered task ids
            set them) instead of from all 63-bit seeds.

    Observations are float32 vectors (``feature_names`` names them) inside
    the declared bounds; the action is one value per controlled parameter
    (clipped to its range by Go; NaN is an error). Episode seeds for Go are
    drawn from ``self.np_random`` after ``super().reset(seed=seed)``;
    ``reset(options={"episode_seed": s})`` runs Go's episode ``s`` exactly.
    Errors from Go raise :class:`yarngym.YarnGymError` with Go's message
    (:class:`yarngym.YarnGymPanic` for a bug in yarngym: the env is unusable
    afterwards). Ctrl-C during a step (or reset) lets it finish: the step
    returns its results and KeyboardInterrupt follows in the caller (or, at
    the latest, at the start of the next step, before it changes anything).
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}

    def __init__(
        self,
        scenario: str = "quick",
        *,
        sets: Sequence[str] | Mapping[str, Any] | None = None,
        policy: str | None = None,
        controlled: Sequence[str] | None = None,
        bounds: Mapping[str, Sequence[float]] | None = None,
        control_interval_s: float | None = None,
        horizon_s: float | None = None,
        max_steps: int | None = None,
        reward: Mapping[str, float] | None = None,
        normalize_actions: bool = False,
        render_mode: str | None = None,
        episode_seeds: Sequence[int] | None = None,
    ):
        self._range = _seed_range(episode_seeds)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: want None or one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        cfg = env_config(
            scenario,
            sets=sets,
            policy=policy,
            controlled=controlled,
            bounds=bounds,
            control_interval_s=control_interval_s,
            horizon_s=horizon_s,
            max_steps=max_steps,
            reward=reward,
        )
        self._b = b = NativeBatch(cfg, 1, workers=1, autoreset=False)
        self.config: dict[str, Any] = b.config
        self.feature_names: list[str] = b.feature_names
        self.action_names: list[str] = b.action_names
        self.info_names: list[str] = b.info_names
        self.observation_space, self.action_space = _spaces(b, normalize_actions)
        self.param_low, self.param_high = b.act_low.copy(), b.act_high.copy()
        self._norm = bool(normalize_actions) and b.act_dim > 0
        self._mid, self._half = _scale(b)
        self._obs = b.obs[0]
        self._act = b.actions[0]
        self._ashape = (b.act_dim,)
        self._info_row = b.info[0]
        self._int_idx = [i for i, k in enumerate(b.info_names) if k in _INT_INFO]
        self._bool_idx = [i for i, k in enumerate(b.info_names) if k in _BOOL_INFO]
        self._v2 = tuple(b.info_names) == _INFO_V2
        self._episode_seed: int | None = None

    @property
    def episode_seed(self) -> int | None:
        """The Go seed of the current episode (None before the first reset)."""
        return self._episode_seed

    def _info(self) -> dict[str, Any]:
        if not self._v2:
            return self._info_any()
        # The hot path: about 0.5 us less than the generic _info_any.
        (s, t, h, jc, js, tk, ev, sl, co, ut, ki, wa, th, ret, end,
         esl, eco, eut, eki, ewa, eth) = self._info_row.tolist()  # fmt: skip
        return {
            "step": int(s), "sim_time_s": t, "horizon_s": h, "jobs_completed": int(jc), "jobs_stuck": int(js),
            "tasks_killed": int(tk), "events": int(ev), "slowdown": sl, "completion": co,
            "utilization": ut, "kills": ki, "wasted": wa, "throughput": th, "return": ret, "ended": end != 0,
            "episode_slowdown": esl, "episode_completion_s": eco, "episode_utilization": eut, "episode_kills": eki,
            "episode_wasted_s": ewa, "episode_throughput": eth, "episode_seed": self._episode_seed,
        }  # fmt: skip

    def _info_any(self) -> dict[str, Any]:
        vals = self._info_row.tolist()
        for i in self._int_idx:
            vals[i] = int(vals[i])
        for i in self._bool_idx:
            vals[i] = vals[i] != 0
        info = dict(zip(self.info_names, vals))
        info["episode_seed"] = self._episode_seed
        return info

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        if options and options.get("episode_seed") is not None:
            s = as_seed(options["episode_seed"], "episode_seed")
        else:
            s = _draw_seed(self.np_random, self._range)
        sig = defer_sigint()  # see _native.defer_sigint: no C call after resume_sigint
        try:
            self._b.reset([s])
            self._episode_seed = s
            out = self._obs.copy(), self._info()
        finally:
            resume_sigint(sig)
        return out

    def step(self, action):
        b = self._b
        if b.act_dim:
            a = action
            if type(a) is not np.ndarray or a.shape != self._ashape or a.dtype.kind not in _REAL_KINDS:
                a = _real_actions(a, self._ashape, self.action_names, "action")
            if self._norm:
                np.multiply(a, self._half, out=self._act)
                self._act += self._mid
            else:
                self._act[...] = a
        elif action is not None and np.size(action) != 0:
            raise ValueError(f"action has shape {np.shape(action)}: this environment controls no parameter, want shape (0,)")
        sig = defer_sigint()  # see _native.defer_sigint: no C call after resume_sigint
        try:
            st = b._step_fn(*b._step_args)
            if st:
                raise _error(st)
            out = (
                self._obs.copy(),
                float(b.rewards[0]),
                bool(b.terminated[0]),
                bool(b.truncated[0]),
                self._info(),
            )
        finally:
            resume_sigint(sig)
        return out

    def _frame(self) -> np.ndarray:
        """The observation as an RGB image (render_mode "rgb_array")."""
        lo, hi = self.observation_space.low, self.observation_space.high
        frac = np.clip((self._obs - lo) / np.where(hi > lo, hi - lo, 1), 0, 1)
        ends = np.rint(frac * _BAR_PX).astype(np.int64)
        rows = np.arange(_BAR_PX)[None, :] < ends[:, None]  # features x pixels
        img = np.empty((len(frac), _ROW_PX, _BAR_PX, 3), np.uint8)
        img[...] = _BG
        img[:, 1:-1][np.broadcast_to(rows[:, None, :], (len(frac), _ROW_PX - 2, _BAR_PX))] = _FG
        return img.reshape(len(frac) * _ROW_PX, _BAR_PX, 3)

    def render(self):
        if self.render_mode == "rgb_array":
            return self._frame()
        if self.render_mode != "ansi":
            return None
        o = dict(zip(self.feature_names, self._obs.tolist()))
        i = dict(zip(self.info_names, self._info_row.tolist()))
        return (
            f"t={i['sim_time_s']:.0f}s/{i['horizon_s']:.0f}s vcores={o['vcores_guaranteed']:.2f}+{o['vcores_opportunistic']:.2f} "
            f"cpu={o['cpu_used']:.2f} mem={o['mem_reserved']:.2f}/{o['mem_used']:.2f} "
            f"jobs done={i['jobs_completed']:.0f} waiting={o['jobs_waiting_frac']:.2f} running={o['jobs_running_frac']:.2f} "
            f"killed={i['tasks_killed']:.0f} return={i['return']:.3f} step={int(i['step'])}"
        )

    def close(self):
        b = getattr(self, "_b", None)  # absent when __init__ raised
        if b is not None:
            b.close()
        super().close()


class VectorClusterEnv(VectorEnv):
    """N yarngym environments stepped in one native call (Go worker threads).

    Autoreset is gymnasium's SAME_STEP (``metadata["autoreset_mode"]``), as
    in Go's env.Batch: an env whose episode ends in a step is reset in that
    same step; the returned observation is the new episode's first, the
    ending observation is in ``infos["final_obs"]`` (mask
    ``infos["_final_obs"]``) and the ending step's info in
    ``infos["final_info"]``. The new episode's seed is derived in Go from
    the ended one's (``episode_seeds()`` reports them).

    ``reset(seed=s)`` gives env i the same first episode as
    ``ClusterEnv.reset(seed=s + i)`` (and ``seed`` may be a list of N
    seeds); ``options={"reset_mask": mask}`` resets only some envs.
    With ``episode_seeds=(first, count)`` every episode's seed, the
    autoreset ones' too, is drawn from the env's np_random uniformly in
    first .. first + count - 1 (an ended env is reset again on it after the
    native autoreset).

    Args: ``num_envs``; ``workers``: Go worker threads (0: the Go thread
    count, see :func:`yarngym.set_threads`); ``copy``: return fresh arrays
    (default) or views of the native buffers, overwritten by the next call;
    the rest as :class:`ClusterEnv`.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int = 1,
        scenario: str = "quick",
        *,
        sets: Sequence[str] | Mapping[str, Any] | None = None,
        policy: str | None = None,
        controlled: Sequence[str] | None = None,
        bounds: Mapping[str, Sequence[float]] | None = None,
        control_interval_s: float | None = None,
        horizon_s: float | None = None,
        max_steps: int | None = None,
        reward: Mapping[str, float] | None = None,
        workers: int = 0,
        copy: bool = True,
        max_episode_steps: int | None = None,
        normalize_actions: bool = False,
        render_mode: str | None = None,
        episode_seeds: Sequence[int] | None = None,
    ):
        self._range = _seed_range(episode_seeds)
        if render_mode is not None:
            raise ValueError("VectorClusterEnv does not render (render_mode must be None)")
        if max_steps is None and max_episode_steps is not None:
            max_steps = max_episode_steps
        cfg = env_config(
            scenario,
            sets=sets,
            policy=policy,
            controlled=controlled,
            bounds=bounds,
            control_interval_s=control_interval_s,
            horizon_s=horizon_s,
            max_steps=max_steps,
            reward=reward,
        )
        self._b = b = NativeBatch(cfg, int(num_envs), workers=workers, autoreset=True)
        self.num_envs = b.n
        self.copy = copy
        self.render_mode = None
        self.config: dict[str, Any] = b.config
        self.feature_names: list[str] = b.feature_names
        self.action_names: list[str] = b.action_names
        self.info_names: list[str] = b.info_names
        self.single_observation_space, self.single_action_space = _spaces(b, normalize_actions)
        self.param_low, self.param_high = b.act_low.copy(), b.act_high.copy()
        self._norm = bool(normalize_actions) and b.act_dim > 0
        self._mid, self._half = _scale(b)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._ashape = (b.n, b.act_dim)
        self._rngs: list[np.random.Generator | None] = [None] * b.n
        self._all = np.ones(b.n, np.bool_)
        self._mask_names = ["_" + k for k in b.info_names]

    @property
    def workers(self) -> int:
        """The Go worker threads stepping this env."""
        return self._b.workers

    def episode_seeds(self) -> np.ndarray:
        """Each env's current Go episode seed."""
        return self._b.episode_seeds()

    def reset(self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None):
        n, b = self.num_envs, self._b
        if seed is None:
            per = [None] * n
        elif np.ndim(seed) == 0:
            seed = as_seed(seed)
            per = [seed + i for i in range(n)]
        else:
            per = [None if x is None else as_seed(x) for x in seed]
            if len(per) != n:
                raise ValueError(f"seed has {len(per)} entries, want num_envs = {n}")
            seed = None
        super().reset(seed=seed)
        mask = None
        if options and options.get("reset_mask") is not None:
            mask = np.asarray(options["reset_mask"], dtype=np.bool_)
            if mask.shape != (n,):
                raise ValueError(f"reset_mask has shape {mask.shape}, want ({n},)")
        seeds = b.seeds.copy()
        explicit = options.get("episode_seeds") if options else None
        if explicit is not None:
            explicit = [as_seed(x, "episode_seed") for x in explicit]
            if len(explicit) != n:
                raise ValueError(f"episode_seeds has {len(explicit)} entries, want num_envs = {n}")
        for i in range(n):
            if mask is not None and not mask[i]:
                continue
            if explicit is not None:
                seeds[i] = np.uint64(explicit[i])
                continue
            if per[i] is not None:
                self._rngs[i] = seeding.np_random(int(per[i]))[0]
            elif self._rngs[i] is None:
                self._rngs[i] = seeding.np_random()[0]
            seeds[i] = np.uint64(_draw_seed(self._rngs[i], self._range))
        sig = defer_sigint()  # see _native.defer_sigint: no C call after resume_sigint
        try:
            b.reset(seeds, mask)
            out = (b.obs.copy() if self.copy else b.obs), self._infos(b.info)
        finally:
            resume_sigint(sig)
        return out

    def _infos(self, info: np.ndarray) -> dict[str, Any]:
        # One copy, then a contiguous row view per key; every key's mask is
        # the same all-true array (every env reports every key).
        cols = info.T.copy()
        mask = self._all.copy()
        out: dict[str, Any] = {}
        for j, k in enumerate(self.info_names):
            out[k] = cols[j]
            out[self._mask_names[j]] = mask
        return out

    def step(self, actions):
        b = self._b
        if b.act_dim:
            a = actions
            if type(a) is not np.ndarray or a.shape != self._ashape or a.dtype.kind not in _REAL_KINDS:
                a = _real_actions(a, self._ashape, self.action_names, "actions (num_envs x controlled parameters)")
            if self._norm:
                np.multiply(a, self._half, out=b.actions)
                b.actions += self._mid
            else:
                b.actions[...] = a
        sig = defer_sigint()  # see _native.defer_sigint: no C call after resume_sigint
        try:
            b.step()
            out = self._step_results()
            if self._range is not None and (ended := out[2] | out[3]).any():
                self._redraw(ended, out[0])
        finally:
            resume_sigint(sig)
        return out

    def _redraw(self, ended: np.ndarray, obs: np.ndarray) -> None:
        """Resets the envs the native autoreset started again on a derived
        seed on one drawn from ``episode_seeds`` instead (their final
        observations and infos are already taken)."""
        b = self._b
        seeds = b.seeds.copy()
        for i in np.flatnonzero(ended):
            if self._rngs[i] is None:
                self._rngs[i] = seeding.np_random()[0]
            seeds[i] = np.uint64(_draw_seed(self._rngs[i], self._range))
        b.reset(seeds, ended)
        if obs is not b.obs:
            obs[ended] = b.obs[ended]

    def _step_results(self):
        b = self._b
        term, trunc = b.terminated.copy(), b.truncated.copy()
        ended = term | trunc
        infos = self._infos(b.info)
        if ended.any():
            idx = np.flatnonzero(ended)
            final_obs = np.full(self.num_envs, None, dtype=object)
            for i in idx:
                final_obs[i] = b.final_obs[i].copy()
            final_info: dict[str, Any] = {}
            fmask = ended.copy()
            for j, k in enumerate(self.info_names):
                final_info[k] = np.where(ended, infos[k], 0)
                final_info[self._mask_names[j]] = fmask
                infos[k][idx] = 0  # the new episode's (reset) info
            infos["final_obs"], infos["_final_obs"] = final_obs, ended.copy()
            infos["final_info"], infos["_final_info"] = final_info, ended
        obs = b.obs.copy() if self.copy else b.obs
        return obs, b.rewards.copy(), term, trunc, infos

    def close_extras(self, **kwargs: Any):
        b = getattr(self, "_b", None)  # absent when __init__ raised
        if b is not None:
            b.close()

    def __enter__(self) -> "VectorClusterEnv":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
