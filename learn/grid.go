package learn

import "yarngym/env/task"

// Grid is grid search, the baseline tuner: it scores an even grid over the
// action box, k = floor(budget^(1/d)) points per parameter (at least 2;
// integers rounded, repeats dropped), every point on the same train seeds,
// and keeps the best. It ignores the seed: the grid is fixed.
func Grid(t task.Task, o Options) (*Result, error) {
	obj, err := NewObjective(t, o.TrainSeeds, o.Workers)
	if err != nil {
		return nil, err
	}
	points, err := task.FineGrid(t, o.Budget)
	if err != nil {
		return nil, err
	}
	for _, p := range points {
		st, err := obj.Score(p)
		if err != nil {
			return nil, err
		}
		report(o, obj, st)
	}
	return staticResult("grid", t, o, obj), nil
}

// report tells o.Progress of the latest evaluation.
func report(o Options, obj *Objective, st task.Stat) {
	if o.Progress != nil {
		c := obj.curve()
		o.Progress(c[len(c)-1])
	}
}
