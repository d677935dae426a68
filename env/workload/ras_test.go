package workload

import (
	"math"
	"testing"

	"yarngym/env/sim"
)

// TestRASWorkload checks the Gridmix workload of RAS: Table 1's jobs with
// Table 2's absolute per-task profiles, Hadoop 1 jobs (no AM, reducers in
// reduce slots: no vCores, no memory request), maps of one 64 MB block, one
// map length per application and reduce phases that scale with the data
// (Sec. 3.6), fitted to Table 1's lengths in isolation.
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
	if n := j1.Stages[0].NumTasks(); n != 1440 {
		t.Fatalf("J1 (90 GB) has %d maps, want 1440 of 64 MB", n)
	}
	if n := j1.Stages[1].NumTasks(); n != 20 {
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
	// Sec. 3.6: one map length per application, whatever the instance's
	// input (Select: J3 10 GB, J4 25 GB, J5 5 GB), fitted to the summed
	// lengths in isolation of Table 1 at 2 map slots per node (40 slots, no
	// contention: 2 x 45 % I/O is the most): Select (400+280+50) x 0.95 over
	// 4+10+2 waves, Combine (500+750+2500) x 0.95 over 2+6+20, Sort
	// (2500+350+250) x (1 - 0.64) over 36+8+3.
	flat := *o
	flat.Sigma = 0
	jobs0, err := generateRAS(&flat, sim.NewRand(1))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		app   string
		idx   []int
		wantS float64
	}{
		{"select", []int{2, 3, 4}, 730 * 0.95 / 16},
		{"combine", []int{1, 5, 6}, 3750 * 0.95 / 28},
		{"sort", []int{0, 7, 8}, 3100 * (1 - 0.64) / 47},
	} {
		for _, k := range c.idx {
			for _, d := range jobs0[k].Stages[0].Durations() {
				if math.Abs(float64(d)/1000-c.wantS) > 0.001 {
					t.Fatalf("%s: a map of %s takes %.3f s, want the application's %.3f s", c.app, jobs0[k].Name, float64(d)/1000, c.wantS)
				}
			}
		}
	}
	// Reduce time scales linearly with the data a reducer processes
	// (Combine J7 50 GB against J2 5 GB, one reducer each), and as n log n
	// for Sort, whose reduce is the identity (J1 90 GB against J9 6 GB, 20
	// reducers each).
	red := func(k int) float64 { return float64(jobs0[k].Stages[1].DurationMs(0)) }
	if got := red(6) / red(1); math.Abs(got-10) > 1e-3 {
		t.Fatalf("Combine reducer J7/J2 = %.4f, want 10 (linear in 50 GB / 5 GB)", got)
	}
	mb1, mb9 := 90*1024.0/20, 6*1024.0/20
	if got, want := red(0)/red(8), mb1*math.Log2(mb1)/(mb9*math.Log2(mb9)); math.Abs(got-want)/want > 1e-4 {
		t.Fatalf("Sort reducer J1/J9 = %.4f, want %.4f (n log n)", got, want)
	}
	// The summed reduce phases of Combine are its reduce share (5 %) of
	// the summed lengths in isolation.
	sumRed := (red(1) + red(5) + red(6)) / 1000 * (1 - rasShuffleFrac)
	if math.Abs(sumRed-3750*0.05) > 0.01 {
		t.Fatalf("Combine reduce phases sum to %.2f s, want %.2f", sumRed, 3750*0.05)
	}
	// The work fits the paper's makespans: per node, CPU and disk seconds
	// below the ~4,600 s the whole workload takes.
	var cpu, io float64
	for _, j := range jobs {
		for _, st := range j.Stages {
			for _, d := range st.Durations() {
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
	// task_lengths = "instance": each job sized alone on Table 1 (Select
	// J3: 400 s x 0.95 over 4 waves; J4: 280 s x 0.95 over 10 waves).
	inst := flat
	inst.TaskLengths = "instance"
	jobsI, err := generateRAS(&inst, sim.NewRand(1))
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[int]float64{2: 400 * 0.95 / 4, 3: 280 * 0.95 / 10} {
		if got := float64(jobsI[k].Stages[0].DurationMs(0)) / 1000; math.Abs(got-want) > 0.001 {
			t.Fatalf("instance lengths: %s map %.3f s, want %.3f", jobsI[k].Name, got, want)
		}
	}
	// Sort's reduce phases add up to SortReduceShare of its instances'
	// summed lengths in isolation (Sec. 4.2: J1 spends most of its time in
	// its reduce phase).
	sortRed := (red(0) + red(7) + red(8)) / 1000 * (1 - rasShuffleFrac)
	if math.Abs(sortRed-3100*0.64) > 0.01 {
		t.Fatalf("Sort reduce phases sum to %.2f s, want %.2f", sortRed, 3100*0.64)
	}
	for _, b := range []func(*RASOptions){
		func(b *RASOptions) { b.TaskLengths = "job" },
		func(b *RASOptions) { b.SortReduceShare = 1 },
	} {
		bad := *o
		b(&bad)
		if _, err := generateRAS(&bad, sim.NewRand(1)); err == nil {
			t.Fatalf("bad options accepted: %+v", bad)
		}
	}
	if _, err := generateRAS(&RASOptions{Goals: "soon", TaskLengths: "application", SortReduceShare: 0.5}, sim.NewRand(1)); err == nil {
		t.Fatal("bad goals accepted")
	}
}

// TestLognormalMaxFactor: the expected slowest of n log-normal lengths over
// the median. One draw: the log-normal mean exp(sigma^2/2); 20 draws at
// sigma 0.15 (Sort's reducers): exp(0.15 x 1.87) roughly (1.87 is the
// expected largest of 20 standard normals); no spread: 1.
func TestLognormalMaxFactor(t *testing.T) {
	if got, want := lognormalMaxFactor(1, 0.15), math.Exp(0.15*0.15/2); math.Abs(got-want) > 1e-6 {
		t.Fatalf("n=1: %.6f, want %.6f", got, want)
	}
	if got := lognormalMaxFactor(20, 0.15); got < 1.31 || got > 1.35 {
		t.Fatalf("n=20, sigma 0.15: %.4f, want ~1.33", got)
	}
	if got := lognormalMaxFactor(20, 0); got != 1 {
		t.Fatalf("sigma 0: %v, want 1", got)
	}
}
