package env

import (
	"math"
	"slices"
	"strings"
	"testing"

	"yarngym/env/sim"
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

// TestIsolated checks the isolated-time estimate on hand-made jobs.
func TestIsolated(t *testing.T) {
	cap := sim.Res{VCores: 10, MemMB: 10240}
	one := sim.Res{VCores: 1, MemMB: 1024}
	cases := []struct {
		name string
		j    sim.JobSpec
		want float64
	}{
		{"AM plus longest per stage", sim.JobSpec{AM: one, Stages: []sim.StageSpec{{Req: one, DurationsMs: []sim.Ms{30000, 50000}}, {Req: one, DurationsMs: []sim.Ms{10000}}}}, 62000},
		{"no AM", sim.JobSpec{Stages: []sim.StageSpec{{Req: one, DurationsMs: []sim.Ms{30000, 50000}}, {Req: one, DurationsMs: []sim.Ms{10000}}}}, 60000},
		{"one-second floor", sim.JobSpec{Stages: []sim.StageSpec{{Req: one, DurationsMs: []sim.Ms{0}}}}, 1000},
		// 40 tasks of 10 s on 10 vCores: 4 waves.
		{"waves", sim.JobSpec{Stages: []sim.StageSpec{{Req: one, DurationsMs: slices.Repeat([]sim.Ms{10000}, 40)}}}, 40000},
		// Memory is the dominant share: 5 GB of 10 GB, two at once.
		{"dominant share", sim.JobSpec{Stages: []sim.StageSpec{{Req: sim.Res{VCores: 1, MemMB: 5120}, DurationsMs: slices.Repeat([]sim.Ms{10000}, 4)}}}, 20000},
		{"max running", sim.JobSpec{Stages: []sim.StageSpec{{Req: one, MaxRunning: 2, DurationsMs: slices.Repeat([]sim.Ms{10000}, 4)}}}, 20000},
	}
	for _, c := range cases {
		if got := IsolatedMs(&c.j, 2000, cap); got != c.want {
			t.Errorf("%s: isolated %v ms, want %v", c.name, got, c.want)
		}
	}
}

// fromJobs recomputes an ended episode's objectives from the run's job
// records and summary, by their definitions (package doc, "Rewards"),
// without the ledger: each job submitted before the horizon H counts
// min(finish, H) - submit, an unfinished one H - submit.
func fromJobs(e *Env) (v [numObjectives]float64) {
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
		slow += c / IsolatedMs(s.Jobs[r.ID].Spec, s.Model().AMStartupMs, s.Capacity())
	}
	n = max(n, 1)
	sum := s.Summary()
	v[objSlowdown] = slow / n
	v[objCompletion] = comp / n
	v[objUtilization] = sum.VCoresUsedMean * float64(sum.EndMs) / (float64(s.Capacity().VCores) * float64(h))
	v[objKills] = float64(sum.TasksKilled) / n
	v[objWasted] = float64(sum.WastedMs) / 1000 / n
	v[objThroughput] = done / n
	return v
}

func relDiff(a, b float64) float64 {
	if a == b {
		return 0
	}
	return math.Abs(a-b) / math.Max(math.Abs(a), math.Abs(b))
}

