package learn

import (
	"yarngym/env/sim"
	"yarngym/env/task"
)

// RandomSearch scores budget candidates drawn uniformly from the action box
// (from the run's seeded generator), every one on the same train seeds, and
// keeps the best. The paper default is not among them: it is a baseline of
// its own.
func RandomSearch(t task.Task, o Options) (*Result, error) {
	obj, err := NewObjective(t, o.TrainSeeds, o.Workers)
	if err != nil {
		return nil, err
	}
	rng := sim.NewRand(sim.DeriveSeed(o.Seed, sim.HashString("learn.random")))
	for range o.Budget {
		a := make([]float64, len(obj.Low))
		for i := range a {
			a[i] = obj.Low[i] + (obj.High[i]-obj.Low[i])*rng.Float64()
		}
		st, err := obj.Score(a)
		if err != nil {
			return nil, err
		}
		report(o, obj, st)
	}
	return staticResult("random", t, o, obj), nil
}
