package workload

import (
	"math"
	"testing"

	"yarngym/env/sim"
)

// TestDRESSSparkJobs: a Spark job is what DRESS's YARN layer sees, one
// container per task, at most the job's executor count at once; its tasks
// run around partition_s, and cutting the work into tasks keeps the total
// (within rounding) of the executors it replaces.
// Reference: DRESS Sec. II-B, Fig. 4 (tasks of ~13 s, the trailing one
// 17.6 s); Sec. V-B1 (small jobs: fewer than 10 containers).
func TestDRESSSparkJobs(t *testing.T) {
	o := dressDefaults()
	jobs, err := generateDRESS(o, sim.NewRand(1))
	if err != nil {
		t.Fatal(err)
	}
	for id, j := range jobs {
		st := j.Stages[0]
		if j.Framework != "spark" || st.Kind != sim.KindExecutor || len(j.Stages) != 1 {
			t.Fatalf("job %d: %s with %d stages of %v, want one Spark task stage", id+1, j.Framework, len(j.Stages), st.Kind)
		}
		lo, hi := o.LargeMin, o.LargeMax
		if contains(dressSmallSpark, id+1) {
			lo, hi = o.SmallMin, o.SmallMax
		}
		if st.MaxRunning < lo || st.MaxRunning > hi {
			t.Errorf("job %d: %d executors, want %d-%d", id+1, st.MaxRunning, lo, hi)
		}
		total := 0.0
		for _, d := range st.DurationsMs {
			total += float64(d)
		}
		meanS := total / float64(len(st.DurationsMs)) / 1000
		if meanS < 0.8*o.PartitionS || meanS > 1.4*o.PartitionS {
			t.Errorf("job %d: tasks average %.1f s, want around partition_s %v", id+1, meanS, o.PartitionS)
		}
		// Per executor, about executor_s of work (log-normal, sigma 0.3).
		perExec := total / 1000 / float64(st.MaxRunning)
		if math.Abs(math.Log(perExec/o.ExecutorS)) > 4*o.Sigma {
			t.Errorf("job %d: %.0f s of work per executor, want around %v", id+1, perExec, o.ExecutorS)
		}
	}
}

func contains(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}