// TestReturnIsObjective: the rewards of an episode add up to its weighted
// objectives recomputed from the job records, whether it ends by finishing,
// by a stall, by max_steps, by the horizon or by the scenario's run.max_s,
// and the episode values in the last Info are those objectives.
func TestReturnIsObjective(t *testing.T) {
	all := map[string]float64{"slowdown": 1, "completion": 0.01, "utilization": 2, "kills": 0.5, "wasted": 0.1, "throughput": 3}
	cases := []struct {
		name     string
		cfg      Config
		act      func(k int) []float64
		stuck    bool
		endState string // "term" or "trunc"
	}{
		{"quick", Config{Scenario: "quick"}, noAction, false, "term"},
		{"quick random actions", Config{Scenario: "quick", Controlled: []string{"max_am_share", "locality_delay"}, ControlIntervalS: 13},
			func(k int) []float64 {
				r := sim.NewRand(uint64(k))
				return []float64{2*r.Float64() - 1, 40 * r.Float64()}
			}, false, "term"},
		{"quick, all objectives", Config{Scenario: "quick", Reward: all, ControlIntervalS: 7}, noAction, false, "term"},
		{"max_steps before the end", Config{Scenario: "quick", MaxSteps: 2, Reward: map[string]float64{"completion": 1}}, noAction, false, "trunc"},
		{"horizon before the end", Config{Scenario: "quick", HorizonS: 100.5, Reward: all}, noAction, false, "trunc"},
		{"max_steps before a longer horizon", Config{Scenario: "quick", MaxSteps: 1, HorizonS: 1000}, noAction, false, "trunc"},
		{"run.max_s before the horizon", Config{Scenario: "quick", Sets: []string{"run.max_s=90"}, HorizonS: 500, Reward: all}, noAction, false, "trunc"},
		{"AM deadlock", Config{Scenario: "terasort-burst", Sets: []string{"max_am_share=0"}, ControlIntervalS: 120, Reward: all}, noAction, true, "term"},
		{"opera kills", Config{Scenario: "opera-spark", Policy: "opera", ControlIntervalS: 300, Reward: all}, noAction, false, "term"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := mustNew(t, c.cfg)
			_, steps := episode(t, e, 3, 100000, c.act)
			last := steps[len(steps)-1]
			if (c.endState == "term") != last.term || (c.endState == "trunc") != last.trunc {
				t.Fatalf("ended with terminated %v truncated %v, want %s", last.term, last.trunc, c.endState)
			}
			if stuck := last.info.JobsStuck > 0; stuck != c.stuck {
				t.Fatalf("%d jobs stuck, want stuck = %v", last.info.JobsStuck, c.stuck)
			}
			var ret float64
			for _, s := range steps {
				ret += s.reward
			}
			want := fromJobs(e)
			var objective float64
			for i, w := range e.weights {
				objective += w * objectives[i].sign * want[i]
			}
			if d := relDiff(ret, objective); d > 1e-9 || ret == 0 {
				t.Errorf("rewards add up to %v, the objective is %v (relative difference %.2g)", ret, objective, d)
			}
			if relDiff(last.info.Return, ret) > 1e-12 {
				t.Errorf("Info.Return %v, the rewards add up to %v", last.info.Return, ret)
			}
			for i, o := range objectives {
				got, _ := last.info.Episode(o.name)
				if relDiff(got, want[i]) > 1e-9 {
					t.Errorf("episode %s: %v, from the job records %v", o.name, got, want[i])
				}
			}
			if !last.info.Ended || last.info.HorizonS != float64(e.HorizonMs())/1000 {
				t.Errorf("last info: ended %v, horizon %v s", last.info.Ended, last.info.HorizonS)
			}
		})
	}
}

// TestStallIsWorst: a deadlocked cluster (no AM may start) returns less
// than the default on every objective a stall can be charged on, however
// the horizon falls.
func TestStallIsWorst(t *testing.T) {
	for _, obj := range []string{"slowdown", "completion", "utilization", "throughput"} {
		for _, h := range []float64{0, 400, 5000} {
			cfg := Config{Scenario: "terasort-burst", Reward: map[string]float64{obj: 1}, HorizonS: h}
			_, good := episode(t, mustNew(t, cfg), 1, 100000, noAction)
			cfg.Sets = []string{"max_am_share=0"}
			_, bad := episode(t, mustNew(t, cfg), 1, 100000, noAction)
			g, b := good[len(good)-1].info, bad[len(bad)-1].info
			// A horizon before the stall is detected (terasort-burst:
			// stall_s 600) truncates the deadlock instead.
			if b.JobsCompleted != 0 || (b.JobsStuck == 0) != (h == 400) || g.JobsStuck != 0 || g.JobsCompleted == 0 {
				t.Fatalf("%s, horizon %v: %d done and %d stuck with the deadlock, %d and %d without", obj, h, b.JobsCompleted, b.JobsStuck, g.JobsCompleted, g.JobsStuck)
			}
			if !(b.Return < g.Return) {
				t.Errorf("%s, horizon %v: the deadlock returns %v, the default %v", obj, h, b.Return, g.Return)
			}
		}
	}
}

func index(t *testing.T, names []string, name string) int {
	t.Helper()
	for i, n := range names {
		if n == name {
			return i
		}
	}
	t.Fatalf("no feature %q in %v", name, names)
	return -1
}

