package sim_test

import (
	"math"
	"testing"

	"yarngym/env/sim"
)

// TestContention checks processor sharing, disk sharing, swapping, node
// speed and locality against completion times computed by hand.
func TestContention(t *testing.T) {
	node := func(vc int64, cores, disk, speed float64) sim.NodeSpec {
		return sim.NodeSpec{Name: "n", Cap: res(vc, 8192), Cores: cores, DiskMBps: disk, Speed: speed}
	}
	cases := []struct {
		name  string
		node  sim.NodeSpec
		jobs  []sim.JobSpec
		model sim.Model
		want  []float64 // finish times, s
	}{
		{"alone, no contention", node(4, 4, 0, 1),
			[]sim.JobSpec{job("a", 0, 1, res(1, 512), 10, flat(1, 100, 0))}, sim.Model{}, []float64{10}},
		{"two CPU-bound tasks on one core share it: each runs at 1/2", node(2, 1, 0, 1),
			[]sim.JobSpec{job("a", 0, 2, res(1, 512), 10, flat(1, 100, 0))}, sim.Model{}, []float64{20, 20}},
		{"demand 1.5 cores on 1 core: rate 2/3 until one ends", node(2, 1, 0, 1),
			[]sim.JobSpec{job("a", 0, 1, res(1, 512), 10, flat(1, 100, 0)), job("b", 0, 1, res(1, 512), 10, flat(0.5, 100, 0))},
			sim.Model{}, []float64{15, 15}},
		{"disk shared ideally (no thrash): 2 x 60 MB/s on 60 MB/s", node(4, 4, 60, 1),
			[]sim.JobSpec{job("a", 0, 2, res(1, 512), 10, flat(0.1, 100, 60))}, sim.Model{DiskThrashExponent: sim.NoDiskThrash}, []float64{20, 20}},
		{"half-speed node doubles time", node(4, 4, 0, 0.5),
			[]sim.JobSpec{job("a", 0, 1, res(1, 512), 10, flat(1, 100, 0))}, sim.Model{}, []float64{20}},
		{"memory overcommit 2x with exponent 2 slows to 1/4", node(4, 4, 0, 1),
			[]sim.JobSpec{job("a", 0, 2, res(1, 512), 10, flat(0.1, 8192, 0))}, sim.Model{SwapExponent: 2}, []float64{40, 40}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.model.HeartbeatMs = 1
			c.model.UsageSampleMs = 1000000
			s := run(t, sim.Config{Nodes: []sim.NodeSpec{c.node}, Jobs: c.jobs, Model: c.model})
			got := finishS(s)
			if len(got) != len(c.want) {
				t.Fatalf("finish times %v, want %v", got, c.want)
			}
			for i := range got {
				if math.Abs(got[i]-c.want[i]) > 0.002 {
					t.Fatalf("finish times %v, want %v", got, c.want)
				}
			}
		})
	}
}

func TestSwapIsReported(t *testing.T) {
	s := run(t, sim.Config{Nodes: []sim.NodeSpec{{Name: "n", Cap: res(4, 1000)}},
		Jobs:  []sim.JobSpec{job("a", 0, 2, res(1, 100), 10, flat(0.1, 1000, 0))},
		Model: sim.Model{HeartbeatMs: 1, SwapExponent: 1}})
	sum := s.Summary()
	// 2000 MB on 1000 MB: rate 1/2 for the whole run of 20 s.
	if sum.SwapMs != 20000 || sum.MakespanMs != 20000 {
		t.Fatalf("swap %d ms, makespan %d ms; want 20000 and 20000", sum.SwapMs, sum.MakespanMs)
	}
}

