package env

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"

	"yarngym/env/scenario"
	"yarngym/env/sim"
)

// DefaultControlIntervalS is the simulated seconds per Step when
// Config.ControlIntervalS is 0.
const DefaultControlIntervalS = 60

// Config describes an environment. The zero values of the optional fields
// take the documented defaults.
type Config struct {
	// Scenario is a built-in scenario name (e.g. "quick") or a TOML path.
	Scenario string `toml:"scenario" json:"scenario"`
	// Sets are scenario overrides, "KEY=VALUE" (see scenario.Load).
	Sets []string `toml:"sets" json:"sets,omitempty"`
	// Policy overrides the scenario's policy when not empty.
	Policy string `toml:"policy" json:"policy,omitempty"`
	// Controlled names the policy parameters the action sets, in action
	// order. Empty switches the tuner off: the action space has shape [0]
	// and actions are ignored.
	Controlled []string `toml:"controlled" json:"controlled,omitempty"`
	// Bounds narrows the action range of controlled parameters: name ->
	// [low, high], inside the range the policy declares. Parameters not
	// listed keep their declared range.
	Bounds map[string][2]float64 `toml:"bounds" json:"bounds,omitempty"`
	// ControlIntervalS is the simulated seconds one Step runs (default 60;
	// at least 0.001).
	ControlIntervalS float64 `toml:"control_interval_s" json:"control_interval_s,omitempty"`
	// HorizonS is the episode's horizon in simulated seconds: the episode
	// is truncated there, and jobs unfinished when it ends earlier (stuck,
	// or truncated by MaxSteps or the scenario's run.max_s) are charged as
	// if they stayed in the system until it (see "Rewards" in the package
	// doc). 0 takes the default: MaxSteps x ControlIntervalS or the
	// scenario's run.max_s (the smaller if both are set), else the
	// episode's serial bound: its last submission plus every task's
	// duration and every AM's start-up one after another.
	HorizonS float64 `toml:"horizon_s" json:"horizon_s,omitempty"`
	// MaxSteps truncates an episode after this many steps; 0 runs until the
	// run ends or reaches the horizon.
	MaxSteps int `toml:"max_steps" json:"max_steps,omitempty"`
	// Reward weights the named objectives (see Objectives); default
	// {"slowdown": 1}. Weights are >= 0 and at least one objective that a
	// stalled cluster does worst on (slowdown, completion, utilization,
	// throughput) has a positive weight.
	Reward map[string]float64 `toml:"reward" json:"reward,omitempty"`
}

// Env is one gym-style environment over a scenario. It is not safe for
// concurrent use; Batch runs many in parallel.
type Env struct {
	cfg        Config
	sc         *scenario.Scenario
	simOpts    func(*sim.Config)
	maxMs      sim.Ms // the scenario's run.max_s (0: none)
	intervalMs sim.Ms
	weights    [numObjectives]float64

	// Spaces and feature layout, fixed at New.
	obsSpace, actSpace Box
	names              []string
	lo, hi             []float64
	stateScale         []stateScale
	ctrlNames          []string
	ctrlMin, ctrlMax   []float64
	ctrlInt            []bool

	// Cluster constants (the same for every seed).
	capV, capMem float64
	nNodes       int

	// The episode.
	s         *sim.Sim
	ctrl      []*sim.Param
	seed      uint64
	step      int
	done      bool
	horizonMs sim.Ms
	led       ledger
	ret       float64
	completed int

	// The last interval, for the observation.
	prevSwapMs    sim.Ms
	lastKilled    int64
	lastWastedMs  sim.Ms
	lastCompleted int
	lastSwap      float64
}

// New validates cfg, loads the scenario and declares the spaces. Call Reset
// before Step.
func New(cfg Config) (*Env, error) {
	return newEnv(cfg, nil)
}

// NewWithScenario is New with an already loaded scenario (cfg.Scenario and
// cfg.Sets then only name it): the runner uses it to play a scenario file
// under a trained controller. A loaded scenario is read-only; envs may
// share one.
func NewWithScenario(cfg Config, sc *scenario.Scenario) (*Env, error) {
	if sc == nil {
		return nil, errors.New("env: NewWithScenario: nil scenario")
	}
	return newEnv(cfg, sc)
}

