package task

import (
	"math"
	"slices"
	"strings"
	"testing"

	"yarngym/env"
	"yarngym/env/sim"
)

func TestRegistry(t *testing.T) {
	all := All()
	if len(all) < 5 {
		t.Fatalf("%d tasks registered", len(all))
	}
	ids := map[string]bool{}
	for _, tk := range all {
		if ids[tk.ID] {
			t.Errorf("task %s listed twice", tk.ID)
		}
		ids[tk.ID] = true
		if err := tk.Validate(); err != nil {
			t.Error(err)
		}
		got, err := Lookup(tk.GymID())
		if err != nil || got.ID != tk.ID {
			t.Errorf("Lookup(%s) = %v, %v", tk.GymID(), got.ID, err)
		}
		// Lookup hands out copies: changing one leaves the registry alone.
		got.Env.Controlled[0] = "changed"
		got.Default[0] = math.NaN()
		if again, _ := Lookup(tk.ID); again.Env.Controlled[0] == "changed" || math.IsNaN(again.Default[0]) {
			t.Errorf("task %s: a looked-up copy changed the registry", tk.ID)
		}
	}
	if _, err := Lookup("NoSuch-v0"); err == nil || !strings.Contains(err.Error(), "AutoAdmin66-Fair-v0") {
		t.Errorf("unknown task: %v", err)
	}
}

func TestValidateRejects(t *testing.T) {
	good, err := Lookup("AutoAdmin66-Fair-v0")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		change func(*Task)
		want   string
	}{
		{"bad id", func(tk *Task) { tk.ID = "no version" }, "Name-vN"},
		{"overlapping seeds", func(tk *Task) { tk.Train = Seeds{First: 15, Count: 10} }, "overlap"},
		{"few test seeds", func(tk *Task) { tk.Test.Count = 5 }, "10"},
		{"default outside the range", func(tk *Task) { tk.Default = []float64{3} }, "outside"},
		{"grid of one", func(tk *Task) { tk.Grid = []int{1} }, "grid"},
		{"no horizon", func(tk *Task) { tk.Env.HorizonS = 0 }, "horizon"},
		{"no objective", func(tk *Task) { tk.Env.Reward = nil }, "objective"},
		{"no parameter", func(tk *Task) { tk.Env.Controlled = nil; tk.Default = nil; tk.Grid = nil }, "controls no parameter"},
		{"bad env", func(tk *Task) { tk.Env.Controlled = []string{"rho"} }, "rho"},
	}
	for _, c := range cases {
		tk := good.clone()
		c.change(&tk)
		if err := tk.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error mentioning %q", c.name, err, c.want)
		}
	}
}

