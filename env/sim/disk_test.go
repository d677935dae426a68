package sim_test

import (
	"math"
	"testing"

	"yarngym/env/sim"
)

// diskNode is a node with plenty of vCores and memory, cores physical cores
// and a disk of diskMBps.
func diskNode(cores, diskMBps float64) sim.NodeSpec {
	return sim.NodeSpec{Name: "n", Cap: res(8, 8192), Cores: cores, DiskMBps: diskMBps, Speed: 1}
}

// TestDiskThrash checks the disk's lost throughput under overcommit against
// finish times computed by hand: with IO demand D over capacity C each IO
// phase runs at (C/D)^(1+a), a = Model.DiskThrashExponent.
// Reference: RAS Sec. 4.2 (co-located I/O-bound tasks under the Fair
// Scheduler leave the CPU waiting on I/O); the exponent is the model's
// assumption (sim.DefaultDiskThrashExponent).
func TestDiskThrash(t *testing.T) {
	ioTasks := func(n int, io float64) sim.JobSpec { return job("io", 0, n, res(1, 512), 10, flat(0.1, 100, io)) }
	cpuTasks := func(n int, cpu float64) sim.JobSpec { return job("cpu", 0, n, res(1, 512), 10, flat(cpu, 100, 0)) }
	cases := []struct {
		name string
		node sim.NodeSpec
		jobs []sim.JobSpec
		a    float64 // Model.DiskThrashExponent as set
		want []float64
	}{
		{"a=0: 2 x 60 MB/s on 60 MB/s share it ideally, 1/2 each", diskNode(4, 60),
			[]sim.JobSpec{ioTasks(2, 60)}, sim.NoDiskThrash, []float64{20, 20}},
		{"a=0: 3 x 40 MB/s on 60 MB/s, 1/2 each", diskNode(4, 60),
			[]sim.JobSpec{ioTasks(3, 40)}, sim.NoDiskThrash, []float64{20, 20, 20}},
		{"a=0.4: 2 x 60 MB/s on 60 MB/s, (1/2)^1.4 each", diskNode(4, 60),
			[]sim.JobSpec{ioTasks(2, 60)}, 0.4, []float64{10 * math.Pow(2, 1.4), 10 * math.Pow(2, 1.4)}},
		{"default (unset) is a=0.4", diskNode(4, 60),
			[]sim.JobSpec{ioTasks(2, 60)}, 0, []float64{10 * math.Pow(2, 1.4), 10 * math.Pow(2, 1.4)}},
		{"a=1: 3 x 60 MB/s on 60 MB/s, (1/3)^2 each", diskNode(4, 60),
			[]sim.JobSpec{ioTasks(3, 60)}, 1, []float64{90, 90, 90}},
		{"a=0.4, demand within capacity: no loss", diskNode(4, 60),
			[]sim.JobSpec{ioTasks(2, 30)}, 0.4, []float64{10, 10}},
		{"a=0.4, demand exactly at capacity: no loss", diskNode(4, 60),
			[]sim.JobSpec{ioTasks(2, 30), ioTasks(1, 0.0)}, 0.4, []float64{10, 10, 10}},
		{"a=0.4, CPU-only tasks on a disk node: processor sharing only", diskNode(1, 60),
			[]sim.JobSpec{cpuTasks(2, 1)}, 0.4, []float64{20, 20}},
		{"a=0.4, a CPU-only task beside an overcommitted disk is not slowed", diskNode(4, 60),
			[]sim.JobSpec{ioTasks(2, 60), cpuTasks(1, 1)}, 0.4, []float64{10 * math.Pow(2, 1.4), 10 * math.Pow(2, 1.4), 10}},
		{"a=0.4, CPU the scarcer share: 2 x (1 core, 40 MB/s) on 1 core, 60 MB/s", diskNode(1, 60),
			[]sim.JobSpec{job("mix", 0, 2, res(1, 512), 10, flat(1, 100, 40))}, 0.4, []float64{20, 20}},
		{"a=0.4, node without a disk figure (DiskMBps 0) is never disk-bound", diskNode(4, 0),
			[]sim.JobSpec{ioTasks(2, 60)}, 0.4, []float64{10, 10}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := sim.Model{HeartbeatMs: 1, UsageSampleMs: 1000000, DiskThrashExponent: c.a}
			s := run(t, sim.Config{Nodes: []sim.NodeSpec{c.node}, Jobs: c.jobs, Model: m})
			got := finishS(s)
			if len(got) != len(c.want) {
				t.Fatalf("finish times %v, want %v", got, c.want)
			}
			for i := range got {
				// Boundaries are rounded up to whole ms; heartbeats are 1 ms.
				if math.Abs(got[i]-c.want[i]) > 0.003 {
					t.Fatalf("finish times %v, want %v", got, c.want)
				}
			}
		})
	}
}

// TestDiskThrashSlowdown: two IO-bound tasks demanding twice the disk take
// 2^0.4 longer with a = 0.4 than with ideal sharing (a = 0), the disk
// delivering 2^-0.4 (76%) of its bandwidth.
// Reference: sim.DefaultDiskThrashExponent (two competing streams deliver
// ~75% of one stream's throughput: an assumption of the model).
func TestDiskThrashSlowdown(t *testing.T) {
	span := func(a float64) float64 {
		s := run(t, sim.Config{Nodes: []sim.NodeSpec{diskNode(4, 100)},
			Jobs:  []sim.JobSpec{job("io", 0, 2, res(1, 512), 30, flat(0.2, 100, 100))},
			Model: sim.Model{HeartbeatMs: 1, UsageSampleMs: 1000000, DiskThrashExponent: a}})
		return float64(s.Summary().MakespanMs) / 1000
	}
	ideal, thrash := span(sim.NoDiskThrash), span(0.4)
	if math.Abs(ideal-60) > 0.003 {
		t.Fatalf("a=0: makespan %v s, want 60 (processor sharing)", ideal)
	}
	if r := thrash / ideal; math.Abs(r-math.Pow(2, 0.4)) > 1e-4 {
		t.Fatalf("a=0.4 / a=0 makespan ratio %v, want 2^0.4 = %v", r, math.Pow(2, 0.4))
	}
}

// TestDiskThrashExponentResolves: zero takes the default, a negative value
// (NoDiskThrash) resolves to 0, a positive value is kept.
func TestDiskThrashExponentResolves(t *testing.T) {
	cases := []struct{ set, want float64 }{
		{0, sim.DefaultDiskThrashExponent},
		{sim.NoDiskThrash, 0},
		{-0.25, 0},
		{0.7, 0.7},
	}
	if sim.DefaultDiskThrashExponent != 0.4 || sim.DefaultModel.DiskThrashExponent != 0.4 {
		t.Fatalf("default %v, DefaultModel %v; want 0.4", sim.DefaultDiskThrashExponent, sim.DefaultModel.DiskThrashExponent)
	}
	for _, c := range cases {
		s, err := sim.New(sim.Config{Nodes: []sim.NodeSpec{diskNode(1, 60)}, Policy: fifoPolicy(t), Model: sim.Model{DiskThrashExponent: c.set}})
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Model().DiskThrashExponent; got != c.want {
			t.Errorf("DiskThrashExponent %v resolves to %v, want %v", c.set, got, c.want)
		}
	}
}