// SetSimOptions sets a function that adjusts every later Reset's sim.Config
// before the run is built (task records, timeline sampling, invariant
// checks): for the runner and tests, not for learners (it may change what
// the run records, never what it simulates, if used as intended).
func (e *Env) SetSimOptions(fn func(*sim.Config)) { e.simOpts = fn }

// newEnv is New with an already loaded scenario (nil: load it). A loaded
// scenario is read-only, so the envs of a Batch share one.
func newEnv(cfg Config, sc *scenario.Scenario) (*Env, error) {
	cfg.Sets = slices.Clone(cfg.Sets)
	cfg.Controlled = slices.Clone(cfg.Controlled)
	cfg.Bounds = maps.Clone(cfg.Bounds)
	e := &Env{cfg: cfg}
	if strings.TrimSpace(cfg.Scenario) == "" {
		return nil, errors.New("env config: scenario: empty; give a built-in name (e.g. quick) or a .toml path")
	}
	iv := cfg.ControlIntervalS
	switch {
	case math.IsNaN(iv) || math.IsInf(iv, 0) || iv < 0:
		return nil, fmt.Errorf("env config: control_interval_s: %v, want a positive number of simulated seconds", iv)
	case iv == 0:
		iv = DefaultControlIntervalS
	}
	e.intervalMs = sim.Ms(math.Round(iv * 1000))
	if e.intervalMs < 1 {
		return nil, fmt.Errorf("env config: control_interval_s: %v is below the simulator's 1 ms resolution", iv)
	}
	e.cfg.ControlIntervalS = iv
	if cfg.MaxSteps < 0 {
		return nil, fmt.Errorf("env config: max_steps: %d, want 0 (no limit) or more", cfg.MaxSteps)
	}
	if h := cfg.HorizonS; math.IsNaN(h) || math.IsInf(h, 0) || h < 0 || (h > 0 && h < 0.001) {
		return nil, fmt.Errorf("env config: horizon_s: %v, want 0 (the default) or a positive number of simulated seconds", h)
	}
	w, err := parseReward(cfg.Reward)
	if err != nil {
		return nil, fmt.Errorf("env config: %w", err)
	}
	e.weights = w
	e.cfg.Reward = map[string]float64{"slowdown": 1}
	if len(cfg.Reward) > 0 {
		e.cfg.Reward = maps.Clone(cfg.Reward)
	}

	if sc == nil {
		if sc, err = scenario.Load(cfg.Scenario, cfg.Sets); err != nil {
			return nil, fmt.Errorf("env config: scenario %q: %w", cfg.Scenario, err)
		}
	}
	e.sc = sc
	e.maxMs = sim.Ms(sc.File.Run.MaxS * 1000)
	probe, err := sc.Build(sc.File.Seed, cfg.Policy)
	if err != nil {
		if cfg.Policy != "" {
			return nil, fmt.Errorf("env config: policy %q: %w", cfg.Policy, err)
		}
		return nil, fmt.Errorf("env config: scenario %q: %w", cfg.Scenario, err)
	}
	pol := probe.Policy
	if err := e.declareActions(pol); err != nil {
		return nil, err
	}

	var cores float64
	for _, n := range probe.Nodes {
		e.capV += float64(n.Cap.VCores)
		e.capMem += float64(n.Cap.MemMB)
		if n.Cores > 0 {
			cores += n.Cores
		} else {
			cores += float64(n.Cap.VCores)
		}
	}
	e.nNodes = len(probe.Nodes)
	if e.nNodes == 0 || e.capV <= 0 || e.capMem <= 0 {
		return nil, fmt.Errorf("env config: scenario %q: the cluster has no capacity", cfg.Scenario)
	}

	// The observation layout.
	add := func(name string, lo, hi float64) {
		e.names = append(e.names, name)
		e.lo = append(e.lo, lo)
		e.hi = append(e.hi, hi)
	}
	for i, f := range baseFeatures {
		hi := f.high
		if i == fCPUUsed {
			hi = math.Max(1, cores/e.capV)
		}
		add(f.name, f.low, hi)
	}
	for _, v := range pol.State {
		if err := v.CheckRange(); err != nil {
			return nil, fmt.Errorf("env config: policy %s: %w", pol.Name, err)
		}
		e.stateScale = append(e.stateScale, newStateScale(v, e.capV, e.capMem, e.nNodes))
		add("policy."+v.Name, 0, 1)
	}
	for _, name := range e.ctrlNames {
		add("param."+name, 0, 1)
	}
	e.obsSpace = Box{Low: make([]float32, len(e.lo)), High: make([]float32, len(e.hi)), Shape: []int{len(e.lo)}}
	for i := range e.lo {
		e.obsSpace.Low[i] = float32(e.lo[i])
		e.obsSpace.High[i] = float32(e.hi[i])
		// Keep the float64 bounds equal to the float32 ones, so that a
		// clamped value converts to a float32 inside the space.
		e.lo[i] = float64(e.obsSpace.Low[i])
		e.hi[i] = float64(e.obsSpace.High[i])
	}
	e.actSpace = Box{Low: make([]float32, len(e.ctrlNames)), High: make([]float32, len(e.ctrlNames)), Shape: []int{len(e.ctrlNames)}}
	for i := range e.ctrlNames {
		e.actSpace.Low[i] = float32(e.ctrlMin[i])
		e.actSpace.High[i] = float32(e.ctrlMax[i])
	}
	return e, nil
}