// TestObservations checks the space and, every step, that the observation
// lies in it and that features match the simulator's state.
func TestObservations(t *testing.T) {
	cases := []struct {
		name string
		cfg  Config
		act  []float64
		kill bool // the scenario kills tasks and swaps
	}{
		{"quick", Config{Scenario: "quick", ControlIntervalS: 15}, nil, false},
		{"autoadmin tuner", Config{Scenario: "autoadmin-66", Policy: "fair", Controlled: []string{"max_am_share", "locality_delay"}}, []float64{0.2, 3}, false},
		{"autoadmin state", Config{Scenario: "autoadmin-66", Policy: "autoadmin", Controlled: []string{"rrp_floor"}, Bounds: map[string][2]float64{"rrp_floor": {0.2, 0.6}}}, []float64{0.5}, false},
		{"dress-fig1 capacity", Config{Scenario: "dress-fig1", Policy: "capacity", ControlIntervalS: 5}, nil, false},
		{"opera kills", Config{Scenario: "opera-spark", Policy: "opera", ControlIntervalS: 600, Reward: map[string]float64{"slowdown": 1, "kills": 1, "wasted": 1}}, nil, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := mustNew(t, c.cfg)
			sp, names := e.ObservationSpace(), e.FeatureNames()
			if len(sp.Shape) != 1 || sp.Shape[0] != len(names) || len(sp.Low) != len(names) || len(sp.High) != len(names) || e.ObsDim() != len(names) {
				t.Fatalf("shape %v, %d names, %d/%d bounds", sp.Shape, len(names), len(sp.Low), len(sp.High))
			}
			if _, _, err := e.Reset(1); err != nil {
				t.Fatal(err)
			}
			if want := numBase + len(e.Sim().Policy().State) + len(c.cfg.Controlled); len(names) != want {
				t.Fatalf("%d features, want %d (base, policy state, controlled)", len(names), want)
			}
			for _, v := range e.Sim().Policy().State {
				if !slices.Contains(names, "policy."+v.Name) {
					t.Fatalf("policy state %s is not observed: %v", v.Name, names)
				}
			}
			for i := range sp.Low {
				// Bounded and scale-free: nothing beyond a few units.
				if !(sp.Low[i] <= sp.High[i]) || sp.Low[i] < -logCap || sp.High[i] > logCap {
					t.Fatalf("feature %s: bounds [%v, %v]", names[i], sp.Low[i], sp.High[i])
				}
			}
			obs, _, err := e.Reset(5)
			if err != nil {
				t.Fatal(err)
			}
			if !sp.Contains(obs) {
				t.Fatalf("reset observation %v outside the space", obs)
			}
			capV := float64(e.Sim().Capacity().VCores)
			var killed, wasted, maxSwap, maxPending float64
			for k := 0; ; k++ {
				obs, _, term, trunc, info, err := e.Step(c.act)
				if err != nil {
					t.Fatal(err)
				}
				if len(obs) != len(names) || !sp.Contains(obs) {
					t.Fatalf("step %d: observation %v outside the space", k, obs)
				}
				s := e.Sim()
				n := e.led.n
				g, o, used, _ := s.Totals()
				check := func(name string, want float64) {
					t.Helper()
					if got := obs[index(t, names, name)]; got != float32(want) {
						t.Errorf("step %d: %s = %v, want %v", k, name, got, float32(want))
					}
				}
				check("vcores_guaranteed", float64(g.VCores)/capV)
				check("vcores_opportunistic", min(float64(o.VCores)/capV, shareCap))
				check("cpu_used", math.Max(0, used/capV))
				check("jobs_running_frac", float64(len(s.Active()))/n)
				check("jobs_waiting_frac", float64(len(s.Waiting()))/n)
				check("jobs_done_frac", float64(info.JobsCompleted)/n)
				check("time_frac", float64(s.Now())/float64(e.HorizonMs()))
				var pending float64
				for _, j := range s.Active() {
					r, _ := s.PendingDemand(j)
					pending += float64(r.VCores)
				}
				var catSum float64
				for _, nm := range []string{"pending_am_log", "pending_map_log", "pending_reduce_log", "pending_executor_log", "pending_other_log"} {
					catSum += math.Expm1(float64(obs[index(t, names, nm)]))
				}
				if math.Abs(catSum-pending/capV) > 1e-5*(1+pending/capV) {
					t.Errorf("step %d: pending categories sum to %v, PendingDemand gives %v", k, catSum, pending/capV)
				}
				maxPending = math.Max(maxPending, catSum)
				killedNow := -info.Kills * n
				if got, want := obs[index(t, names, "kills_log")], float32(math.Log1p(killedNow/float64(len(s.Nodes)))); math.Abs(float64(got-want)) > 1e-5 {
					t.Errorf("step %d: kills_log %v, want %v", k, got, want)
				}
				killed += killedNow
				wasted -= info.Wasted * n
				maxSwap = math.Max(maxSwap, float64(obs[index(t, names, "swap_frac")]))
				for i, p := range c.cfg.Controlled {
					prm := s.Policy().Params.Get(p)
					lo, hi := prm.Min, prm.Max
					if b, ok := c.cfg.Bounds[p]; ok {
						lo, hi = b[0], b[1]
					}
					check("param."+p, (*prm.Value-lo)/(hi-lo))
					if want := e.clip(i, c.act[i]); *prm.Value != want {
						t.Errorf("param %s = %v, want %v", p, *prm.Value, want)
					}
				}
				if term || trunc {
					sum := s.Summary()
					if math.Abs(killed-float64(sum.TasksKilled)) > 1e-6 || math.Abs(wasted-float64(sum.WastedMs)/1000) > 1e-6 {
						t.Errorf("kills add up to %v (run: %d), wasted to %v s (run: %v s)", killed, sum.TasksKilled, wasted, float64(sum.WastedMs)/1000)
					}
					if c.kill && (killed == 0 || maxSwap == 0) {
						t.Errorf("expected kills and swapping, got %v kills, max swap_frac %v", killed, maxSwap)
					}
					if maxPending == 0 {
						t.Error("no step saw pending demand")
					}
					break
				}
			}
		})
	}
}

