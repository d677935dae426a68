package env

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
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
	// ControlIntervalS is the simulated seconds one Step runs (default 60;
	// at least 0.001).
	ControlIntervalS float64 `toml:"control_interval_s" json:"control_interval_s,omitempty"`
	// MaxSteps truncates an episode after this many steps; 0 runs until the
	// run ends.
	MaxSteps int `toml:"max_steps" json:"max_steps,omitempty"`
	// Reward weights the named objectives (see Objectives); default
	// {"slowdown": 1}.
	Reward map[string]float64 `toml:"reward" json:"reward,omitempty"`
}

// Env is one gym-style environment over a scenario. It is not safe for
// concurrent use; Batch runs many in parallel.
type Env struct {
	cfg        Config
	sc         *scenario.Scenario
	intervalMs sim.Ms
	weights    [numObjectives]float64

	// Spaces and feature layout, fixed at New.
	obsSpace, actSpace Box
	names              []string
	lo, hi             []float64
	nState             int
	ctrlNames          []string
	ctrlMin, ctrlMax   []float64
	ctrlInt            []bool

	// Cluster constants (the same for every seed).
	capV, capMem float64
	nNodes       int

	// The episode.
	s       *sim.Sim
	ctrl    []*sim.Param
	seed    uint64
	step    int
	done    bool
	counted []bool // jobs whose completion has been reported
	lo0     int    // every job before lo0 is counted or will never finish
	amMs    sim.Ms

	// Totals at the end of the previous step.
	prevMs       sim.Ms
	prevKilled   int64
	prevWastedMs sim.Ms
	prevSwapMs   sim.Ms
	prevUsedInt  float64
	completed    int

	// The last interval, for the observation.
	lastKilled    int64
	lastWastedMs  sim.Ms
	lastCompleted int
	lastSwap      float64
}

