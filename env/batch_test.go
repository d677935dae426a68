package env

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"yarngym/env/sim"
)

// batchRun is every buffer of a sequence of batch steps.
type batchRun struct {
	resetObs []float32
	obs      [][]float32
	finalObs [][]float32
	rewards  [][]float64
	term     [][]bool
	trunc    [][]bool
	infos    [][]Info
}

// actionFor is a deterministic, varied action for env i at step k
// (sometimes out of range, to exercise clipping).
func actionFor(i, k int) []float64 {
	x := float64((i*7+k*13)%17)/8 - 1
	return []float64{x, float64((i + 3*k) % 7)}
}

var batchCfg = Config{Scenario: "quick", Controlled: []string{"max_am_share", "locality_delay"}, ControlIntervalS: 45,
	Reward: map[string]float64{"slowdown": 1, "utilization": 1}}

const batchSteps = 14 // quick episodes end after 5 or 6 steps of 45 s: several autoresets

func runBatch(t *testing.T, n, k int, seeds []uint64) batchRun {
	t.Helper()
	b, err := NewBatch(batchCfg, n, k)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	od, ad := b.ObsDim(), b.ActDim()
	var r batchRun
	r.resetObs = make([]float32, n*od)
	if err := b.Reset(seeds, nil, r.resetObs); err != nil {
		t.Fatal(err)
	}
	act := make([]float64, n*ad)
	for step := 0; step < batchSteps; step++ {
		for i := 0; i < n; i++ {
			copy(act[i*ad:], actionFor(i, step))
		}
		obs, fin := make([]float32, n*od), make([]float32, n*od)
		rew, term, trunc := make([]float64, n), make([]bool, n), make([]bool, n)
		if err := b.Step(act, obs, rew, term, trunc, fin); err != nil {
			t.Fatal(err)
		}
		r.obs, r.finalObs, r.rewards, r.term, r.trunc = append(r.obs, obs), append(r.finalObs, fin), append(r.rewards, rew), append(r.term, term), append(r.trunc, trunc)
		r.infos = append(r.infos, append([]Info(nil), b.Infos()...))
	}
	return r
}

// runSequential does what the batch should, with plain Envs one by one.
func runSequential(t *testing.T, n int, seeds []uint64) batchRun {
	t.Helper()
	envs := make([]*Env, n)
	var r batchRun
	for i := range envs {
		envs[i] = mustNew(t, batchCfg)
		obs, _, err := envs[i].Reset(seeds[i])
		if err != nil {
			t.Fatal(err)
		}
		r.resetObs = append(r.resetObs, obs...)
	}
	for step := 0; step < batchSteps; step++ {
		var obsAll, finAll []float32
		var rew []float64
		var term, trunc []bool
		var infos []Info
		for i, e := range envs {
			obs, rw, te, tr, info, err := e.Step(actionFor(i, step))
			if err != nil {
				t.Fatal(err)
			}
			fin := make([]float32, len(obs))
			if te || tr {
				copy(fin, obs)
				if obs, _, err = e.Reset(sim.DeriveSeed(e.Seed(), 1)); err != nil {
					t.Fatal(err)
				}
			}
			obsAll, finAll = append(obsAll, obs...), append(finAll, fin...)
			rew, term, trunc, infos = append(rew, rw), append(term, te), append(trunc, tr), append(infos, info)
		}
		r.obs, r.finalObs, r.rewards, r.term, r.trunc, r.infos = append(r.obs, obsAll), append(r.finalObs, finAll), append(r.rewards, rew), append(r.term, term), append(r.trunc, trunc), append(r.infos, infos)
	}
	return r
}

