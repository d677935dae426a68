package learn

import (
	"yarngym/env"
	"yarngym/env/task"
)

// ActionTrace is what a controller did in one episode: the simulated time
// at each step's start and the parameter values it set.
type ActionTrace struct {
	Seed    uint64      `json:"seed"`
	Params  []string    `json:"params"`
	TimeS   []float64   `json:"time_s"`
	Actions [][]float64 `json:"actions"` // per step, one value per parameter
	Return  float64     `json:"return"`
}

// Trace plays one episode of seed with agent and records its actions, as
// the environment applied them (clipped, rounded).
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
	tr := &ActionTrace{Seed: seed, Params: e.ActionNames()}
	act := make([]float64, e.ActDim())
	for !e.Done() {
		agent.Act(0, obs, act)
		tr.TimeS = append(tr.TimeS, float64(e.Sim().Now())/1000)
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