func TestSeeds(t *testing.T) {
	if got := (Seeds{First: 3, Count: 3}).List(); !slices.Equal(got, []uint64{3, 4, 5}) {
		t.Errorf("List = %v", got)
	}
	for _, c := range []struct {
		a, b Seeds
		want bool
	}{
		{Seeds{1, 20}, Seeds{1000, 10000}, false},
		{Seeds{1, 20}, Seeds{20, 5}, true},
		{Seeds{1, 20}, Seeds{21, 5}, false},
		{Seeds{10, 1}, Seeds{1, 20}, true},
		{Seeds{1, 0}, Seeds{1, 20}, false},
	} {
		if got := c.a.overlaps(c.b); got != c.want || c.b.overlaps(c.a) != c.want {
			t.Errorf("%v overlaps %v = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// objectiveFromJobs recomputes an ended episode's weighted objective from
// the run's job records, by the definitions in yarngym/env's package doc,
// independently of the env's ledger.
func objectiveFromJobs(e *env.Env, reward map[string]float64) float64 {
	s := e.Sim()
	h := e.HorizonMs()
	var n, slow, comp, done float64
	for _, r := range s.JobResults() {
		if r.SubmitMs >= h {
			continue
		}
		n++
		end := h
		if r.State == sim.JobDone {
			end = r.FinishMs
			done++
		}
		c := float64(end - r.SubmitMs)
		comp += c / 1000
		slow += c / env.IsolatedMs(s.Jobs[r.ID].Spec, s.Jobs[r.ID].Spec.StartupMs(s.Model()), s.Capacity())
	}
	sum := s.Summary()
	cost := map[string]float64{
		"slowdown": slow / n, "completion": comp / n,
		"kills": float64(sum.TasksKilled) / n, "wasted": float64(sum.WastedMs) / 1000 / n,
	}
	gain := map[string]float64{
		"utilization": sum.VCoresUsedMean * float64(sum.EndMs) / (float64(s.Capacity().VCores) * float64(h)),
		"throughput":  done / n,
	}
	var v float64
	for k, w := range reward {
		v += w * (gain[k] - cost[k])
	}
	return v
}

// play runs one episode of seed with agent and returns its return.
func play(t *testing.T, e *env.Env, seed uint64, agent Agent) float64 {
	t.Helper()
	obs, _, err := e.Reset(seed)
	if err != nil {
		t.Fatal(err)
	}
	agent.Begin(0, seed)
	act := make([]float64, e.ActDim())
	var ret float64
	for !e.Done() {
		agent.Act(0, obs, act)
		o, r, _, _, _, err := e.Step(act)
		if err != nil {
			t.Fatal(err)
		}
		obs = o
		ret += r
	}
	return ret
}

// TestReturnIsObjective: for every registered task, an episode with the
// paper default and one with random actions return exactly (1e-9
// relative) minus the objective recomputed from the job records.
func TestReturnIsObjective(t *testing.T) {
	for _, tk := range All() {
		e, err := env.New(tk.Env)
		if err != nil {
			t.Fatal(err)
		}
		lo, hi, _ := e.ActionBounds()
		for _, a := range []struct {
			name  string
			agent Agent
		}{{"default", Static(tk.Default)}, {"random", &Random{Low: lo, High: hi}}} {
			for _, seed := range []uint64{tk.Test.First, tk.Train.First} {
				ret := play(t, e, seed, a.agent)
				want := objectiveFromJobs(e, tk.Env.Reward)
				if d := math.Abs(ret-want) / math.Abs(want); !(d < 1e-9) {
					t.Errorf("%s, %s actions, seed %d: return %v, objective from the job records %v (relative difference %.2g)", tk.ID, a.name, seed, ret, want, d)
				}
			}
		}
	}
}

// TestDeadlockIsWorse: on AutoAdmin's 66 jobs under Fair, admitting no AM
// (max_am_share = 0) or every AM (-1: the check off, the AMs take every
// vCore) stalls the cluster and returns strictly less than the paper
// default on every test seed: stalling the cluster is never a good return.
// max_am_share = 1 does not stall in Hadoop 3.3.6: the AM share's vCores
// are those the cluster has unallocated (FSLeafQueue.computeMaxAMResource),
// so AMs leave room for tasks, and it may beat the default on a seed
// (measured: 3 of the 10 test seeds), which is a fair result, not a stall.
func TestDeadlockIsWorse(t *testing.T) {
	tk, err := Lookup("AutoAdmin66-Fair-v0")
	if err != nil {
		t.Fatal(err)
	}
	seeds := tk.Test.List()
	good, err := Evaluate(tk.Env, seeds, Static(tk.Default), 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		share float64
		stall bool
	}{{0, true}, {-1, true}, {1, false}} {
		bad, err := Evaluate(tk.Env, seeds, Static{c.share}, 0)
		if err != nil {
			t.Fatal(err)
		}
		for i := range seeds {
			if bad[i].Stalled() != c.stall || (c.stall && !(bad[i].Return < good[i].Return)) {
				t.Errorf("max_am_share %v, seed %d: return %v (stalled %v, want %v), paper default %v", c.share, seeds[i], bad[i].Return, bad[i].Stalled(), c.stall, good[i].Return)
			}
		}
	}
}

// TestEvaluateWorkers: the same episodes, bit for bit, whatever the number
// of goroutines stepping them; random actions replay with the seed.
func TestEvaluateWorkers(t *testing.T) {
	tk, err := Lookup("AutoAdmin-v0")
	if err != nil {
		t.Fatal(err)
	}
	seeds := []uint64{4, 9, 2}
	var runs [][]Episode
	for _, w := range []int{1, 2, 3} {
		eps, err := Evaluate(tk.Env, seeds, &Random{Low: []float64{0}, High: []float64{2}}, w)
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, eps)
	}
	for _, eps := range runs[1:] {
		for i := range eps {
			if math.Float64bits(eps[i].Return) != math.Float64bits(runs[0][i].Return) || eps[i].Final != runs[0][i].Final || eps[i].Seed != seeds[i] {
				t.Fatalf("seed %d: %+v with one worker, %+v with more", seeds[i], runs[0][i], eps[i])
			}
		}
	}
	if runs[0][0].Return == runs[0][1].Return || !runs[0][0].Final.Ended {
		t.Errorf("episodes %+v", runs[0])
	}
}

// TestEvaluateInFlight: the same episodes, bit for bit, whether every
// episode is in flight at once or only one or two (a slot whose episode
// ends takes the next seed), with the actions of episode i given to it
// whichever environment plays it; and Evaluate keeps no more environments
// than its bound.
func TestEvaluateInFlight(t *testing.T) {
	tk, err := Lookup("AutoAdmin-v0")
	if err != nil {
		t.Fatal(err)
	}
	seeds := []uint64{4, 9, 2, 4, 7}
	// Two settings far apart, so episodes differ in length and slots
	// refill out of step.
	agent := PerSlot{{0}, {2}, {0.5}, {2}, {1.5}}
	var runs [][]Episode
	for _, live := range []int{len(seeds), 1, 2} {
		eps, err := evaluate(tk.Env, seeds, agent, 2, live)
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, eps)
	}
	for k, eps := range runs[1:] {
		for i := range eps {
			if math.Float64bits(eps[i].Return) != math.Float64bits(runs[0][i].Return) || eps[i].Final != runs[0][i].Final ||
				eps[i].Steps != runs[0][i].Steps || eps[i].Seed != seeds[i] {
				t.Fatalf("episode %d (seed %d): %+v all in flight, %+v with %d in flight", i, seeds[i], runs[0][i], eps[i], []int{1, 2}[k])
			}
		}
	}
	// Preconditions, without which the comparison proves nothing: seed 4
	// under actions 0 and 2 differs (the actions must follow the episode,
	// not the slot), and the episodes differ in length (slots refill out of
	// step).
	e := runs[0]
	if e[0].Return == e[3].Return || (e[0].Steps == e[1].Steps && e[1].Steps == e[2].Steps) {
		t.Errorf("episodes too alike to test the window: %+v", e)
	}
}

func TestGridPoints(t *testing.T) {
	tk := Task{ID: "T-v0", Env: env.Config{Scenario: "quick", Controlled: []string{"max_am_share", "locality_delay"},
		Bounds: map[string][2]float64{"locality_delay": {0, 3}}}, Grid: []int{3, 5}}
	pts, err := GridPoints(tk)
	if err != nil {
		t.Fatal(err)
	}
	// locality_delay is an integer: 0, 0.75, 1.5, 2.25, 3 round to 0, 1, 2, 3
	// (2 and 2 merge: 1.5 rounds to 2, 2.25 to 2).
	want := [][]float64{{-1, 0}, {-1, 1}, {-1, 2}, {-1, 3}, {0, 0}, {0, 1}, {0, 2}, {0, 3}, {1, 0}, {1, 1}, {1, 2}, {1, 3}}
	if !slices.EqualFunc(pts, want, slices.Equal) {
		t.Errorf("grid %v, want %v", pts, want)
	}
	tk.Grid = []int{7, 2}
	tk.Env.Controlled = []string{"max_am_share", "locality_delay"}
	pts, _ = GridPoints(tk)
	if pts[1][0] != -1 || pts[2][0] != -0.666666667 {
		t.Errorf("grid values are not rounded to 1e-9: %v", pts[:3])
	}
}

func TestStat(t *testing.T) {
	s := NewStat([]float64{1, 2, 3, 4})
	if s.Mean != 2.5 || s.N != 4 || math.Abs(s.SE-math.Sqrt(5.0/3)/2) > 1e-12 {
		t.Errorf("NewStat = %+v", s)
	}
	d := Paired([]float64{3, 5, 7}, []float64{1, 2, 3})
	if d.Mean != 3 || math.Abs(d.SE-1/math.Sqrt(3)) > 1e-12 {
		t.Errorf("Paired = %+v", d)
	}
	if (Spread{Best: 0, Diff: Stat{Mean: 2, SE: 0}}).Ratio() != math.Inf(1) || (Spread{Best: -1}).Ratio() != 0 {
		t.Error("Ratio's edge cases")
	}
}

// BenchmarkTaskEpisode plays one episode of each registered task with its
// paper default per op, on one goroutine: the cost of an evaluation.
func BenchmarkTaskEpisode(b *testing.B) {
	for _, tk := range All() {
		b.Run(tk.ID, func(b *testing.B) {
			e, err := env.New(tk.Env)
			if err != nil {
				b.Fatal(err)
			}
			obs := make([]float32, e.ObsDim())
			var steps, events int64
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := e.ResetInto(tk.Test.First+uint64(i%tk.Test.Count), obs); err != nil {
					b.Fatal(err)
				}
				for !e.Done() {
					_, _, _, info, err := e.StepInto(tk.Default, obs)
					if err != nil {
						b.Fatal(err)
					}
					steps++
					if info.Ended {
						events += info.Events
					}
				}
			}
			sec := b.Elapsed().Seconds()
			b.ReportMetric(float64(b.N)/sec, "episodes/s")
			b.ReportMetric(float64(steps)/sec, "steps/s")
			b.ReportMetric(float64(events)/sec, "events/s")
		})
	}
}

// TestSplits: the three seed runs must be disjoint, a split may change the
// workload only, EnvFor appends its sets, and seeds of two splits have no
// one workload.
func TestSplits(t *testing.T) {
	base, err := Lookup("AutoAdmin66-Fair-v0")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		mod  func(*Task)
		want string // "" valid
	}{
		{"as registered", func(*Task) {}, ""},
		{"validation overlaps test", func(k *Task) { k.Validation = Seeds{First: 15, Count: 10} }, "validation seeds"},
		{"validation overlaps train", func(k *Task) { k.Validation = Seeds{First: 1005, Count: 10} }, "overlap"},
		{"no validation", func(k *Task) { k.Validation = Seeds{} }, "no validation seeds"},
		{"workload split", func(k *Task) { k.Splits = map[string][]string{SplitTest: {"workload.options.jobs=72"}} }, ""},
		{"cluster split", func(k *Task) { k.Splits = map[string][]string{SplitTest: {"cluster.nodes.0.count=2"}} }, "workload only"},
		{"unknown split", func(k *Task) { k.Splits = map[string][]string{"dev": {"workload.options.jobs=72"}} }, `split "dev"`},
		{"bad split value", func(k *Task) { k.Splits = map[string][]string{SplitTrain: {"workload.options.jobs=-1"}} }, "splits.train"},
	} {
		k := base.clone()
		c.mod(&k)
		err := k.Validate()
		if (err == nil) != (c.want == "") || (err != nil && !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	k := base.clone()
	k.Splits = map[string][]string{SplitTest: {"workload.options.jobs=72"}}
	if got := k.EnvFor(SplitTest).Sets; !slices.Equal(got, append(slices.Clone(base.Env.Sets), "workload.options.jobs=72")) {
		t.Errorf("EnvFor(test).Sets = %v", got)
	}
	if got := k.EnvFor(SplitTrain).Sets; !slices.Equal(got, base.Env.Sets) {
		t.Errorf("EnvFor(train).Sets = %v, want the task's", got)
	}
	if sp, err := k.SplitOf(k.Test.List()); sp != SplitTest || err != nil {
		t.Errorf("SplitOf(test seeds) = %q, %v", sp, err)
	}
	if _, err := k.SplitOf([]uint64{1, 1000}); err == nil || !strings.Contains(err.Error(), "different splits") {
		t.Errorf("SplitOf(a test and a train seed): %v", err)
	}
	w := k.WithSets([]string{"workload.options.jobs=80"})
	if got := w.EnvFor(SplitTest).Sets; got[len(got)-1] != "workload.options.jobs=80" || k.Splits[SplitTest][0] != "workload.options.jobs=72" {
		t.Errorf("WithSets: test sets %v (the override last), the task's left %v", got, k.Splits[SplitTest])
	}
}