func sameRuns(t *testing.T, what string, a, b batchRun) {
	t.Helper()
	if !sameBits32(a.resetObs, b.resetObs) {
		t.Fatalf("%s: reset observations differ", what)
	}
	for k := range a.obs {
		if !sameBits32(a.obs[k], b.obs[k]) || !sameBits32(a.finalObs[k], b.finalObs[k]) {
			t.Fatalf("%s: step %d: observations differ", what, k)
		}
		for i := range a.rewards[k] {
			if math.Float64bits(a.rewards[k][i]) != math.Float64bits(b.rewards[k][i]) || a.term[k][i] != b.term[k][i] ||
				a.trunc[k][i] != b.trunc[k][i] || a.infos[k][i] != b.infos[k][i] {
				t.Fatalf("%s: step %d env %d: reward/flags/info differ", what, k, i)
			}
		}
	}
}

func TestBatchMatchesSequential(t *testing.T) {
	const n = 6
	seeds := []uint64{1, 2, 3, 1, 42, 7}
	want := runSequential(t, n, seeds)
	ends := 0
	for k := range want.term {
		for i := range want.term[k] {
			if want.term[k][i] || want.trunc[k][i] {
				ends++
			}
		}
	}
	if ends < n {
		t.Fatalf("only %d episode ends in %d steps: the test does not exercise autoreset", ends, batchSteps)
	}
	for _, k := range []int{1, 4, 0, 64} {
		got := runBatch(t, n, k, seeds)
		sameRuns(t, fmt.Sprintf("K=%d", k), want, got)
	}
}

