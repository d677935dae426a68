package base_test

import (
	"testing"

	"yarngym/env/sim"
	"yarngym/internal/simtest"
	"yarngym/policies/base"
	"yarngym/policies/fifo"
)

// localityCluster is node 0 on rack 0 and nodes 1..n-1 on rack 1, each
// <2 vCores, 4 GB>.
func localityCluster(n int) []sim.NodeSpec {
	out := make([]sim.NodeSpec, n)
	for i := range out {
		out[i] = sim.NodeSpec{Name: "n", Rack: min(i, 1), Cap: sim.Res{VCores: 2, MemMB: 4096}}
	}
	return out
}

func durs(n int, s float64) []sim.Ms {
	d := make([]sim.Ms, n)
	for i := range d {
		d[i] = sim.Ms(s * 1000)
	}
	return d
}

// localityRun runs blockers (one <2, 4 GB> task of 100 s per blocked node,
// from t = 0) and, at submitS, a job of maps whose only replica is on node
// 0, under FIFO with node-locality-delay 10 and CapacityLocality cl. It
// stops at untilS (0: the end) and returns the sim.
func localityRun(t *testing.T, nodes, blocked, maps int, submitS, untilS float64, cl bool) *sim.Sim {
	t.Helper()
	a := &base.Allocator{Order: fifo.Order{}, Reserve: true, LocalityDelay: 10, CapacityLocality: cl}
	// Hadoop's minimum allocation <1 vCore, 1024 MB>: a node with less free
	// is no scheduling opportunity under CapacityLocality.
	min := sim.Res{VCores: 1, MemMB: 1024}
	p := &sim.Policy{Name: "t", Allocate: a, Params: &sim.Params{}, Normalize: sim.Normalization{Min: min, Step: min}}
	flat := &sim.Profile{Name: "t", Absolute: true, Phases: []sim.Phase{{Name: "run", Frac: 1, CPU: 1, Mem: 512}}}
	jobs := []sim.JobSpec{
		{Name: "blockers", Stages: []sim.StageSpec{{Name: "b", Kind: sim.KindGeneric, Req: sim.Res{VCores: 2, MemMB: 4096},
			Profile: flat, DurationsMs: durs(blocked, 100)}}},
		{Name: "maps", SubmitMs: sim.Ms(submitS * 1000), Stages: []sim.StageSpec{{Name: "map", Kind: sim.KindMap,
			Req: sim.Res{VCores: 1, MemMB: 1024}, Profile: flat, DurationsMs: durs(maps, 10),
			Hosts: make([]int32, maps)}}}, // every block on the blocked node 0
	}
	ranOn := map[int]int32{} // blocker index -> node
	cfg := sim.Config{Nodes: localityCluster(nodes), Jobs: jobs, Policy: p, Seed: 1, KeepTasks: true,
		AfterEvent: simtest.Invariants(t, func(s *sim.Sim) {
			for i, tk := range s.Jobs[0].Stages[0].Tasks {
				if tk.State == sim.TaskRunning {
					ranOn[i] = tk.Node.ID
				}
			}
		})}
	s, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if untilS > 0 {
		s.RunUntil(sim.Ms(untilS * 1000))
	} else {
		s.Run()
	}
	for i := range blocked {
		if id, ok := ranOn[i]; !ok || id != int32(i) {
			t.Fatalf("blocker %d did not run on node %d", i, i)
		}
	}
	return s
}

// TestCapacityOffSwitch: a job whose maps' data sit on a busy node takes any
// node once it has passed more scheduling opportunities than its pending maps
// times the locality wait factor, capped at the cluster's node count
// (Hadoop 3.3.6 RegularContainerAllocator.canAssign OFF_SWITCH), not after
// twice the node-locality delay.
// Reference: YARN CapacityScheduler node-locality-delay and
// getLocalityWaitFactor.
func TestCapacityOffSwitch(t *testing.T) {
	// Three nodes; node 0 (rack 0, all replicas) is busy for 100 s; nodes 1
	// and 2 (rack 1) are free and each offers the job one opportunity a
	// second. The wait factor is (1 host + 1 rack) / 3 nodes.
	for _, c := range []struct {
		name         string
		maps         int
		cl           bool
		minS, maxS   float64 // first map's start, s
		wantLocality sim.Locality
	}{
		{"2 maps: 2 x 2/3 < 2 misses", 2, true, 1, 2.5, sim.OffRack},
		{"12 maps: min(3 nodes, 12 x 2/3) < 4 misses", 12, true, 2, 3, sim.OffRack},
		{"plain rule: 2 x delay = 20 misses", 2, false, 10, 11.5, sim.OffRack},
		{"plain rule, 12 maps: 20 misses", 12, false, 10, 11.5, sim.OffRack},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := localityRun(t, 3, 1, c.maps, 0.5, 0, c.cl)
			first := s.Jobs[1].Stages[0].Tasks[0]
			for _, tk := range s.Jobs[1].Stages[0].Tasks {
				if tk.FirstStartMs < first.FirstStartMs {
					first = tk
				}
			}
			got := float64(first.FirstStartMs) / 1000
			if got < c.minS || got > c.maxS {
				t.Errorf("first map started at %.3f s, want in [%v, %v]", got, c.minS, c.maxS)
			}
			if first.Locality != c.wantLocality {
				t.Errorf("first map ran %v, want %v", first.Locality, c.wantLocality)
			}
		})
	}
}

// TestCapacityFullNodeNoOpportunity: a node with less than the minimum
// allocation free is not offered to the jobs (CapacityScheduler
// allocateContainersToNode), so its heartbeats count no missed opportunity;
// the plain rule counts them.
// Reference: YARN CapacityScheduler, yarn.scheduler.minimum-allocation-mb/-vcores.
func TestCapacityFullNodeNoOpportunity(t *testing.T) {
	for _, c := range []struct {
		cl         bool
		wantMisses bool
	}{{true, false}, {false, true}} {
		s := localityRun(t, 2, 2, 2, 1, 20, c.cl)
		if m := s.Policy().Allocate.(*base.Allocator).Misses(s.Handle(), s.Jobs[1]); (m > 0) != c.wantMisses {
			t.Errorf("CapacityLocality %v: %d missed opportunities on two full nodes, want any: %v", c.cl, m, c.wantMisses)
		}
	}
}
