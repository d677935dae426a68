package sim_test

import (
	"math"
	"testing"

	"yarngym/env/sim"
)

// TestCPUConsumedFollowsProgress: the CPU a task consumes is its CPU work,
// whatever slows it. A task held back by its disk, by swap or by a smaller
// sort buffer leaves its CPU share idle while it waits (iowait, which a
// machine's CPU utilisation does not count: iKayak Sec. 5.1, Fig. 7(c)), so
// the cluster's consumed CPU integrates to the sum of each task's demand
// times its nominal duration; only CPU contention caps it (at the cores).
func TestCPUConsumedFollowsProgress(t *testing.T) {
	ioTasks := func(n int, cpu, io float64) sim.JobSpec { return job("io", 0, n, res(1, 512), 10, flat(cpu, 100, io)) }
	memTasks := func(n int, cpu, mem float64) sim.JobSpec { return job("mem", 0, n, res(1, 512), 10, flat(cpu, mem, 0)) }
	cases := []struct {
		name  string
		node  sim.NodeSpec
		jobs  []sim.JobSpec
		model sim.Model
		// wantCoreS is the CPU consumed over the run, in core-seconds;
		// oldCoreS what counting the demand of a waiting task gives.
		wantCoreS, oldCoreS float64
	}{
		{"disk-bound: 2 x (1 core, 60 MB/s) on a 60 MB/s disk run at 1/2 for 20 s", diskNode(4, 60),
			[]sim.JobSpec{ioTasks(2, 1, 60)}, sim.Model{DiskThrashExponent: sim.NoDiskThrash}, 20, 40},
		{"disk-bound with thrashing: (1/2)^1.4 for 26.4 s", diskNode(4, 60),
			[]sim.JobSpec{ioTasks(2, 1, 60)}, sim.Model{DiskThrashExponent: 0.4}, 20, 20 * math.Pow(2, 1.4)},
		{"CPU-bound: 2 x 1 core on 1 core, the disk not full: capped at the core", diskNode(1, 60),
			[]sim.JobSpec{ioTasks(2, 1, 20)}, sim.Model{}, 20, 20},
		{"CPU the scarcer share: 2 x (1 core, 40 MB/s) on 1 core, 60 MB/s", diskNode(1, 60),
			[]sim.JobSpec{ioTasks(2, 1, 40)}, sim.Model{}, 20, 20},
		{"a CPU task beside two disk-bound ones", diskNode(4, 60),
			[]sim.JobSpec{ioTasks(2, 0.5, 60), job("cpu", 0, 1, res(1, 512), 10, flat(1, 100, 0))}, sim.Model{DiskThrashExponent: sim.NoDiskThrash}, 20, 30},
		{"swapping: 2 x (1 core, 6 GB) on 8 GB", sim.NodeSpec{Name: "n", Cap: res(8, 8192), Cores: 4, Speed: 1},
			[]sim.JobSpec{memTasks(2, 1, 6144)}, sim.Model{SwapExponent: 1}, 20, 20 * 12288.0 / 8192},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := c.model
			m.HeartbeatMs, m.UsageSampleMs = 1, 1000000
			s := run(t, sim.Config{Nodes: []sim.NodeSpec{c.node}, Jobs: c.jobs, Model: m})
			got := s.UsedVCoreMs() / 1000
			// Boundaries are rounded up to whole ms.
			if math.Abs(got-c.wantCoreS) > 0.01 {
				t.Fatalf("consumed %.4f core-s, want %.4f (counting a waiting task's demand: %.4f)", got, c.wantCoreS, c.oldCoreS)
			}
		})
	}
}
