package env

import (
	"math"
	"strings"
	"testing"
)

// step is one recorded Step.
type step struct {
	obs         []float32
	reward      float64
	term, trunc bool
	info        Info
}

// episode resets e with seed and steps it to the end with action(k), at
// most limit steps.
func episode(t *testing.T, e *Env, seed uint64, limit int, action func(k int) []float64) (first []float32, steps []step) {
	t.Helper()
	first, _, err := e.Reset(seed)
	if err != nil {
		t.Fatal(err)
	}
	for k := 0; k < limit; k++ {
		obs, r, term, trunc, info, err := e.Step(action(k))
		if err != nil {
			t.Fatalf("step %d: %v", k, err)
		}
		steps = append(steps, step{obs, r, term, trunc, info})
		if term || trunc {
			return first, steps
		}
	}
	t.Fatalf("episode did not end in %d steps", limit)
	return nil, nil
}

func noAction(int) []float64 { return nil }

func mustNew(t *testing.T, cfg Config) *Env {
	t.Helper()
	e, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func sameBits32(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return false
		}
	}
	return true
}

func sameSteps(a, b []step) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !sameBits32(a[i].obs, b[i].obs) || math.Float64bits(a[i].reward) != math.Float64bits(b[i].reward) ||
			a[i].term != b[i].term || a[i].trunc != b[i].trunc || a[i].info != b[i].info {
			return false
		}
	}
	return true
}

func TestSameSeedSameEpisode(t *testing.T) {
	cfg := Config{Scenario: "quick", ControlIntervalS: 20, Reward: map[string]float64{"slowdown": 1, "utilization": 0.5, "kills": 1}}
	e1, e2 := mustNew(t, cfg), mustNew(t, cfg)
	f1, s1 := episode(t, e1, 7, 1000, noAction)
	f2, s2 := episode(t, e2, 7, 1000, noAction)
	if !sameBits32(f1, f2) || !sameSteps(s1, s2) {
		t.Fatal("two envs with the same seed gave different episodes")
	}
	// The same env, reset again after another episode: still identical.
	episode(t, e1, 99, 1000, noAction)
	f3, s3 := episode(t, e1, 7, 1000, noAction)
	if !sameBits32(f1, f3) || !sameSteps(s1, s3) {
		t.Fatal("resetting the same env with the same seed gave a different episode")
	}
	if len(s1) < 5 {
		t.Fatalf("episode has only %d steps", len(s1))
	}
}

func TestSeedsDiffer(t *testing.T) {
	e := mustNew(t, Config{Scenario: "quick"})
	_, a := episode(t, e, 1, 1000, noAction)
	_, b := episode(t, e, 2, 1000, noAction)
	if sameSteps(a, b) {
		t.Fatal("seeds 1 and 2 gave identical episodes on a stochastic scenario")
	}
	if a[len(a)-1].info.SimTimeS == b[len(b)-1].info.SimTimeS {
		t.Errorf("both seeds end at %v s", a[len(a)-1].info.SimTimeS)
	}
}

func TestQuickEpisode(t *testing.T) {
	e := mustNew(t, Config{Scenario: "quick", Reward: map[string]float64{"throughput": 1}})
	first, steps := episode(t, e, 1, 100, noAction)
	last := steps[len(steps)-1]
	sum := e.Sim().Summary()
	if !last.term || last.trunc {
		t.Fatalf("last step: terminated %v truncated %v, want true false", last.term, last.trunc)
	}
	for _, s := range steps[:len(steps)-1] {
		if s.term || s.trunc || s.info.Ended {
			t.Fatal("an episode flag was set before the last step")
		}
	}
	if sum.JobsCompleted != 4 || last.info.JobsCompleted != 4 || last.info.JobsStuck != 0 {
		t.Fatalf("jobs completed %d (info %d), stuck %d; want 4, 4, 0", sum.JobsCompleted, last.info.JobsCompleted, last.info.JobsStuck)
	}
	if want := float64(sum.EndMs) / 1000; last.info.SimTimeS != want {
		t.Errorf("last SimTimeS %v, want the run's end %v", last.info.SimTimeS, want)
	}
	if want := int(math.Ceil(last.info.SimTimeS / 60)); len(steps) != want {
		t.Errorf("%d steps of 60 s for a %v s run, want %d", len(steps), last.info.SimTimeS, want)
	}
	if last.info.Events != sum.Events || last.info.Step != len(steps) {
		t.Errorf("info %+v does not match the summary %+v", last.info, sum)
	}
	// Throughput adds up to the share of jobs done (all 4), and is the
	// reward with weight 1; jobs_completed_frac in the observation is the
	// same share, time_frac the time over the horizon.
	names := e.FeatureNames()
	var thr float64
	for i, s := range steps {
		thr += s.info.Throughput
		if s.reward != s.info.Throughput {
			t.Errorf("step %d: reward %v, want throughput %v", i, s.reward, s.info.Throughput)
		}
		if got := s.obs[index(t, names, "jobs_completed_frac")]; got != float32(s.info.Throughput) {
			t.Errorf("step %d: jobs_completed_frac %v, throughput %v", i, got, s.info.Throughput)
		}
		if got, want := s.obs[index(t, names, "time_frac")], float32(s.info.SimTimeS/s.info.HorizonS); got != want {
			t.Errorf("step %d: time_frac %v, want %v", i, got, want)
		}
		if s.info.Slowdown > 0 || s.info.Completion > 0 || s.info.Kills != 0 || s.info.Utilization < 0 || s.info.Utilization > 1 {
			t.Errorf("step %d: objectives out of range: %+v", i, s.info)
		}
	}
	if thr != 1 || last.info.EpisodeThroughput != 1 || last.info.Return != thr {
		t.Errorf("throughput sums to %v (episode %v, return %v), want 1", thr, last.info.EpisodeThroughput, last.info.Return)
	}
	if got := first[index(t, names, "jobs_arrived_frac")]; got != 0 {
		t.Errorf("reset observation: %v jobs arrived", got)
	}
	for i, v := range first {
		if v != 0 && !strings.HasPrefix(names[i], "policy.") && !strings.HasPrefix(names[i], "param.") {
			t.Fatalf("reset observation: %s = %v, want 0 at time 0", names[i], v)
		}
	}
}