// declareActions checks the controlled parameters against the policy and
// their bounds, and fixes the action's layout.
func (e *Env) declareActions(pol *sim.Policy) error {
	seen := map[string]bool{}
	for _, name := range e.cfg.Controlled {
		if seen[name] {
			return fmt.Errorf("env config: controlled: parameter %q is listed twice", name)
		}
		seen[name] = true
		p := pol.Params.Get(name)
		if p == nil {
			known := make([]string, 0, len(pol.Params.List()))
			for _, q := range pol.Params.List() {
				known = append(known, q.Name)
			}
			return fmt.Errorf("env config: controlled: policy %s has no parameter %q (it has: %s)", pol.Name, name, strings.Join(known, ", "))
		}
		lo, hi := p.Min, p.Max
		if math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) || lo > hi {
			return fmt.Errorf("env config: controlled: parameter %q has no finite range [%v, %v]", name, lo, hi)
		}
		if b, ok := e.cfg.Bounds[name]; ok {
			if !(b[0] <= b[1]) || b[0] < p.Min || b[1] > p.Max {
				return fmt.Errorf("env config: bounds: %s: [%v, %v] is not a range inside the parameter's [%v, %v]", name, b[0], b[1], p.Min, p.Max)
			}
			lo, hi = b[0], b[1]
		}
		e.ctrlNames = append(e.ctrlNames, name)
		e.ctrlMin = append(e.ctrlMin, lo)
		e.ctrlMax = append(e.ctrlMax, hi)
		e.ctrlInt = append(e.ctrlInt, p.Integer)
	}
	names := make([]string, 0, len(e.cfg.Bounds))
	for name := range e.cfg.Bounds {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if !seen[name] {
			return fmt.Errorf("env config: bounds: %q is not a controlled parameter (controlled: %s)", name, strings.Join(e.cfg.Controlled, ", "))
		}
	}
	e.ctrl = make([]*sim.Param, len(e.ctrlNames))
	return nil
}

// Config returns the configuration with defaults filled in.
func (e *Env) Config() Config {
	c := e.cfg
	c.Sets = slices.Clone(c.Sets)
	c.Controlled = slices.Clone(c.Controlled)
	c.Bounds = maps.Clone(c.Bounds)
	c.Reward = maps.Clone(c.Reward)
	return c
}

// Scenario returns the loaded scenario (shared: read it, do not change it).
func (e *Env) Scenario() *scenario.Scenario { return e.sc }

// Sim returns the current episode's simulation (nil before Reset). It is
// for inspection: changing it breaks the episode's determinism.
func (e *Env) Sim() *sim.Sim { return e.s }

// Seed returns the current episode's seed.
func (e *Env) Seed() uint64 { return e.seed }

