// Package task is yarngym's registry of tuning tasks: what a learner is
// judged on, in the spirit of CompilerGym's benchmarks. A Task names an
// environment (a scenario, or a family of workloads drawn per seed; a
// policy; the controlled parameters and their ranges; the objective; the
// control interval and the horizon), disjoint train and test seeds, and the
// paper's default action. Python (through the C ABI), the CLI and the
// reports read this one registry.
//
// Every task's return is its objective exactly (see yarngym/env,
// "Rewards"): an episode that stalls the cluster is charged to the horizon,
// so no action earns a good return by stalling it. Baselines (baselines.go)
// evaluates, paired on the test seeds, the paper default, random actions
// and the best static action of a grid; a task whose grid does not respond
// beyond seed noise is not registered, except as a control task
// (Task.Control), a negative control for learners.
//
// A task lives in the file of its paper (opera.go, dress.go, ...) and is
// added by one line in registry.go.
package task

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"yarngym/env"
	"yarngym/registry"
)

// Seeds is a run of consecutive episode seeds, First to First+Count-1.
type Seeds struct {
	First uint64 `json:"first"`
	Count int    `json:"count"`
}

// List returns the seeds in order.
func (s Seeds) List() []uint64 {
	out := make([]uint64, s.Count)
	for i := range out {
		out[i] = s.First + uint64(i)
	}
	return out
}

// overlaps reports whether two runs share a seed.
func (s Seeds) overlaps(o Seeds) bool {
	if s.Count == 0 || o.Count == 0 {
		return false
	}
	return s.First < o.First+uint64(o.Count) && o.First < s.First+uint64(s.Count)
}

// Task is one tuning task.
type Task struct {
	// ID is the task's name, "Name-vN"; gymnasium registers it as
	// "yarngym/ID".
	ID string `json:"id"`
	// Doc says what the agent tunes, on what, and why the threshold
	// matters there.
	Doc string `json:"doc"`
	// Paper and Ref name the mechanism's paper and the sections its
	// thresholds and setting come from.
	Paper string `json:"paper"`
	Ref   string `json:"ref"`
	// Env is the environment; Env.Controlled are the tuned parameters,
	// Env.Reward the objective, Env.HorizonS the horizon.
	Env env.Config `json:"env"`
	// Train and Test are disjoint seed runs: learners train on Train and are
	// judged on Test.
	Train Seeds `json:"train_seeds"`
	Test  Seeds `json:"test_seeds"`
	// Default is the paper's setting of the controlled parameters, in
	// Env.Controlled order.
	Default []float64 `json:"default"`
	// Grid is the number of grid points per controlled parameter for the
	// best-static baseline (evenly spaced over the action range, integer
	// parameters rounded).
	Grid []int `json:"grid"`
	// Control marks a control task: one whose return is measured not to
	// respond to the action beyond seed noise (its saved baselines' spread
	// is under 3 standard errors; a test keeps it so). It is registered as a
	// negative control for learners: a gain reported on it is noise.
	Control bool `json:"control,omitempty"`
}

// GymID is the task's gymnasium id.
func (t *Task) GymID() string { return "yarngym/" + t.ID }

// Objective names the task's objective: its reward's objectives, with
// their weights when there are several ("slowdown", "slowdown + 0.1
// kills").
func (t *Task) Objective() string {
	names := make([]string, 0, len(t.Env.Reward))
	for k := range t.Env.Reward {
		names = append(names, k)
	}
	slices.Sort(names)
	if len(names) == 1 && t.Env.Reward[names[0]] == 1 {
		return names[0]
	}
	parts := make([]string, len(names))
	for i, k := range names {
		parts[i] = fmt.Sprintf("%g %s", t.Env.Reward[k], k)
	}
	return strings.Join(parts, " + ")
}

// Validate checks the task against its environment: the id's form, the
// seeds, the default inside the action space, the grid's shape. It builds
// the environment once.
func (t *Task) Validate() error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("task %s: %s", t.ID, fmt.Sprintf(format, a...))
	}
	if name, ver, ok := strings.Cut(t.ID, "-v"); !ok || name == "" || ver == "" || strings.ContainsAny(t.ID, "/ ") {
		return bad("id: want Name-vN, without / or spaces")
	}
	if t.Doc == "" || t.Paper == "" || t.Ref == "" {
		return bad("doc, paper and ref are required")
	}
	if t.Train.Count < 1 || t.Test.Count < 10 {
		return bad("seeds: %d train and %d test, want at least 1 and 10 (a claim needs 10 paired seeds)", t.Train.Count, t.Test.Count)
	}
	if t.Train.overlaps(t.Test) {
		return bad("train seeds %+v and test seeds %+v overlap", t.Train, t.Test)
	}
	if len(t.Env.Reward) == 0 {
		return bad("env.reward: a task states its objective")
	}
	if t.Env.HorizonS <= 0 {
		return bad("env.horizon_s: a task states its horizon")
	}
	e, err := env.New(t.Env)
	if err != nil {
		return bad("%v", err)
	}
	as := e.ActionSpace()
	if e.ActDim() == 0 {
		return bad("controls no parameter")
	}
	if len(t.Default) != e.ActDim() || len(t.Grid) != e.ActDim() {
		return bad("default has %d values and grid %d, want one per controlled parameter (%d)", len(t.Default), len(t.Grid), e.ActDim())
	}
	for i, v := range t.Default {
		if math.IsNaN(v) || v < float64(as.Low[i]) || v > float64(as.High[i]) {
			return bad("default %s = %v is outside the action range [%v, %v]", t.Env.Controlled[i], v, as.Low[i], as.High[i])
		}
		if t.Grid[i] < 2 {
			return bad("grid: %d points for %s, want at least 2", t.Grid[i], t.Env.Controlled[i])
		}
	}
	return nil
}

// tasks is the registry of tasks, filled in listing order from table
// (registry.go).
var tasks = func() *registry.Registry[*Task] {
	r := registry.New[*Task]("task")
	for _, mk := range table {
		t := mk()
		r.MustAdd(t.ID, t.Doc, t)
	}
	return r
}()

// All returns the registered tasks in registry order (copies).
func All() []Task {
	var out []Task
	for _, e := range tasks.Ordered() {
		out = append(out, e.Value.clone())
	}
	return out
}

// Lookup returns the task with id ("Name-vN" or "yarngym/Name-vN").
func Lookup(id string) (Task, error) {
	e, err := tasks.Get(strings.TrimPrefix(id, "yarngym/"))
	if err != nil {
		return Task{}, err
	}
	return e.Value.clone(), nil
}

func (t *Task) clone() Task {
	c := *t
	c.Env.Sets = slices.Clone(t.Env.Sets)
	c.Env.Controlled = slices.Clone(t.Env.Controlled)
	c.Default = slices.Clone(t.Default)
	c.Grid = slices.Clone(t.Grid)
	if t.Env.Bounds != nil {
		c.Env.Bounds = map[string][2]float64{}
		for k, v := range t.Env.Bounds {
			c.Env.Bounds[k] = v
		}
	}
	if t.Env.Reward != nil {
		c.Env.Reward = map[string]float64{}
		for k, v := range t.Env.Reward {
			c.Env.Reward[k] = v
		}
	}
	return c
}