func TestTuner(t *testing.T) {
	e := mustNew(t, Config{Scenario: "autoadmin-66", Policy: "fair", Controlled: []string{"max_am_share"}})
	as := e.ActionSpace()
	if len(as.Shape) != 1 || as.Shape[0] != 1 || as.Low[0] != -1 || as.High[0] != 1 {
		t.Fatalf("action space %+v, want [-1, 1] shape [1]", as)
	}
	obs, _, err := e.Reset(1)
	if err != nil {
		t.Fatal(err)
	}
	param := func() float64 { return *e.Sim().Policy().Params.Get("max_am_share").Value }
	last := len(obs) - 1
	if param() != 0.5 || obs[last] != 0.75 {
		t.Fatalf("after reset max_am_share = %v (obs %v), want the default 0.5 (0.75)", param(), obs[last])
	}
	for _, c := range []struct{ action, want float64 }{{0.3, 0.3}, {5, 1}, {-7, -1}, {math.Inf(1), 1}, {-0.25, -0.25}} {
		obs, _, _, _, _, err := e.Step([]float64{c.action})
		if err != nil {
			t.Fatal(err)
		}
		if param() != c.want {
			t.Errorf("action %v: max_am_share = %v, want %v", c.action, param(), c.want)
		}
		if want := float32((c.want + 1) / 2); obs[last] != want {
			t.Errorf("action %v: observed param %v, want %v", c.action, obs[last], want)
		}
	}

	// An integer parameter is rounded and clipped.
	e = mustNew(t, Config{Scenario: "quick", Controlled: []string{"locality_delay"}})
	if _, _, err := e.Reset(1); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ action, want float64 }{{3.6, 4}, {-2, 0}, {1e9, 10000}, {2.4, 2}} {
		if _, _, _, _, _, err := e.Step([]float64{c.action}); err != nil {
			t.Fatal(err)
		}
		if got := *e.Sim().Policy().Params.Get("locality_delay").Value; got != c.want {
			t.Errorf("action %v: locality_delay = %v, want %v", c.action, got, c.want)
		}
	}

	// The parameter matters: AMs limited to a tenth of the cluster against
	// no limit give different runs.
	run := func(v float64) Info {
		e := mustNew(t, Config{Scenario: "autoadmin-66", Controlled: []string{"max_am_share"}})
		_, steps := episode(t, e, 1, 10000, func(int) []float64 { return []float64{v} })
		return steps[len(steps)-1].info
	}
	if a, b := run(0.1), run(-1); a.SimTimeS == b.SimTimeS && a.Events == b.Events {
		t.Errorf("max_am_share 0.1 and -1 gave the same run: %+v", a)
	}
}

func TestTunerOff(t *testing.T) {
	e := mustNew(t, Config{Scenario: "quick"})
	if as := e.ActionSpace(); len(as.Shape) != 1 || as.Shape[0] != 0 || len(as.Low) != 0 {
		t.Fatalf("action space %+v, want shape [0]", as)
	}
	_, a := episode(t, e, 4, 100, noAction)
	_, b := episode(t, e, 4, 100, func(int) []float64 { return []float64{math.NaN(), 3} })
	if !sameSteps(a, b) {
		t.Fatal("with no controlled parameters the action changed the episode")
	}
}