func TestBatchAutoreset(t *testing.T) {
	b, err := NewBatch(Config{Scenario: "quick"}, 2, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if b.AutoresetMode() != "same-step" {
		t.Errorf("AutoresetMode %q", b.AutoresetMode())
	}
	od := b.ObsDim()
	seeds := []uint64{5, 6}
	obs := make([]float32, 2*od)
	if err := b.Reset(seeds, nil, obs); err != nil {
		t.Fatal(err)
	}
	// A lone env with seed 5 is the reference for env 0.
	ref := mustNew(t, Config{Scenario: "quick"})
	if _, _, err := ref.Reset(5); err != nil {
		t.Fatal(err)
	}
	const sentinel = -12345
	rew, term, trunc := make([]float64, 2), make([]bool, 2), make([]bool, 2)
	ended := false
	for k := 0; k < 20 && !ended; k++ {
		fin := make([]float32, 2*od)
		for i := range fin {
			fin[i] = sentinel
		}
		if err := b.Step(nil, obs, rew, term, trunc, fin); err != nil {
			t.Fatal(err)
		}
		robs, rr, rterm, rtrunc, _, err := ref.Step(nil)
		if err != nil {
			t.Fatal(err)
		}
		if rr != rew[0] || rterm != term[0] || rtrunc != trunc[0] {
			t.Fatalf("step %d: env 0 reward/flags %v %v %v, lone env %v %v %v", k, rew[0], term[0], trunc[0], rr, rterm, rtrunc)
		}
		for i := 0; i < 2; i++ {
			f := fin[i*od : (i+1)*od]
			if !(term[i] || trunc[i]) {
				for _, v := range f {
					if v != sentinel {
						t.Fatalf("step %d: finalObs of env %d written though it did not end", k, i)
					}
				}
			}
		}
		if !(term[0] || trunc[0]) {
			if !sameBits32(robs, obs[:od]) {
				t.Fatalf("step %d: env 0 observation differs from a lone env's", k)
			}
			continue
		}
		ended = true
		if !sameBits32(robs, fin[:od]) {
			t.Fatalf("step %d: finalObs %v, want the lone env's last observation %v", k, fin[:od], robs)
		}
		next := sim.DeriveSeed(5, 1)
		if b.Env(0).Seed() != next {
			t.Fatalf("env 0 reset with seed %d, want DeriveSeed(5, 1) = %d", b.Env(0).Seed(), next)
		}
		want, _, err := mustNew(t, Config{Scenario: "quick"}).Reset(next)
		if err != nil {
			t.Fatal(err)
		}
		if !sameBits32(want, obs[:od]) {
			t.Fatalf("obs after autoreset %v, want the reset observation %v", obs[:od], want)
		}
		if b.Infos()[0].JobsCompleted != 4 {
			t.Errorf("info of the ending step: %+v", b.Infos()[0])
		}
	}
	if !ended {
		t.Fatal("env 0 never ended")
	}
	// The reset env continues from time 0 of its new episode.
	if err := b.Step(nil, obs, rew, term, trunc, nil); err != nil {
		t.Fatal(err)
	}
	if info := b.Infos()[0]; info.Step != 1 || info.SimTimeS != 60 || info.Seed != sim.DeriveSeed(5, 1) {
		t.Errorf("first step after autoreset: %+v", info)
	}
}

func TestBatchResetMask(t *testing.T) {
	b, err := NewBatch(Config{Scenario: "quick"}, 3, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	od := b.ObsDim()
	obs := make([]float32, 3*od)
	if err := b.Reset([]uint64{1, 2, 3}, nil, obs); err != nil {
		t.Fatal(err)
	}
	rew, term, trunc := make([]float64, 3), make([]bool, 3), make([]bool, 3)
	if err := b.Step(nil, obs, rew, term, trunc, nil); err != nil {
		t.Fatal(err)
	}
	for i := range obs {
		obs[i] = 99
	}
	if err := b.Reset([]uint64{8, 0, 9}, []bool{true, false, true}, obs); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		untouched := obs[i*od] == 99
		if untouched != (i == 1) {
			t.Errorf("env %d: observation written = %v", i, !untouched)
		}
	}
	if b.Env(0).Seed() != 8 || b.Env(1).Seed() != 2 || b.Env(2).Seed() != 9 {
		t.Errorf("seeds after masked reset: %d %d %d", b.Env(0).Seed(), b.Env(1).Seed(), b.Env(2).Seed())
	}
	if b.Env(1).Sim().Now() != 60000 || b.Env(0).Sim().Now() != 0 {
		t.Errorf("masked env was reset, or unmasked one was not")
	}
}

func TestBatchErrors(t *testing.T) {
	if _, err := NewBatch(Config{Scenario: "quick"}, 0, 1); err == nil {
		t.Error("n = 0 accepted")
	}
	if _, err := NewBatch(Config{Scenario: "quick"}, 2, -1); err == nil {
		t.Error("k = -1 accepted")
	}
	if _, err := NewBatch(Config{Scenario: "quick", Controlled: []string{"nope"}}, 2, 1); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("bad config: %v", err)
	}
	b, err := NewBatch(Config{Scenario: "quick", Controlled: []string{"max_am_share"}}, 4, 3)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	od := b.ObsDim()
	obs := make([]float32, 4*od)
	rew, term, trunc := make([]float64, 4), make([]bool, 4), make([]bool, 4)
	if err := b.Step([]float64{0, 0, 0, 0}, obs, rew, term, trunc, nil); err == nil || !strings.Contains(err.Error(), "env 0") {
		t.Errorf("step before reset: %v", err)
	}
	if err := b.Reset([]uint64{1, 2, 3, 4}, nil, obs); err != nil {
		t.Fatal(err)
	}
	bad := []struct {
		name string
		call func() error
		want string
	}{
		{"seeds", func() error { return b.Reset([]uint64{1}, nil, obs) }, "seeds"},
		{"mask", func() error { return b.Reset([]uint64{1, 2, 3, 4}, []bool{true}, obs) }, "mask"},
		{"reset obs", func() error { return b.Reset([]uint64{1, 2, 3, 4}, nil, obs[:od]) }, "obs"},
		{"actions", func() error { return b.Step([]float64{0}, obs, rew, term, trunc, nil) }, "actions"},
		{"rewards", func() error { return b.Step(make([]float64, 4), obs, rew[:1], term, trunc, nil) }, "rewards"},
		{"terminated", func() error { return b.Step(make([]float64, 4), obs, rew, term[:2], trunc, nil) }, "terminated"},
		{"truncated", func() error { return b.Step(make([]float64, 4), obs, rew, term, nil, nil) }, "truncated"},
		{"final", func() error { return b.Step(make([]float64, 4), obs, rew, term, trunc, obs[:1]) }, "final_obs"},
		{"NaN in env 2 and 3", func() error {
			return b.Step([]float64{0, 0, math.NaN(), math.NaN()}, obs, rew, term, trunc, nil)
		}, "env 2: step: action[0] for parameter \"max_am_share\" is NaN"},
	}
	for _, c := range bad {
		if err := c.call(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one mentioning %q", c.name, err, c.want)
		}
	}
	b.Close()
	b.Close()
	if err := b.Reset([]uint64{1, 2, 3, 4}, nil, obs); err == nil {
		t.Error("a closed batch still runs")
	}
}

