package learn

import (
	"fmt"

	"yarngym/env"
	"yarngym/env/task"
)

// ActionTrace is what a controller did in one episode: the simulated time
// at each step's start, the parameter values it set, the observation it set
// them from and the cluster's load at that moment. Explain reads these to
// say which state the action follows.
type ActionTrace struct {
	Seed    uint64      `json:"seed"`
	Params  []string    `json:"params"`
	TimeS   []float64   `json:"time_s"`
	Actions [][]float64 `json:"actions"` // per step, one value per parameter
	Return  float64     `json:"return"`
	// Low and High are each parameter's action range, so that an action's
	// movement can be judged against the room it had.
	Low  []float64 `json:"low"`
	High []float64 `json:"high"`
	// Features names the observation's entries (env.Env.FeatureNames);
	// Obs holds, per step, the observation the controller acted on.
	Features []string    `json:"features"`
	Obs      [][]float64 `json:"obs"`
	// LoadNames names the load measures (LoadNames below); Load holds, per
	// step, their values when the step began, in the cluster's own units
	// (counts, shares of capacity) rather than the observation's scaling.
	LoadNames []string    `json:"load_names"`
	Load      [][]float64 `json:"load"`
}

// LoadNames are the load measures a trace records: jobs submitted and
// not yet admitted, jobs admitted and unfinished, and the shares of the
// cluster's vCores reserved by containers (guaranteed and opportunistic)
// and used by them.
var LoadNames = []string{"jobs waiting", "jobs running", "vcores reserved", "cpu used"}

// LoadShare marks which of LoadNames are shares of capacity (the others
// are counts), for a chart to put them on their own axis.
var LoadShare = []bool{false, false, true, true}

// Trace plays one episode of seed with agent and records its actions, as
// the environment applied them (clipped, rounded), beside the observation
// and load each was chosen in.
func Trace(t task.Task, agent task.Agent, seed uint64) (*ActionTrace, error) {
	cfg, err := t.EnvForSeeds([]uint64{seed})
	if err != nil {
		return nil, err
	}
	e, err := env.New(cfg)
	if err != nil {
		return nil, err
	}
	obs, _, err := e.Reset(seed)
	if err != nil {
		return nil, err
	}
	agent.Begin(0, seed)
	lo, hi, _ := e.ActionBounds()
	tr := &ActionTrace{Seed: seed, Params: e.ActionNames(), Low: lo, High: hi, Features: e.FeatureNames(), LoadNames: LoadNames}
	act := make([]float64, e.ActDim())
	for !e.Done() {
		agent.Act(0, obs, act)
		tr.TimeS = append(tr.TimeS, float64(e.Sim().Now())/1000)
		o64 := make([]float64, len(obs))
		for i, x := range obs {
			o64[i] = float64(x)
		}
		tr.Obs = append(tr.Obs, o64)
		tr.Load = append(tr.Load, load(e))
		o, r, _, _, _, err := e.Step(act)
		if err != nil {
			return nil, err
		}
		applied := make([]float64, len(act))
		for i, p := range tr.Params {
			applied[i] = *e.Sim().Policy().Params.Get(p).Value
		}
		tr.Actions = append(tr.Actions, applied)
		tr.Return += r
		obs = o
	}
	return tr, nil
}

// load reads LoadNames' measures from the environment's simulator now.
func load(e *env.Env) []float64 {
	s := e.Sim()
	g, opp, cpuUsed, _ := s.Totals()
	capV := float64(s.Capacity().VCores)
	share := func(x float64) float64 {
		if capV <= 0 {
			return 0
		}
		return x / capV
	}
	return []float64{float64(len(s.Waiting())), float64(len(s.Active())),
		share(float64(g.VCores + opp.VCores)), share(cpuUsed)}
}

// TraceAll traces agent on each of seeds, one episode per seed, in seeds'
// order. newAgent gives each episode its own agent, so that episodes run
// side by side on up to workers goroutines with the same result as one
// after another (each episode is its own simulation).
func TraceAll(t task.Task, newAgent func() task.Agent, seeds []uint64, workers int) ([]*ActionTrace, error) {
	out := make([]*ActionTrace, len(seeds))
	errs := make([]error, len(seeds))
	workers = max(1, min(workers, len(seeds)))
	next := make(chan int)
	done := make(chan struct{})
	for range workers {
		go func() {
			for i := range next {
				out[i], errs[i] = Trace(t, newAgent(), seeds[i])
			}
			done <- struct{}{}
		}()
	}
	for i := range seeds {
		next <- i
	}
	close(next)
	for range workers {
		<-done
	}
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("trace of %s seed %d: %w", t.ID, seeds[i], err)
		}
	}
	return out, nil
}