// TestLocality: a map whose block is on another rack reads at the off-rack
// factor during its read phase only.
func TestLocality(t *testing.T) {
	prof := &sim.Profile{Name: "m", Absolute: true, Phases: []sim.Phase{
		{Name: "read", Frac: 0.5, CPU: 0.1, Mem: 10, Read: true}, {Name: "compute", Frac: 0.5, CPU: 0.1, Mem: 10}}}
	j := job("a", 0, 1, res(1, 100), 10, prof)
	j.Stages[0].Kind = sim.KindMap
	j.Stages[0].BlockReplicas = 1
	// Two single-node racks; the one replica sits on one of them at random,
	// the task goes to whichever node heartbeats first.
	nodes := []sim.NodeSpec{{Name: "a", Rack: 0, Cap: res(1, 1000)}, {Name: "b", Rack: 1, Cap: res(1, 1000)}}
	for seed := uint64(1); seed < 20; seed++ {
		s := run(t, sim.Config{Nodes: nodes, Jobs: []sim.JobSpec{j}, Seed: seed, Model: sim.Model{HeartbeatMs: 1, OffRackReadFactor: 0.5}})
		tk := s.AllTasks()[0]
		want := 10.0
		if tk.Locality == sim.OffRack {
			want = 15 // 5 s of read at half speed, 5 s of compute
		}
		if got := float64(tk.FinishMs-tk.FirstStartMs) / 1000; math.Abs(got-want) > 0.002 {
			t.Fatalf("seed %d: %v task ran %v s, want %v", seed, tk.Locality, got, want)
		}
	}
}

// TestShuffleWaitsForMaps: a reducer started early cannot finish its shuffle
// before the last map, and idles (gated) meanwhile; it learns of the last
// map at its next poll (every second from its start, Hadoop's EventFetcher),
// or at once when polls are off.
func TestShuffleWaitsForMaps(t *testing.T) {
	maps := sim.StageSpec{Name: "map", Kind: sim.KindMap, Req: res(1, 100), Profile: flat(1, 10, 0), DurationsMs: []sim.Ms{10000, 30000}}
	red := sim.StageSpec{Name: "reduce", Kind: sim.KindReduce, Req: res(1, 100), SlowStart: 0.5, DurationsMs: []sim.Ms{10000},
		Profile: &sim.Profile{Name: "r", Absolute: true, Phases: []sim.Phase{
			{Name: "shuffle", Frac: 0.5, CPU: 0.2, Mem: 10, Shuffle: true}, {Name: "reduce", Frac: 0.5, CPU: 1, Mem: 10}}}}
	for _, c := range []struct {
		pollMs sim.Ms
		learn  func(start, lastMap sim.Ms) sim.Ms // when the reducer learns of the last map
	}{
		{-1, func(_, lastMap sim.Ms) sim.Ms { return lastMap }},
		{0, func(start, lastMap sim.Ms) sim.Ms { return start + ((lastMap-start)/1000+1)*1000 }},
		{700, func(start, lastMap sim.Ms) sim.Ms { return start + ((lastMap-start)/700+1)*700 }},
	} {
		s := run(t, sim.Config{Nodes: []sim.NodeSpec{{Name: "n", Cap: res(8, 1000)}},
			Jobs:  []sim.JobSpec{{Name: "mr", Stages: []sim.StageSpec{maps, red}}},
			Model: sim.Model{HeartbeatMs: 1, ShuffleEventPollMs: c.pollMs}})
		r := s.AllTasks()[2]
		// Released at 10 s (half the maps done), shuffles 2.5 s of its 5 s,
		// then waits for the last map at 30 s, fetches the rest once it
		// knows (2.5 s), reduces 5 s.
		if r.FirstStartMs < 10000 || r.FirstStartMs > 10002 {
			t.Fatalf("poll %d ms: reducer started at %d ms, want ~10000", c.pollMs, r.FirstStartMs)
		}
		want := float64(c.learn(r.FirstStartMs, s.AllTasks()[1].FinishMs))/1000 + 7.5
		if got := float64(r.FinishMs) / 1000; math.Abs(got-want) > 0.002 {
			t.Fatalf("poll %d ms: reducer finished at %v s, want %v (last map at %d ms)", c.pollMs, got, want, s.AllTasks()[1].FinishMs)
		}
	}
}