// TestStateScaling checks the policy state features against their declared
// ranges: AutoAdmin's R_R is a share of the cluster's vCores.
func TestStateScaling(t *testing.T) {
	e := mustNew(t, Config{Scenario: "autoadmin-66", Policy: "autoadmin", ControlIntervalS: 30})
	names := e.FeatureNames()
	if _, _, err := e.Reset(1); err != nil {
		t.Fatal(err)
	}
	i := index(t, names, "policy.rrp_reserved_vcores")
	seen := false
	for !e.Done() {
		obs, _, _, _, _, err := e.Step(nil)
		if err != nil {
			t.Fatal(err)
		}
		var rr float64
		for _, v := range e.Sim().Policy().State {
			if v.Name == "rrp_reserved_vcores" {
				rr = v.Get()
			}
		}
		if want := float32(rr / float64(e.Sim().Capacity().VCores)); obs[i] != want {
			t.Fatalf("rrp_reserved_vcores %v observed as %v, want %v", rr, obs[i], want)
		}
		seen = seen || rr > 0
	}
	if !seen {
		t.Fatal("R_R was never positive")
	}
	sc := newStateScale(sim.StateVar{Min: 0, Max: 100, Log: true, Per: sim.PerNode}, 1, 1, 4)
	if got := sc.scale(400); math.Abs(got-1) > 1e-12 {
		t.Errorf("log scale at Max: %v, want 1", got)
	}
	if got := sc.scale(0); got != 0 {
		t.Errorf("log scale at 0: %v", got)
	}
}

// TestUtilization checks that the per-step utilization terms add up to the
// run's mean actual CPU use over the horizon.
func TestUtilization(t *testing.T) {
	e := mustNew(t, Config{Scenario: "quick", ControlIntervalS: 7, Reward: map[string]float64{"utilization": 2}})
	_, steps := episode(t, e, 11, 1000, noAction)
	total := 0.0
	for _, s := range steps {
		total += s.info.Utilization
		if math.Abs(s.reward-2*s.info.Utilization) > 1e-15 {
			t.Errorf("reward %v, want 2 x utilization %v", s.reward, s.info.Utilization)
		}
	}
	sum := e.Sim().Summary()
	want := sum.VCoresUsedMean * float64(sum.EndMs) / (float64(e.Sim().Capacity().VCores) * float64(e.HorizonMs()))
	if math.Abs(total-want) > 1e-12 || want == 0 {
		t.Errorf("utilization adds up to %v, want %v", total, want)
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