// HorizonMs returns the current episode's horizon (see Config.HorizonS).
func (e *Env) HorizonMs() sim.Ms { return e.horizonMs }

// Done reports whether the current episode has ended (or none started).
func (e *Env) Done() bool { return e.s == nil || e.done }

// Reset starts a new episode with seed and returns its first observation.
func (e *Env) Reset(seed uint64) ([]float32, Info, error) {
	obs := make([]float32, e.ObsDim())
	info, err := e.ResetInto(seed, obs)
	if err != nil {
		return nil, info, err
	}
	return obs, info, nil
}

// ResetInto is Reset writing the observation into obs (length ObsDim).
func (e *Env) ResetInto(seed uint64, obs []float32) (Info, error) {
	if len(obs) != len(e.names) {
		return Info{}, fmt.Errorf("reset: observation buffer has %d values, want %d", len(obs), len(e.names))
	}
	cfg, err := e.sc.Build(seed, e.cfg.Policy)
	if err != nil {
		return Info{}, fmt.Errorf("reset (seed %d): %w", seed, err)
	}
	if e.simOpts != nil {
		e.simOpts(&cfg)
	}
	s, err := sim.New(cfg)
	if err != nil {
		return Info{}, fmt.Errorf("reset (seed %d): %w", seed, err)
	}
	if len(s.Policy().State) != len(e.stateScale) {
		return Info{}, fmt.Errorf("reset (seed %d): policy %s declares %d state variables, the observation space %d", seed, s.Policy().Name, len(s.Policy().State), len(e.stateScale))
	}
	for i, name := range e.ctrlNames {
		p := s.Policy().Params.Get(name)
		if p == nil {
			return Info{}, fmt.Errorf("reset (seed %d): policy %s has no parameter %q", seed, s.Policy().Name, name)
		}
		e.ctrl[i] = p
	}
	e.s = s
	e.seed = seed
	e.step = 0
	e.done = false
	e.horizonMs = e.episodeHorizon(s)
	e.led.reset(s, e.horizonMs, e.capV)
	for i := range e.stateScale {
		if e.stateScale[i].perJob {
			e.stateScale[i].per = e.led.n
		}
	}
	e.ret, e.completed = 0, 0
	e.prevSwapMs, e.lastKilled, e.lastWastedMs, e.lastCompleted, e.lastSwap = 0, 0, 0, 0, 0
	e.observe(obs)
	return e.info(s.Summary(), nil), nil
}

// episodeHorizon is Config.HorizonS, or its default for run s.
func (e *Env) episodeHorizon(s *sim.Sim) sim.Ms {
	if e.cfg.HorizonS > 0 {
		return sim.Ms(math.Round(e.cfg.HorizonS * 1000))
	}
	var h sim.Ms
	if e.cfg.MaxSteps > 0 {
		h = sim.Ms(e.cfg.MaxSteps) * e.intervalMs
	}
	if e.maxMs > 0 && (h == 0 || e.maxMs < h) {
		h = e.maxMs
	}
	if h > 0 {
		return h
	}
	for _, j := range s.Jobs {
		h = max(h, j.Spec.SubmitMs)
	}
	for _, j := range s.Jobs {
		if !j.Spec.AM.IsZero() {
			h += j.Spec.StartupMs(s.Model())
		}
		for _, st := range j.Spec.Stages {
			for i := range st.NumTasks() {
				h += st.DurationMs(i)
			}
		}
	}
	return max(h, sim.MsPerS)
}

// Step applies action, runs one control interval and returns the
// observation, the reward, whether the episode terminated or was truncated,
// and the step's Info.
func (e *Env) Step(action []float64) (obs []float32, reward float64, terminated, truncated bool, info Info, err error) {
	obs = make([]float32, e.ObsDim())
	reward, terminated, truncated, info, err = e.StepInto(action, obs)
	if err != nil {
		return nil, 0, false, false, info, err
	}
	return obs, reward, terminated, truncated, info, nil
}

