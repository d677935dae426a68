package env

import (
	"math"
	"slices"
	"testing"

	"yarngym/env/sim"
)

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
		slow += c / IsolatedMs(s.Jobs[r.ID].Spec, s.Jobs[r.ID].Spec.StartupMs(s.Model()), s.Capacity())
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