// New validates cfg, loads the scenario and declares the spaces. Call Reset
// before Step.
func New(cfg Config) (*Env, error) {
	cfg.Sets = append([]string(nil), cfg.Sets...)
	cfg.Controlled = append([]string(nil), cfg.Controlled...)
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
	w, err := parseReward(cfg.Reward)
	if err != nil {
		return nil, fmt.Errorf("env config: %w", err)
	}
	e.weights = w
	e.cfg.Reward = map[string]float64{objectiveNames[objSlowdown]: 1}
	if len(cfg.Reward) > 0 {
		e.cfg.Reward = make(map[string]float64, len(cfg.Reward))
		for k, v := range cfg.Reward {
			e.cfg.Reward[k] = v
		}
	}

	sc, err := scenario.Load(cfg.Scenario, cfg.Sets)
	if err != nil {
		return nil, fmt.Errorf("env config: scenario %q: %w", cfg.Scenario, err)
	}
	e.sc = sc
	probe, err := sc.Build(sc.File.Seed, cfg.Policy)
	if err != nil {
		if cfg.Policy != "" {
			return nil, fmt.Errorf("env config: policy %q: %w", cfg.Policy, err)
		}
		return nil, fmt.Errorf("env config: scenario %q: %w", cfg.Scenario, err)
	}
	pol := probe.Policy

	seen := map[string]bool{}
	for _, name := range cfg.Controlled {
		if seen[name] {
			return nil, fmt.Errorf("env config: controlled: parameter %q is listed twice", name)
		}
		seen[name] = true
		p := pol.Params.Get(name)
		if p == nil {
			known := make([]string, 0, len(pol.Params.List()))
			for _, q := range pol.Params.List() {
				known = append(known, q.Name)
			}
			return nil, fmt.Errorf("env config: controlled: policy %s has no parameter %q (it has: %s)", pol.Name, name, strings.Join(known, ", "))
		}
		if math.IsNaN(p.Min) || math.IsNaN(p.Max) || math.IsInf(p.Min, 0) || math.IsInf(p.Max, 0) || p.Min > p.Max {
			return nil, fmt.Errorf("env config: controlled: parameter %q has no finite range [%v, %v]", name, p.Min, p.Max)
		}
		e.ctrlNames = append(e.ctrlNames, name)
		e.ctrlMin = append(e.ctrlMin, p.Min)
		e.ctrlMax = append(e.ctrlMax, p.Max)
		e.ctrlInt = append(e.ctrlInt, p.Integer)
	}
	e.ctrl = make([]*sim.Param, len(e.ctrlNames))

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
	e.nState = len(pol.State)
	for _, v := range pol.State {
		add("policy."+v.Name, -bigCount, bigCount)
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

// Config returns the configuration with defaults filled in.
func (e *Env) Config() Config {
	c := e.cfg
	c.Sets = slices.Clone(c.Sets)
	c.Controlled = slices.Clone(c.Controlled)
	c.Reward = maps.Clone(c.Reward)
	return c
}

// Sim returns the current episode's simulation (nil before Reset). It is
// for inspection: changing it breaks the episode's determinism.
func (e *Env) Sim() *sim.Sim { return e.s }

// Seed returns the current episode's seed.
func (e *Env) Seed() uint64 { return e.seed }

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
	s, err := sim.New(cfg)
	if err != nil {
		return Info{}, fmt.Errorf("reset (seed %d): %w", seed, err)
	}
	if len(s.Policy().State) != e.nState {
		return Info{}, fmt.Errorf("reset (seed %d): policy %s declares %d state variables, the observation space %d", seed, s.Policy().Name, len(s.Policy().State), e.nState)
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
	n := len(s.Jobs)
	if cap(e.counted) >= n {
		e.counted = e.counted[:n]
		clear(e.counted)
	} else {
		e.counted = make([]bool, n)
	}
	e.lo0 = 0
	e.amMs = s.Model().AMStartupMs
	e.prevMs, e.prevKilled, e.prevWastedMs, e.prevSwapMs, e.prevUsedInt, e.completed = 0, 0, 0, 0, 0, 0
	e.lastKilled, e.lastWastedMs, e.lastCompleted, e.lastSwap = 0, 0, 0, 0
	e.observe(obs)
	var zero [numObjectives]float64
	return e.info(s.Summary(), &zero), nil
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

// StepInto is Step writing the observation into obs (length ObsDim). It
// does not allocate beyond what the simulation itself does.
func (e *Env) StepInto(action []float64, obs []float32) (reward float64, terminated, truncated bool, info Info, err error) {
	if e.s == nil {
		return 0, false, false, Info{}, errors.New("step: no episode; call Reset first")
	}
	if e.done {
		return 0, false, false, Info{}, errors.New("step: the episode has ended; call Reset")
	}
	if len(obs) != len(e.names) {
		return 0, false, false, Info{}, fmt.Errorf("step: observation buffer has %d values, want %d", len(obs), len(e.names))
	}
	if err := e.apply(action); err != nil {
		return 0, false, false, Info{}, err
	}
	e.step++
	e.s.RunUntil(sim.Ms(e.step) * e.intervalMs)
	reward, terminated, truncated, info = e.account(obs)
	return reward, terminated, truncated, info, nil
}

// account measures the interval that just ran (the jobs that finished, the
// objectives, the end flags), then writes the observation. It allocates
// nothing.
func (e *Env) account(obs []float32) (reward float64, terminated, truncated bool, info Info) {
	s := e.s
	sum := s.Summary()

	var o [numObjectives]float64
	now := s.Now()
	elapsed := float64(now - e.prevMs)

	// Jobs that finished in the interval. Jobs arrive in s.Jobs order, so
	// the scan stops at the first one not yet submitted.
	finished := 0
	var slow, compMs float64
	jobs := s.Jobs
	for i := e.lo0; i < len(jobs); i++ {
		j := jobs[i]
		if j.State == sim.JobFuture {
			break
		}
		if j.State != sim.JobDone || e.counted[i] {
			continue
		}
		e.counted[i] = true
		finished++
		c := float64(j.FinishMs - j.Spec.SubmitMs)
		compMs += c
		slow += c / isolatedMs(j, e.amMs)
	}
	for e.lo0 < len(jobs) && e.counted[e.lo0] {
		e.lo0++
	}
	e.completed += finished
	if finished > 0 {
		o[objSlowdown] = -slow / float64(finished)
		o[objCompletion] = -compMs / float64(finished) / 3.6e6
	}
	o[objThroughput] = float64(finished)

	killed := sum.TasksKilled - e.prevKilled
	wasted := sum.WastedMs - e.prevWastedMs
	o[objKills] = float64(-killed)
	o[objWasted] = float64(-wasted) / 3.6e6

	usedInt := sum.VCoresUsedMean * float64(sum.EndMs)
	swap := sum.SwapMs - e.prevSwapMs
	swapFrac := 0.0
	if elapsed > 0 {
		o[objUtilization] = (usedInt - e.prevUsedInt) / (elapsed * e.capV)
		swapFrac = float64(swap) / (float64(e.nNodes) * elapsed)
	}

	for i, wt := range e.weights {
		if wt != 0 {
			reward += wt * o[i]
		}
	}

	e.prevMs, e.prevKilled, e.prevWastedMs, e.prevSwapMs, e.prevUsedInt = now, sum.TasksKilled, sum.WastedMs, sum.SwapMs, usedInt
	e.lastKilled, e.lastWastedMs, e.lastCompleted, e.lastSwap = killed, wasted, finished, swapFrac

	terminated = s.Done() && !sum.Truncated
	truncated = sum.Truncated || (!terminated && e.cfg.MaxSteps > 0 && e.step >= e.cfg.MaxSteps)
	e.done = terminated || truncated
	e.observe(obs)
	return reward, terminated, truncated, e.info(sum, &o)
}

// apply checks the whole action, then sets the controlled parameters.
func (e *Env) apply(action []float64) error {
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
	for i, v := range action {
		v = e.clip(i, v)
		if err := e.ctrl[i].Set(v); err != nil {
			return fmt.Errorf("step: %w", err) // cannot happen: v is clipped and rounded
		}
	}
	return nil
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

func (e *Env) info(sum sim.Summary, o *[numObjectives]float64) Info {
	in := Info{Seed: e.seed, Step: e.step, SimTimeS: float64(e.s.Now()) / 1000, JobsCompleted: sum.JobsCompleted,
		JobsStuck: sum.JobsStuck, TasksKilled: sum.TasksKilled, Events: sum.Events}
	in.setObjectives(o)
	return in
}
