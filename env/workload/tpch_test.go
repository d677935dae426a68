package workload

import (
	"reflect"
	"strings"
	"testing"

	"yarngym/env/sim"
)

// TestTPCHShape: Decima's default mix (10 jobs at time 0, 100 streamed),
// each job scans then joins and aggregates (stages after the first wait for
// the one before), sizes and queries as drawn, and larger inputs make more
// scan tasks; the same seed gives the same jobs, another seed others.
func TestTPCHShape(t *testing.T) {
	g, ok := Lookup("tpch")
	if !ok {
		t.Fatal(`generator "tpch" is not registered`)
	}
	jobs, err := g.Generate(g.Options(), sim.NewRand(1))
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 110 {
		t.Fatalf("%d jobs, want 10 + 100", len(jobs))
	}
	scans := map[string]int{} // query-size -> scan tasks
	for i, j := range jobs {
		if (i < 10) != (j.SubmitMs == 0) || (i > 0 && j.SubmitMs < jobs[i-1].SubmitMs) {
			t.Fatalf("job %d submitted at %d ms", i, j.SubmitMs)
		}
		if !j.AM.IsZero() || len(j.Stages) < 2 || j.Stages[0].Name != "scan" || j.Stages[len(j.Stages)-1].Name[:9] != "aggregate" {
			t.Fatalf("job %s: %d stages, AM %v", j.Name, len(j.Stages), j.AM)
		}
		for k, st := range j.Stages {
			if st.NumTasks() == 0 || (k > 0) != (st.SlowStart == 1) || st.Req != (sim.Res{VCores: 1, MemMB: 1024}) {
				t.Fatalf("job %s stage %s: %d tasks, slow-start %v", j.Name, st.Name, st.NumTasks(), st.SlowStart)
			}
		}
		parts := strings.Split(j.Name, "-") // tpch-i-qQ-Sg
		scans[parts[2]+"-"+parts[3]] = j.Stages[0].NumTasks()
	}
	if scans["q1-100g"] != 0 && scans["q1-2g"] != 0 && scans["q1-100g"] <= scans["q1-2g"] {
		t.Errorf("q1 scans %d tasks at 100 GB, %d at 2 GB", scans["q1-100g"], scans["q1-2g"])
	}
	again, _ := g.Generate(g.Options(), sim.NewRand(1))
	other, _ := g.Generate(g.Options(), sim.NewRand(2))
	if !reflect.DeepEqual(jobs, again) || reflect.DeepEqual(jobs, other) {
		t.Error("the same seed must give the same jobs, another seed others")
	}
	// Query 1 at 128 GB reads lineitem only: 0.70 x 128 GB in 128 MB splits.
	o := TPCHDefaults()
	o.InitialJobs, o.StreamJobs, o.SizesGB = 1, 0, []float64{128}
	for seed := uint64(1); seed < 200; seed++ {
		js, err := genTPCH(o, sim.NewRand(seed))
		if err != nil {
			t.Fatal(err)
		}
		if js[0].App == "tpch-q1" {
			if n := js[0].Stages[0].NumTasks(); n != 717 || len(js[0].Stages) != 2 || js[0].Stages[1].NumTasks() != 200 {
				t.Fatalf("q1 at 128 GB: %d scan tasks, %d stages", n, len(js[0].Stages))
			}
			return
		}
	}
	t.Fatal("no seed drew query 1")
}

func TestTPCHOptionErrors(t *testing.T) {
	for _, c := range []struct {
		key string
		set func(o *TPCHOptions)
	}{
		{"initial_jobs, stream_jobs:", func(o *TPCHOptions) { o.InitialJobs, o.StreamJobs = 0, 0 }},
		{"sizes_gb:", func(o *TPCHOptions) { o.SizesGB = nil }},
		{"sizes_gb:", func(o *TPCHOptions) { o.SizesGB = []float64{-1} }},
		{"interval_s:", func(o *TPCHOptions) { o.IntervalS = 0 }},
		{"shuffle_partitions:", func(o *TPCHOptions) { o.ShufflePartitions = 0 }},
		{"sigma:", func(o *TPCHOptions) { o.Sigma = -1 }},
		{"task_vcores, task_mem_mb:", func(o *TPCHOptions) { o.TaskMemMB = 0 }},
	} {
		o := TPCHDefaults()
		c.set(o)
		_, err := genTPCH(o, sim.NewRand(1))
		if err == nil || !strings.HasPrefix(err.Error(), c.key) {
			t.Errorf("%s: got %v", c.key, err)
		}
	}
}
