package workload

import (
	"math"
	"strings"
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
		for _, d := range st.Durations() {
			total += float64(d)
		}
		meanS := total / float64(st.NumTasks()) / 1000
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

// TestDRESSMapReducePhases: a MapReduce job's maps (and its reduces) are a
// phase of similar tasks, their lengths close to the job's own median, while
// medians differ between jobs.
// Reference: DRESS Sec. III-A1 ("the task execution length in the same phase
// should be similar with each other"; Fig. 3: reduces of 18.25 s on average,
// variance 1.45 s; Fig. 2: a WordCount job of 20 maps); Sec. V-A2 (HiBench applications, "various sizes of
// datasets").
func TestDRESSMapReducePhases(t *testing.T) {
	o := dressDefaults()
	o.Framework = "mapreduce"
	jobs, err := generateDRESS(o, sim.NewRand(1))
	if err != nil {
		t.Fatal(err)
	}
	var medians []float64
	for id, j := range jobs {
		if j.Framework != "mapreduce" || len(j.Stages) != 2 || j.Stages[0].Kind != sim.KindMap || j.Stages[1].Kind != sim.KindReduce {
			t.Fatalf("job %d: %s with %d stages, want maps then reduces", id+1, j.Framework, len(j.Stages))
		}
		// A large job asks for mr_large_min-mr_large_max maps (several
		// waves of the 100-container cluster), a small one fewer than 10.
		lo, hi := o.MRLargeMin, o.MRLargeMax
		if contains(dressSmallMR, id+1) {
			lo, hi = o.SmallMin, o.SmallMax
		}
		if n := j.Stages[0].NumTasks(); n < lo || n > hi {
			t.Errorf("job %d: %d maps, want %d-%d", id+1, n, lo, hi)
		}
		for _, st := range j.Stages {
			if st.NumTasks() < 2 {
				continue
			}
			var logs []float64
			for _, d := range st.Durations() {
				logs = append(logs, math.Log(float64(d)))
			}
			m, sd := meanSD(logs)
			// 0.08 drawn over 2-30 tasks: the sample spread stays well below
			// 0.2 (the former per-task 0.3 gives ~0.3).
			if sd > 0.2 {
				t.Errorf("job %d %s: task lengths spread %.2f (log SD), want about task_sigma 0.08", id+1, st.Name, sd)
			}
			if st.Kind == sim.KindMap {
				medians = append(medians, m)
			}
		}
	}
	// Medians differ between jobs (sigma 0.3 over 20 jobs).
	if _, sd := meanSD(medians); sd < 0.15 || sd > 0.5 {
		t.Errorf("map medians spread %.2f (log SD) between jobs, want about sigma %v", sd, o.Sigma)
	}
}

func meanSD(xs []float64) (float64, float64) {
	m := 0.0
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	v := 0.0
	for _, x := range xs {
		v += (x - m) * (x - m)
	}
	return m, math.Sqrt(v / float64(len(xs)))
}

// TestDRESSSparkDriverStartup: a Spark job's driver takes
// spark_driver_startup_s before it asks for executors (the job's own AM
// start-up); a MapReduce job keeps the model's (0 here); a start-up that is
// not positive is refused, naming the key.
// Reference: DRESS Sec. V-B1 (job 3 waits 35.519 s under Capacity while
// jobs 1-6 run in parallel).
func TestDRESSSparkDriverStartup(t *testing.T) {
	o := dressDefaults()
	o.Framework = "mixed"
	jobs, err := generateDRESS(o, sim.NewRand(3))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, j := range jobs {
		want := sim.Ms(0)
		if j.Framework == "spark" {
			want = 31000
		}
		if j.AMStartupMs != want {
			t.Errorf("%s (%s): AM start-up %d ms, want %d", j.Name, j.Framework, j.AMStartupMs, want)
		}
		seen[j.Framework] = true
	}
	if !seen["spark"] || !seen["mapreduce"] {
		t.Fatalf("the mixed run drew frameworks %v, want both", seen)
	}
	o.SparkDriverStartupS = 0
	if _, err := generateDRESS(o, sim.NewRand(3)); err == nil || !strings.Contains(err.Error(), "spark_driver_startup_s") {
		t.Errorf("spark_driver_startup_s = 0: got %v, want an error naming the key", err)
	}
}