func TestConfigErrors(t *testing.T) {
	cases := []struct {
		name string
		cfg  Config
		want []string
	}{
		{"empty scenario", Config{}, []string{"scenario"}},
		{"unknown scenario", Config{Scenario: "no-such-scenario"}, []string{"no-such-scenario", "quick"}},
		{"missing file", Config{Scenario: "/nonexistent/x.toml"}, []string{"/nonexistent/x.toml"}},
		{"unknown policy", Config{Scenario: "quick", Policy: "lifo"}, []string{"lifo", "fair"}},
		{"unknown controlled", Config{Scenario: "quick", Controlled: []string{"rho"}}, []string{"controlled", "rho", "max_am_share"}},
		{"duplicate controlled", Config{Scenario: "quick", Controlled: []string{"max_am_share", "max_am_share"}}, []string{"max_am_share", "twice"}},
		{"unknown objective", Config{Scenario: "quick", Reward: map[string]float64{"speed": 1}}, []string{"speed", "slowdown", "utilization"}},
		{"NaN weight", Config{Scenario: "quick", Reward: map[string]float64{"kills": math.NaN()}}, []string{"kills"}},
		{"negative weight", Config{Scenario: "quick", Reward: map[string]float64{"slowdown": -1}}, []string{"slowdown", ">= 0"}},
		{"only stall-blind objectives", Config{Scenario: "quick", Reward: map[string]float64{"kills": 1, "wasted": 2}}, []string{"kills", "stall", "slowdown"}},
		{"zero-weight stall-safe objective", Config{Scenario: "quick", Reward: map[string]float64{"kills": 1, "slowdown": 0}}, []string{"stall"}},
		{"negative horizon", Config{Scenario: "quick", HorizonS: -5}, []string{"horizon_s"}},
		{"bounds of an uncontrolled parameter", Config{Scenario: "quick", Controlled: []string{"max_am_share"}, Bounds: map[string][2]float64{"locality_delay": {0, 1}}}, []string{"bounds", "locality_delay", "not a controlled"}},
		{"bounds outside the range", Config{Scenario: "quick", Controlled: []string{"max_am_share"}, Bounds: map[string][2]float64{"max_am_share": {0, 2}}}, []string{"bounds", "max_am_share", "[-1, 1]"}},
		{"inverted bounds", Config{Scenario: "quick", Controlled: []string{"max_am_share"}, Bounds: map[string][2]float64{"max_am_share": {0.5, 0.2}}}, []string{"bounds", "max_am_share"}},
		{"negative interval", Config{Scenario: "quick", ControlIntervalS: -1}, []string{"control_interval_s"}},
		{"NaN interval", Config{Scenario: "quick", ControlIntervalS: math.NaN()}, []string{"control_interval_s"}},
		{"tiny interval", Config{Scenario: "quick", ControlIntervalS: 1e-6}, []string{"control_interval_s"}},
		{"negative max steps", Config{Scenario: "quick", MaxSteps: -3}, []string{"max_steps"}},
		{"bad set", Config{Scenario: "quick", Sets: []string{"no_such_param=1"}}, []string{"no_such_param"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := New(c.cfg)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func TestStepErrors(t *testing.T) {
	e := mustNew(t, Config{Scenario: "quick", Controlled: []string{"max_am_share", "locality_delay"}, MaxSteps: 2})
	if _, _, _, _, _, err := e.Step([]float64{0, 0}); err == nil || !strings.Contains(err.Error(), "Reset") {
		t.Errorf("step before reset: %v", err)
	}
	if _, _, err := e.Reset(1); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		action []float64
		want   []string
	}{
		{"short", []float64{0.5}, []string{"action", "1", "2", "max_am_share", "locality_delay"}},
		{"long", []float64{0.5, 1, 2}, []string{"action", "3", "2"}},
		{"nil", nil, []string{"action", "0", "2"}},
		{"NaN", []float64{0.5, math.NaN()}, []string{"NaN", "locality_delay"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, _, _, _, err := e.Step(c.action)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
	// A rejected action changes nothing: the parameters keep their values.
	if got := *e.Sim().Policy().Params.Get("max_am_share").Value; got != 0.5 || e.Sim().Now() != 0 {
		t.Errorf("a rejected action moved the run: max_am_share %v, time %v", got, e.Sim().Now())
	}
	if _, err := e.ResetInto(1, make([]float32, 3)); err == nil {
		t.Error("ResetInto accepted a short buffer")
	}
	if _, _, _, _, err := e.StepInto([]float64{0, 0}, make([]float32, 3)); err == nil {
		t.Error("StepInto accepted a short buffer")
	}
}

func TestTruncation(t *testing.T) {
	t.Run("max steps", func(t *testing.T) {
		e := mustNew(t, Config{Scenario: "quick", MaxSteps: 2})
		_, steps := episode(t, e, 1, 10, noAction)
		if len(steps) != 2 || !steps[1].trunc || steps[1].term {
			t.Fatalf("%d steps, last flags term %v trunc %v; want 2 steps, truncated", len(steps), steps[1].term, steps[1].trunc)
		}
		if _, _, _, _, _, err := e.Step(nil); err == nil || !strings.Contains(err.Error(), "Reset") {
			t.Errorf("step after the end: %v", err)
		}
	})
	t.Run("scenario max time", func(t *testing.T) {
		e := mustNew(t, Config{Scenario: "quick", Sets: []string{"run.max_s=100"}})
		_, steps := episode(t, e, 1, 10, noAction)
		last := steps[len(steps)-1]
		if len(steps) != 2 || !last.trunc || last.term || last.info.SimTimeS != 100 {
			t.Fatalf("%d steps, term %v trunc %v at %v s; want truncated at 100 s in step 2", len(steps), last.term, last.trunc, last.info.SimTimeS)
		}
	})
	t.Run("horizon", func(t *testing.T) {
		e := mustNew(t, Config{Scenario: "quick", HorizonS: 90})
		_, steps := episode(t, e, 1, 10, noAction)
		last := steps[len(steps)-1]
		if len(steps) != 2 || !last.trunc || last.term || last.info.SimTimeS != 90 || steps[0].info.SimTimeS != 60 {
			t.Fatalf("%d steps, term %v trunc %v at %v s; want truncated at the 90 s horizon in step 2", len(steps), last.term, last.trunc, last.info.SimTimeS)
		}
	})
	t.Run("ends on the last step", func(t *testing.T) {
		// quick ends in step 4: MaxSteps 4 reports termination, not both.
		e := mustNew(t, Config{Scenario: "quick", MaxSteps: 4})
		_, steps := episode(t, e, 1, 10, noAction)
		if last := steps[len(steps)-1]; len(steps) != 4 || !last.term || last.trunc {
			t.Fatalf("%d steps, term %v trunc %v; want 4, terminated only", len(steps), last.term, last.trunc)
		}
	})
}

func TestConfigDefaults(t *testing.T) {
	e := mustNew(t, Config{Scenario: "quick"})
	c := e.Config()
	if c.ControlIntervalS != 60 || len(c.Reward) != 1 || c.Reward["slowdown"] != 1 {
		t.Errorf("defaults %+v", c)
	}
	if len(Objectives()) != 6 {
		t.Errorf("objectives %v", Objectives())
	}
	var in Info
	in.Wasted = -2
	in.EpisodeWastedS = 3
	if v, ok := in.Objective("wasted"); !ok || v != -2 {
		t.Errorf("Objective(wasted) = %v, %v", v, ok)
	}
	if v, ok := in.Episode("wasted"); !ok || v != 3 {
		t.Errorf("Episode(wasted) = %v, %v", v, ok)
	}
	if _, ok := in.Objective("nope"); ok {
		t.Error("Objective(nope) found")
	}
	for _, o := range Objectives() {
		safe, ok := StallSafe(o)
		if !ok || safe != (o != "kills" && o != "wasted") {
			t.Errorf("StallSafe(%s) = %v, %v", o, safe, ok)
		}
	}
}

// TestStepReconsidersWaitingJobs: an action that raises the
// CapacityScheduler's AM limit lets the jobs waiting on it start within the
// next interval, as YARN's queue refresh activates them
// (LeafQueue.reinitialize), though the limit is otherwise checked only when
// jobs arrive and leave.
func TestStepReconsidersWaitingJobs(t *testing.T) {
	e := mustNew(t, Config{Scenario: "autoadmin-66", Policy: "capacity", Controlled: []string{"max_am_percent"}, ControlIntervalS: 5})
	if _, _, err := e.Reset(1); err != nil {
		t.Fatal(err)
	}
	// max_am_percent over [-1, 1]: 0.02 of the cluster first, then no limit.
	if _, _, _, _, _, err := e.Step([]float64{0.02}); err != nil {
		t.Fatal(err)
	}
	before := len(e.Sim().Waiting())
	if before == 0 {
		t.Fatal("no job waits on a 2 % AM limit after 5 s")
	}
	if _, _, _, _, _, err := e.Step([]float64{-1}); err != nil {
		t.Fatal(err)
	}
	if after := len(e.Sim().Waiting()); after != 0 {
		t.Errorf("%d of %d jobs still wait 5 s after the AM limit was switched off", after, before)
	}
}
