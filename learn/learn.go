package learn

import (
	"fmt"
	"strings"

	"yarngym/env/task"
	"yarngym/registry"
)

// Options are what every learner takes.
type Options struct {
	// Budget is the learner's budget in its own unit: candidate evaluations
	// for the black-box tuners (each plays TrainSeeds episodes), environment
	// steps for PPO. 0 takes the learner's default.
	Budget int
	// Seed seeds every draw the learner makes (initial weights, samples,
	// candidates); the same seed gives the same model file.
	Seed uint64
	// Workers is the goroutines stepping the environments; the result does
	// not depend on it.
	Workers int
	// TrainSeeds is how many of the task's train seeds the black-box tuners
	// score each candidate on (paired); 0 means DefaultTrainSeeds.
	TrainSeeds int
	// Checkpoint, if set, is given the model so far now and then (PPO, after
	// each iteration).
	Checkpoint func(m *Model) error
	// Progress, if set, is told of the learner's progress.
	Progress func(p Point)
	// PPO is PPO's configuration (nil: DefaultPPOConfig).
	PPO *PPOConfig
}

// DefaultTrainSeeds is how many train seeds score a static candidate.
const DefaultTrainSeeds = 20

// Point is one point of a learning curve: X is evaluations (black-box
// tuners) or environment steps (PPO); Return is the mean train return of
// that candidate or of the iteration's finished episodes; Best the best so
// far.
type Point struct {
	X      float64 `json:"x"`
	Return float64 `json:"return"`
	Best   float64 `json:"best"`
	// Diag is the update's diagnostics (PPO; nil for the black-box tuners).
	Diag *Diagnostics `json:"diag,omitempty"`
}

// Result is a learner's outcome: the model and its learning curve.
type Result struct {
	Model *Model
	Curve []Point
	// XUnit names Point.X: "evaluations" or "env steps".
	XUnit string
	// Evals is the candidate evaluations made (black-box), EnvSteps the
	// environment steps taken (all learners), GradSteps the gradient steps
	// (PPO).
	Evals, GradSteps int
	EnvSteps         int64
	// EnvCPU and UpdateCPU are the process CPU seconds (internal/cputime;
	// 0 without getrusage) PPO spent stepping and resetting its
	// environments and in its updates (gradient steps): a measurement for
	// the benchmarks, never part of the model.
	EnvCPU, UpdateCPU float64
}

// Learner trains a controller of a task's parameters.
type Learner struct {
	Name string
	Doc  string
	// DefaultBudget is the budget when Options.Budget is 0.
	DefaultBudget int
	Run           func(t task.Task, o Options) (*Result, error)
}

// table lists the learners; a learner is its own file and one line here.
var table = []Learner{
	{"grid", "grid search over the action box (budget: evaluations; about budget^(1/d) points per parameter)", 81, Grid},
	{"random", "random search: budget uniform candidates", 27, RandomSearch},
	{"cmaes", "CMA-ES (gonum/optimize CmaEsChol) from the paper default (budget: evaluations)", 27, CMAES},
	{"bo", "Bayesian optimisation: a Gaussian-process surrogate (Matern 5/2) and expected improvement, batches of 3 (budget: evaluations)", 27, BO},
	{"ppo", "PPO (gorgonia): a Gaussian MLP policy that sets the parameters every control interval (budget: env steps)", 100000, PPO},
}

// learners is the registry of learners, filled from table.
var learners = func() *registry.Registry[Learner] {
	r := registry.New[Learner]("learner")
	for _, l := range table {
		r.MustAdd(l.Name, l.Doc, l)
	}
	return r
}()

// Lookup returns the learner called name.
func Lookup(name string) (Learner, error) {
	e, err := learners.Get(name)
	return e.Value, err
}

// Names lists the learners, sorted.
func Names() []string { return learners.Names() }

// DefaultBudgets lists each learner's default budget ("cmaes=27, grid=81,
// ...", sorted by name).
func DefaultBudgets() string {
	var out []string
	for _, e := range learners.All() {
		out = append(out, fmt.Sprintf("%s=%d", e.Name, e.Value.DefaultBudget))
	}
	return strings.Join(out, ", ")
}

// Train runs learner name on t with o (Budget 0: the learner's default).
func Train(name string, t task.Task, o Options) (*Result, error) {
	l, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	if o.Budget == 0 {
		o.Budget = l.DefaultBudget
	}
	if o.Budget < 1 {
		return nil, fmt.Errorf("learn %s: budget %d, want at least 1", name, o.Budget)
	}
	if o.TrainSeeds == 0 {
		o.TrainSeeds = DefaultTrainSeeds
	}
	return l.Run(t, o)
}

// staticResult makes the Result of a black-box tuner: its best candidate
// as a static model.
func staticResult(algo string, t task.Task, o Options, obj *Objective) *Result {
	best := obj.Best()
	m := &Model{Version: ModelVersion, Task: t.ID, Algo: algo, Seed: o.Seed, Kind: KindStatic, Params: t.Env.Controlled,
		Low: obj.Low, High: obj.High, Action: best.Action, TrainReturn: best.Return,
		Budget: o.Budget, Evals: len(obj.Log), EnvSteps: obj.EnvSteps}
	return &Result{Model: m, Curve: obj.curve(), XUnit: "evaluations", Evals: len(obj.Log), EnvSteps: obj.EnvSteps}
}

// Evaluate plays model m on t's test seeds (one episode each, paired with
// the baselines' seeds), in the test split's workload.
func Evaluate(m *Model, t task.Task, workers int) ([]task.Episode, error) {
	if m.Task != t.ID {
		return nil, fmt.Errorf("learn: the model is for task %s, not %s", m.Task, t.ID)
	}
	return task.Evaluate(t.EnvFor(task.SplitTest), t.Test.List(), m.Agent(), workers)
}
