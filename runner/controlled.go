package runner

import (
	"fmt"

	"yarngym/env"
	"yarngym/env/scenario"
	"yarngym/env/sim"
	"yarngym/env/task"
	"yarngym/learn"
)

// runControlled plays a loaded scenario under a trained controller (a
// learn.Model): the run is an episode of the model's task environment on
// this scenario, the model setting the task's parameters every control
// interval from the observation (the task's control interval, horizon and
// parameter ranges). The result is reported like any run, its policy named
// "POLICY + ALGO".
func runControlled(sc *scenario.Scenario, o Options, m *learn.Model, modelPath string, seed uint64) (*Result, error) {
	bad := func(err error) error {
		return &scenario.Error{Source: sc.Source, Key: "controller.model", Reason: err.Error()}
	}
	if m == nil {
		var err error
		if m, err = learn.LoadModel(modelPath); err != nil {
			return nil, bad(err)
		}
	}
	t, err := task.Lookup(m.Task)
	if err != nil {
		return nil, bad(err)
	}
	bounds := map[string][2]float64{}
	for i, p := range m.Params {
		bounds[p] = [2]float64{m.Low[i], m.High[i]}
	}
	cfg := env.Config{Scenario: sc.Source, Policy: o.Policy, Controlled: m.Params, Bounds: bounds,
		ControlIntervalS: t.Env.ControlIntervalS, HorizonS: t.Env.HorizonS}
	e, err := env.NewWithScenario(cfg, sc)
	if err != nil {
		return nil, bad(fmt.Errorf("model %s (task %s) does not fit this scenario: %w", modelPath, m.Task, err))
	}
	if m.Kind == learn.KindPolicy && e.ObsDim() != len(m.Norm.Mean) {
		return nil, bad(fmt.Errorf("model %s observes %d features, this scenario's policy gives %d (a different policy?)", modelPath, len(m.Norm.Mean), e.ObsDim()))
	}
	e.SetSimOptions(func(c *sim.Config) {
		c.RecordTasks = o.RecordTasks
		c.KeepTasks = o.KeepTasks
		if o.TimelineS > 0 {
			c.TimelineMs = sim.Ms(o.TimelineS * 1000)
		}
		c.AfterEvent = o.AfterEvent
	})
	obs, _, err := e.Reset(seed)
	if err != nil {
		return nil, bad(err)
	}
	act := make([]float64, e.ActDim())
	for !e.Done() {
		m.Act(obs, act)
		if obs, _, _, _, _, err = e.Step(act); err != nil {
			return nil, err
		}
	}
	s := e.Sim()
	return &Result{Scenario: sc.File.Name, Policy: s.Policy().Name + " + " + m.Algo, Seed: seed, Sim: s, Summary: s.Summary(), Warnings: sc.Warnings}, nil
}
