package workload

import (
	"math"
	"testing"

	"yarngym/env/sim"
)

// TestRASWorkload checks the Gridmix workload of RAS: Table 1's jobs with
// Table 2's absolute per-task profiles, Hadoop 1 jobs (no AM, reducers in
// reduce slots: no vCores, no memory request), maps of one 64 MB block, and
// map durations calibrated so that a job alone with RefSlots map slots per
// node spends (1 - reduce share) of its Table 1 length in its map phase.
// Reference: RAS Sec. 4.1, Tables 1-2, Sec. 3.6.
func TestRASWorkload(t *testing.T) {
	o := rasDefaults()
	jobs, err := generateRAS(o, sim.NewRand(1))
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 9 {
		t.Fatalf("%d jobs, want 9", len(jobs))
	}
	j1 := jobs[0]
	if !j1.AM.IsZero() || j1.Stages[1].Req != (sim.Res{}) || j1.Stages[0].Req != (sim.Res{VCores: 1, MemMB: 1}) {
		t.Fatalf("J1: AM %v, map %v, reduce %v; want no AM, one map slot, a reduce slot only", j1.AM, j1.Stages[0].Req, j1.Stages[1].Req)
	}
	if n := len(j1.Stages[0].DurationsMs); n != 1440 {
		t.Fatalf("J1 (90 GB) has %d maps, want 1440 of 64 MB", n)
	}
	if n := len(j1.Stages[1].DurationsMs); n != 20 {
		t.Fatalf("J1 has %d reducers, want 20", n)
	}
	m := j1.Stages[0].Profile.Phases[0]
	if !j1.Stages[0].Profile.Absolute || m.CPU != 0.6 || m.IOMBps != 45 || m.Mem != 512 {
		t.Fatalf("Sort map %+v: want Table 2's 30 %% of 2 cores, 45 %% of 100 MB/s, 25 %% of 2 GB", m)
	}
	r := j1.Stages[1].Profile.Phases
	if r[0].Mem != 0 || r[0].CPU != 0 || math.Abs(r[0].IOMBps-0.75) > 1e-9 || r[1].Mem != 0.6*2048 {
		t.Fatalf("Sort reducer %+v: want a shuffle of 0.15 %% x 5 parallel copies of I/O only, a reduce of 60 %% memory", r)
	}
	// J7 (Combine, 50 GB: 800 maps, 2,500 s alone): at 2 map slots per node
	// (25 % CPU each: no contention) 20 waves of maps fill 95 % of 2,500 s.
	j7 := jobs[6]
	mean := 0.0
	for _, d := range j7.Stages[0].DurationsMs {
		mean += float64(d)
	}
	mean /= float64(len(j7.Stages[0].DurationsMs)) * 1000
	want := 2500 * 0.95 / 20
	if math.Abs(mean-want)/want > 0.05 {
		t.Fatalf("J7 mean map %.1f s, want about %.1f s", mean, want)
	}
	// The work fits the paper's makespans: per node, CPU and disk seconds
	// below the ~4,600 s the whole workload takes.
	var cpu, io float64
	for _, j := range jobs {
		for _, st := range j.Stages {
			for _, d := range st.DurationsMs {
				for _, ph := range st.Profile.Phases {
					cpu += ph.Frac * float64(d) / 1000 * ph.CPU / o.NodeCores
					io += ph.Frac * float64(d) / 1000 * ph.IOMBps / o.DiskMBps
				}
			}
		}
	}
	cpu /= float64(o.Nodes)
	io /= float64(o.Nodes)
	t.Logf("per node: %.0f CPU-s, %.0f disk-s", cpu, io)
	if cpu > 4000 || io > 4000 || cpu < 2500 || io < 2500 {
		t.Fatalf("per node %.0f CPU-s and %.0f disk-s: want 2,500-4,000 each", cpu, io)
	}
	if _, err := generateRAS(&RASOptions{Goals: "soon"}, sim.NewRand(1)); err == nil {
		t.Fatal("bad goals accepted")
	}
}