// CheckStep reports whether a Step with action would be refused (no
// episode, an ended one, a wrong length or a NaN), without changing
// anything: Batch checks every env's step before stepping any.
func (e *Env) CheckStep(action []float64) error {
	if e.s == nil {
		return errors.New("step: no episode; call Reset first")
	}
	if e.done {
		return errors.New("step: the episode has ended; call Reset")
	}
	if len(e.ctrl) == 0 {
		return nil
	}
	if len(action) != len(e.ctrl) {
		return fmt.Errorf("step: action has %d values, want %d (one per controlled parameter: %s)", len(action), len(e.ctrl), strings.Join(e.ctrlNames, ", "))
	}
	for i, v := range action {
		if math.IsNaN(v) {
			return fmt.Errorf("step: action[%d] for parameter %q is NaN", i, e.ctrlNames[i])
		}
	}
	return nil
}

// StepInto is Step writing the observation into obs (length ObsDim). It
// does not allocate beyond what the simulation itself does.
func (e *Env) StepInto(action []float64, obs []float32) (reward float64, terminated, truncated bool, info Info, err error) {
	if err := e.CheckStep(action); err != nil {
		return 0, false, false, Info{}, err
	}
	if len(obs) != len(e.names) {
		return 0, false, false, Info{}, fmt.Errorf("step: observation buffer has %d values, want %d", len(obs), len(e.names))
	}
	for i, v := range action[:len(e.ctrl)] {
		if err := e.ctrl[i].Set(e.clip(i, v)); err != nil {
			return 0, false, false, Info{}, fmt.Errorf("step: %w", err) // cannot happen: v is clipped and rounded
		}
	}
	if len(e.ctrl) > 0 {
		e.s.ParamsChanged()
	}
	e.step++
	e.s.RunUntil(min(sim.Ms(e.step)*e.intervalMs, e.horizonMs))
	reward, terminated, truncated, info = e.account(obs)
	return reward, terminated, truncated, info, nil
}

// account measures the interval that just ran (the ledger's charges, the
// end flags), then writes the observation.
func (e *Env) account(obs []float32) (reward float64, terminated, truncated bool, info Info) {
	s := e.s
	sum := s.Summary()
	now := s.Now()

	terminated = s.Done() && !sum.Truncated
	truncated = !terminated && (sum.Truncated || now >= e.horizonMs || (e.cfg.MaxSteps > 0 && e.step >= e.cfg.MaxSteps))
	e.done = terminated || truncated

	elapsed := float64(now - e.led.prevMs)
	killed, wasted := sum.TasksKilled-e.led.prevKilled, sum.WastedMs-e.led.prevWastedMs
	d, finished := e.led.charge(s, sum.TasksKilled, sum.WastedMs, e.done)
	for i, w := range e.weights {
		if w != 0 {
			reward += w * objectives[i].sign * d[i]
		}
	}
	e.ret += reward
	e.completed += finished

	swapFrac := 0.0
	if elapsed > 0 {
		swapFrac = float64(sum.SwapMs-e.prevSwapMs) / (float64(e.nNodes) * elapsed)
	}
	e.lastKilled, e.lastWastedMs = killed, wasted
	e.lastCompleted, e.lastSwap, e.prevSwapMs = finished, swapFrac, sum.SwapMs

	e.observe(obs)
	return reward, terminated, truncated, e.info(sum, &d)
}

// clip clips v to parameter i's range, rounding integer parameters.
func (e *Env) clip(i int, v float64) float64 {
	lo, hi := e.ctrlMin[i], e.ctrlMax[i]
	if e.ctrlInt[i] {
		v = math.Round(v)
		lo, hi = math.Ceil(lo), math.Floor(hi)
	}
	return math.Min(math.Max(v, lo), hi)
}

func (e *Env) info(sum sim.Summary, d *[numObjectives]float64) Info {
	in := Info{Seed: e.seed, Step: e.step, SimTimeS: float64(e.s.Now()) / 1000, HorizonS: float64(e.horizonMs) / 1000,
		JobsCompleted: sum.JobsCompleted, JobsStuck: sum.JobsStuck, TasksKilled: sum.TasksKilled, Events: sum.Events, Return: e.ret}
	if d != nil {
		in.setStep(d)
	}
	if e.done {
		in.setEpisode(&e.led.total)
	}
	return in
}
