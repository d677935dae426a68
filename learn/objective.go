package learn

import (
	"fmt"
	"math"
	"slices"

	"yarngym/env"
	"yarngym/env/task"
)

// Objective scores static actions of a task on a fixed set of its train
// seeds: every candidate is played on the same seeds (paired), the episodes
// stepped side by side by an env.Batch. The black-box tuners maximise its
// mean return; the test seeds are never touched here.
type Objective struct {
	Task    task.Task
	Seeds   []uint64
	Workers int
	// Low, High and Integer are the action box (the task's parameter
	// ranges); candidates are clipped to it and integers rounded.
	Low, High []float64
	Integer   []bool
	// Log is every evaluation so far, in order.
	Log []Eval
	// EnvSteps counts the environment steps the evaluations took.
	EnvSteps int64
}

// Eval is one scored candidate.
type Eval struct {
	Action []float64 `json:"action"`
	Return task.Stat `json:"return"`
}

// NewObjective scores on the task's first nSeeds train seeds.
func NewObjective(t task.Task, nSeeds, workers int) (*Objective, error) {
	if nSeeds < 1 || nSeeds > t.Train.Count {
		return nil, fmt.Errorf("learn: %d train seeds asked for, task %s has %d", nSeeds, t.ID, t.Train.Count)
	}
	e, err := env.New(t.Env)
	if err != nil {
		return nil, err
	}
	lo, hi, integer := e.ActionBounds()
	return &Objective{Task: t, Seeds: t.Train.List()[:nSeeds], Workers: workers, Low: lo, High: hi, Integer: integer}, nil
}

// Clip maps a candidate into the action box.
func (o *Objective) Clip(a []float64) []float64 {
	out := make([]float64, len(a))
	for i, v := range a {
		if math.IsNaN(v) {
			v = (o.Low[i] + o.High[i]) / 2
		}
		if o.Integer[i] {
			v = math.Round(v)
		}
		out[i] = min(max(v, o.Low[i]), o.High[i])
	}
	return out
}

// FromUnit maps u in [-1, 1]^d (clipped) onto the action box.
func (o *Objective) FromUnit(u []float64) []float64 {
	a := make([]float64, len(u))
	for i, v := range u {
		v = min(max(v, -1), 1)
		a[i] = o.Low[i] + (o.High[i]-o.Low[i])*(v+1)/2
	}
	return o.Clip(a)
}

// ToUnit maps an action onto [-1, 1]^d.
func (o *Objective) ToUnit(a []float64) []float64 {
	u := make([]float64, len(a))
	for i, v := range a {
		if r := o.High[i] - o.Low[i]; r > 0 {
			u[i] = 2*(v-o.Low[i])/r - 1
		}
	}
	return u
}

// Score plays action (clipped into the box) on every seed and returns the
// mean return and its standard error; it is logged.
func (o *Objective) Score(action []float64) (task.Stat, error) {
	st, err := o.ScoreBatch([][]float64{action})
	if err != nil {
		return task.Stat{}, err
	}
	return st[0], nil
}

// ScoreBatch scores several actions at once, every one on every seed, the
// episodes stepped side by side by one task.Evaluate (a bounded number in
// flight, refilled as they end); each is logged in order, as Score would.
// The returns do not depend on how many are batched or on the worker count.
func (o *Objective) ScoreBatch(actions [][]float64) ([]task.Stat, error) {
	clipped := make(task.PerSlot, 0, len(actions)*len(o.Seeds))
	seeds := make([]uint64, 0, cap(clipped))
	for _, a := range actions {
		c := o.Clip(a)
		for _, s := range o.Seeds {
			clipped, seeds = append(clipped, c), append(seeds, s)
		}
	}
	eps, err := task.Evaluate(o.Task.EnvFor(task.SplitTrain), seeds, clipped, o.Workers)
	if err != nil {
		return nil, err
	}
	out := make([]task.Stat, len(actions))
	n := len(o.Seeds)
	for k := range actions {
		part := eps[k*n : (k+1)*n]
		out[k] = task.NewStat(task.Returns(part))
		o.Log = append(o.Log, Eval{Action: clipped[k*n], Return: out[k]})
		for _, e := range part {
			o.EnvSteps += int64(e.Steps)
		}
	}
	return out, nil
}

// Best returns the logged evaluation of the highest mean return (the
// earliest among ties).
func (o *Objective) Best() Eval {
	best := 0
	for i, e := range o.Log {
		if e.Return.Mean > o.Log[best].Return.Mean {
			best = i
		}
	}
	return Eval{Action: slices.Clone(o.Log[best].Action), Return: o.Log[best].Return}
}

// curve is the best mean train return after each evaluation.
func (o *Objective) curve() []Point {
	out := make([]Point, len(o.Log))
	best := math.Inf(-1)
	for i, e := range o.Log {
		best = max(best, e.Return.Mean)
		out[i] = Point{X: float64(i + 1), Return: e.Return.Mean, Best: best}
	}
	return out
}
