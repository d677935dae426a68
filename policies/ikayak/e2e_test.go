package ikayak_test

import (
	"encoding/json"
	"testing"

	"yarngym/internal/simtest"
	"yarngym/policies/ikayak"
	"yarngym/runner"
)

func runScenario(t *testing.T, scen, policy string, sets []string, check bool) *runner.Result {
	t.Helper()
	return runSeed(t, 5, scen, policy, sets, check)
}

// runSeed runs scen under policy at seed and fails unless every job
// completes; with check, the invariants are checked after every event.
func runSeed(t *testing.T, seed uint64, scen, policy string, sets []string, check bool) *runner.Result {
	t.Helper()
	o := runner.Options{Scenario: scen, Policy: policy, Sets: sets, Seed: &seed}
	if check {
		o.AfterEvent = simtest.Invariants(t)
	}
	r, err := runner.Run(o)
	if err != nil {
		t.Fatal(err)
	}
	if r.Summary.JobsCompleted != len(r.Sim.Jobs) {
		t.Fatalf("%s / %s: %d of %d jobs completed: %+v", scen, policy, r.Summary.JobsCompleted, len(r.Sim.Jobs), r.Summary)
	}
	return r
}

func state(r *runner.Result) map[string]float64 {
	out := map[string]float64{}
	for _, v := range r.Sim.Policy().State {
		out[v.Name] = v.Get()
	}
	return out
}

// TestEndToEnd: the iKayak scenario (scaled down) completes every job under
// iKayak and its baselines with the conservation invariants checked after
// every event; iKayak's mechanisms all act (executors placed, reducers
// suspended, lambda and predictor error exposed).
// Reference: iKayak Sec. 4-5.
func TestEndToEnd(t *testing.T) {
	small := []string{"workload.options.mr_jobs=12", "workload.options.spark_jobs=12"}
	r := runScenario(t, "ikayak", "ikayak", small, true)
	st := state(r)
	if r.Summary.Suspended == 0 || st["executor_wait_s"] <= 0 {
		t.Fatalf("iKayak did not suspend (%d) or place executors (%v)", r.Summary.Suspended, st)
	}
	for _, k := range []string{"lambda", "suspended_reducers", "suspend_s", "predictor_nrmse", "predictor_rate_error", "shrink_mu", "maps_shrunk"} {
		if _, ok := st[k]; !ok {
			t.Fatalf("state %q not exposed: %v", k, st)
		}
	}
	if st["predictor_nrmse"] <= 0 || st["predictor_rate_error"] <= 0 {
		t.Fatalf("predictor scored nothing: %v", st)
	}
	for _, pc := range []struct {
		policy string
		sets   []string
	}{{"spreadout", nil}, {"nonspreadout", nil}, {"yarn-client", []string{"workload.options.spark_mode=client"}}, {"capacity", nil}} {
		runScenario(t, "ikayak", pc.policy, append(append([]string(nil), small...), pc.sets...), true)
	}
}

// TestPredictorScenario: on the Fig. 9 workload (scaled down to 400 maps a
// job) the predictor scores every reducer, and the second round's remaining
// times come out within an NRMSE of 0.3, averaged over seeds 1-8 (the
// full-size reproduction is in benchmarks/repro/ikayak). One seed's few
// reducers vary: measured 0.18-0.40 per seed, 0.265 on average.
// Reference: iKayak Sec. 5.3, Fig. 9(a).
func TestPredictorScenario(t *testing.T) {
	var sets []string
	for i := 0; i < 3; i++ {
		sets = append(sets, "workload.jobs."+string(rune('0'+i))+".stages.0.tasks=400")
	}
	sum, n := 0.0, 0
	for seed := uint64(1); seed <= 8; seed++ {
		r := runSeed(t, seed, "ikayak-predict", "ikayak", sets, true)
		var p *ikayak.Predictor
		for _, c := range r.Sim.Policy().Controls {
			if q, ok := c.(*ikayak.Predictor); ok {
				p = q
			}
		}
		if len(p.Scores) != 6*12 {
			t.Fatalf("seed %d: %d reducers scored, want 72", seed, len(p.Scores))
		}
		k := 0
		for _, sc := range p.Scores {
			if sc.Job >= 3 {
				sum += sc.NRMSE
				n++
				k++
			}
		}
		if k != 36 {
			t.Fatalf("seed %d: %d second-round reducers scored, want 36", seed, k)
		}
	}
	if sum/float64(n) > 0.3 {
		t.Fatalf("mean NRMSE %.3f over %d second-round reducers of seeds 1-8", sum/float64(n), n)
	}
}

// TestDeterministic: the same seed gives the same bytes.
func TestDeterministic(t *testing.T) {
	small := []string{"workload.options.mr_jobs=10", "workload.options.spark_jobs=10"}
	a, _ := json.Marshal(runScenario(t, "ikayak", "ikayak", small, false).JSON())
	b, _ := json.Marshal(runScenario(t, "ikayak", "ikayak", small, false).JSON())
	if string(a) != string(b) {
		t.Fatalf("two runs differ:\n%s\n%s", a, b)
	}
}

// TestSuspendWhileAJobEnds: suspending a reducer brings its node up to the
// control cycle's time, which can finish a task and with it a job, taking
// that job out of the active list the suspender is walking. Seed 1008 with
// v = 1.65625 and theta = 0.125 did so (a nil job, found by the iKayak-v0
// grid once control cycles start at a seeded phase); the run completes
// with the invariants checked after every event.
func TestSuspendWhileAJobEnds(t *testing.T) {
	r := runSeed(t, 1008, "ikayak", "ikayak", []string{"suspend_v=1.65625", "suspend_theta=0.125"}, true)
	if r.Summary.Suspended == 0 {
		t.Fatalf("no suspensions: %+v", r.Summary)
	}
}

// TestPlacementRespectsMaxRunning: DRESS's Spark-on-YARN jobs run one task
// per container with at most their executor count held at once (a stage's
// MaxRunning). When the placer decided that the executor at the head goes on
// the heartbeating node, it went on to place the application's other
// executors elsewhere, which could take the stage's last free container;
// the base loop then launched the head executor past MaxRunning, a request
// the AM had not made ("task is not requested yet", an engine panic, on
// every seed). Every job now completes under iKayak and both baselines.
func TestPlacementRespectsMaxRunning(t *testing.T) {
	for _, scen := range []string{"dress-spark", "dress-mixed"} {
		for _, policy := range []string{"ikayak", "spreadout", "nonspreadout"} {
			runScenario(t, scen, policy, nil, true)
		}
	}
}

// TestSuspendWaitsForTheAM: a reducer's container is granted some time
// before its AM gives it the reducer (at the AM's next heartbeat); iKayak
// must not suspend it in between. On the full Sec. 4.3 mix with suspension
// alone (seed 1) that happened to the last-granted reducer of job 156: the
// AM, which takes only running reducers from the containers granted,
// counted one reducer as still scheduled, never asked for its seventh,
// and the job waited until the stall detector ended the run.
// Reference: iKayak Sec. 3.2 (suspension of reduce tasks idling for map
// outputs); Hadoop's RMContainerAllocator assigns granted containers at
// its heartbeat.
func TestSuspendWaitsForTheAM(t *testing.T) {
	r := runSeed(t, 1, "ikayak", "ikayak", []string{"placement=0", "shrink=0"}, true)
	if r.Summary.Suspended == 0 {
		t.Fatal("no reducer was suspended")
	}
}
