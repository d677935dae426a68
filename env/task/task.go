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
// Datasets. A task's workload may be a family drawn per seed (a window of a
// real trace, a generator's parameter range). Its seeds come in three
// disjoint runs, Train, Validation and Test, and Splits may give each run
// scenario overrides of its own (Task.EnvFor), so that the three parts of
// the family share no workload either: the FB-2009 tasks train on hours
// 0-15 of the day, validate on 16-19 and are tested on 20-23 (swim.go's
// windows_from / windows_to). Every place that plays a task's seeds builds
// its environment with EnvFor (baselines, learners, evaluate, the C ABI).
// WithSets plays a task on another workload (yarngym evaluate --set).
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
	// Train, Validation and Test are disjoint seed runs: learners train on
	// Train, may select models on Validation, and are judged on Test.
	Train      Seeds `json:"train_seeds"`
	Validation Seeds `json:"validation_seeds"`
	Test       Seeds `json:"test_seeds"`
	// Splits are scenario overrides ("KEY=VALUE", after Env.Sets) that apply
	// to one seed run only, by split name (SplitTrain, SplitValidation,
	// SplitTest): a family of workloads cut into parts that share no
	// workload. They may change the workload only (keys "workload."), so
	// that the spaces are the same in every split. Nil: every run plays
	// Env as it is.
	Splits map[string][]string `json:"splits,omitempty"`
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

// The split names, in order.
const (
	SplitTrain      = "train"
	SplitValidation = "validation"
	SplitTest       = "test"
)

// SplitNames lists the splits in order.
func SplitNames() []string { return []string{SplitTrain, SplitValidation, SplitTest} }

// SeedsOf returns the seed run of a split.
func (t *Task) SeedsOf(split string) (Seeds, error) {
	switch split {
	case SplitTrain:
		return t.Train, nil
	case SplitValidation:
		return t.Validation, nil
	case SplitTest:
		return t.Test, nil
	}
	return Seeds{}, fmt.Errorf("split %q: want %s", split, strings.Join(SplitNames(), ", "))
}

// EnvFor returns the environment of a split's seeds: Env with the split's
// overrides appended to its sets (Env itself when the task has none).
func (t *Task) EnvFor(split string) env.Config {
	cfg := t.Env
	cfg.Sets = append(slices.Clone(t.Env.Sets), t.Splits[split]...)
	return cfg
}

// SplitOf names the split whose run holds every one of seeds ("" when none
// holds any), and errs when they fall in several runs, or partly outside
// them, of a task with splits: such seeds have no one workload.
func (t *Task) SplitOf(seeds []uint64) (string, error) {
	in := func(s Seeds, x uint64) bool { return x >= s.First && x < s.First+uint64(s.Count) }
	found := ""
	for i, x := range seeds {
		name := ""
		for _, sp := range SplitNames() {
			if r, _ := t.SeedsOf(sp); in(r, x) {
				name = sp
			}
		}
		if i == 0 {
			found = name
		} else if name != found && len(t.Splits) > 0 {
			return "", fmt.Errorf("task %s: seeds %d and %d are in different splits (%q, %q), whose workloads differ; evaluate each split's seeds apart", t.ID, seeds[0], x, found, name)
		}
	}
	return found, nil
}

// EnvForSeeds is EnvFor of the split holding seeds; seeds outside every run
// play Env, the whole family.
func (t *Task) EnvForSeeds(seeds []uint64) (env.Config, error) {
	sp, err := t.SplitOf(seeds)
	if err != nil {
		return env.Config{}, err
	}
	return t.EnvFor(sp), nil
}

// WithSets returns the task played on another workload: sets appended to
// Env.Sets and to every split's overrides, so that they win over both
// (yarngym evaluate --set). The id is kept: the model and its saved
// baselines are the task's.
func (t Task) WithSets(sets []string) Task {
	c := t.clone()
	c.Env.Sets = append(c.Env.Sets, sets...)
	if len(sets) > 0 && len(c.Splits) > 0 {
		for k, v := range c.Splits {
			c.Splits[k] = append(slices.Clone(v), sets...)
		}
	}
	return c
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
	if t.Validation.Count < 1 {
		return bad("seeds: no validation seeds, want a run disjoint from train and test")
	}
	for _, p := range [][2]string{{SplitTrain, SplitTest}, {SplitTrain, SplitValidation}, {SplitValidation, SplitTest}} {
		a, _ := t.SeedsOf(p[0])
		b, _ := t.SeedsOf(p[1])
		if a.overlaps(b) {
			return bad("%s seeds %+v and %s seeds %+v overlap", p[0], a, p[1], b)
		}
	}
	for k, sets := range t.Splits {
		if _, err := t.SeedsOf(k); err != nil {
			return bad("splits: %v", err)
		}
		for _, kv := range sets {
			if !strings.HasPrefix(kv, "workload.") {
				return bad("splits.%s: %q: a split may change the workload only (keys workload.*), so that every split has the same spaces", k, kv)
			}
		}
		if _, err := env.New(t.EnvFor(k)); err != nil {
			return bad("splits.%s: %v", k, err)
		}
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
	if t.Splits != nil {
		c.Splits = map[string][]string{}
		for k, v := range t.Splits {
			c.Splits[k] = slices.Clone(v)
		}
	}
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