// A panic inside an env's engine comes back as that env's error, a
// *PanicError carrying the panic's value and stack, and the batch's other
// envs and workers carry on.
func TestBatchPanicIsAPanicError(t *testing.T) {
	b, err := NewBatch(Config{Scenario: "quick"}, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	b.Env(1).SetSimOptions(func(c *sim.Config) {
		c.AfterEvent = func(s *sim.Sim) {
			if s.Now() >= 30_000 {
				panic("deliberate")
			}
		}
	})
	obs := make([]float32, 3*b.ObsDim())
	if err := b.Reset([]uint64{1, 2, 3}, nil, obs); err != nil {
		t.Fatal(err)
	}
	rew, term, trunc := make([]float64, 3), make([]bool, 3), make([]bool, 3)
	err = b.Step(nil, obs, rew, term, trunc, nil)
	var pe *PanicError
	if !errors.As(err, &pe) || pe.Value != "deliberate" || err.Error() != "env 1: panic: deliberate" {
		t.Fatalf("step error %v (%T), want env 1's *PanicError", err, err)
	}
	if !strings.Contains(string(pe.Stack), "batch_test.go") {
		t.Errorf("the stack does not show where the panic was raised:\n%s", pe.Stack)
	}
	// Env 0 and 2 stepped; the pool still works.
	if b.Infos()[0].Step != 1 || b.Infos()[2].Step != 1 {
		t.Errorf("the other envs did not step: %+v", b.Infos())
	}
	if err := b.Reset([]uint64{1, 2, 3}, []bool{true, false, true}, obs); err != nil {
		t.Fatal(err)
	}
}

// TestNoAllocs checks that the environment's own work allocates nothing:
// setting the action, accounting an interval and writing the observation
// (Env), and dispatching a call to the workers (Batch). The simulation's own
// allocations are the engine's business (see BenchmarkEnvStep).
func TestNoAllocs(t *testing.T) {
	e := mustNew(t, Config{Scenario: "ras", Controlled: []string{"locality_delay"}, ControlIntervalS: 600})
	obs, _, err := e.Reset(1)
	if err != nil {
		t.Fatal(err)
	}
	for k := 0; k < 5; k++ {
		if _, _, _, _, err := e.StepInto([]float64{2}, obs); err != nil {
			t.Fatal(err)
		}
	}
	action := []float64{3}
	if n := testing.AllocsPerRun(100, func() {
		if err := e.CheckStep(action); err != nil {
			t.Fatal(err)
		}
		e.account(obs)
	}); n != 0 {
		t.Errorf("Env: %v allocations per step outside the simulation", n)
	}

	for _, k := range []int{1, 3} {
		b, err := NewBatch(Config{Scenario: "quick"}, 3, k)
		if err != nil {
			t.Fatal(err)
		}
		bobs := make([]float32, 3*b.ObsDim())
		seeds, none := []uint64{1, 2, 3}, []bool{false, false, false}
		if err := b.Reset(seeds, nil, bobs); err != nil {
			t.Fatal(err)
		}
		// A fully masked reset goes through the whole dispatch and does no
		// env work.
		if n := testing.AllocsPerRun(100, func() {
			if err := b.Reset(seeds, none, bobs); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("Batch K=%d: %v allocations per dispatch", k, n)
		}
		b.Close()
	}
}
