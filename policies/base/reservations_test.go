package base_test

import (
	"testing"

	"yarngym/env/sim"
	"yarngym/internal/simtest"
	"yarngym/policies/base"
	"yarngym/policies/fifo"
)

// TestCapacityReservationStarvation: one 2 GB request that no node can
// hold (every 4 GB node runs a 3 GB blocker for 10 s) reserves one node,
// and a second only once its re-reservations make it starved
// (RegularContainerAllocator.shouldAllocOrReserveNewContainer): starvation
// = int(reReservations / reserved x (1 - min(2048/4096, 3072/4096))) = 1
// after the reserved node's second failed heartbeat. Without the bound the
// engine reserves one node per task. When the blockers end, the request
// takes a reserved node and every reservation for it goes.
func TestCapacityReservationStarvation(t *testing.T) {
	for _, c := range []struct {
		bounded bool
		atMost  []int // the most nodes reserved in seconds 0, 1, 2, 3
	}{
		// Reserved on the first heartbeat it can be (within the first
		// second); that node fails again one and two heartbeats later
		// (starved after the second, in the third second), and the next
		// node to beat is reserved too. -1: either 1 or 2.
		{true, []int{1, 1, -1, 2}},
		{false, []int{1, 1, 1, 1}},
	} {
		a := &base.Allocator{Order: fifo.Order{}, Reserve: true, CapacityReservations: c.bounded}
		min := sim.Res{VCores: 1, MemMB: 1024}
		p := &sim.Policy{Name: "t", Allocate: a, Params: &sim.Params{}, Normalize: sim.Normalization{Min: min, Step: min}, KeepReservations: c.bounded}
		flat := &sim.Profile{Name: "t", Absolute: true, Phases: []sim.Phase{{Name: "run", Frac: 1, CPU: 1, Mem: 512}}}
		nodes := make([]sim.NodeSpec, 4)
		for i := range nodes {
			nodes[i] = sim.NodeSpec{Name: "n", Cap: sim.Res{VCores: 4, MemMB: 4096}}
		}
		jobs := []sim.JobSpec{
			{Name: "blockers", Stages: []sim.StageSpec{{Name: "b", Kind: sim.KindGeneric, Req: sim.Res{VCores: 1, MemMB: 3072},
				Profile: flat, DurationsMs: durs(4, 10)}}},
			{Name: "big", SubmitMs: 100, Stages: []sim.StageSpec{{Name: "t", Kind: sim.KindGeneric,
				Req: sim.Res{VCores: 1, MemMB: 2048}, Profile: flat, DurationsMs: durs(1, 5)}}},
		}
		most := make([]int, 4)
		cfg := sim.Config{Nodes: nodes, Jobs: jobs, Policy: p, Seed: 1, KeepTasks: true,
			AfterEvent: simtest.Invariants(t, func(s *sim.Sim) {
				// The big job's reservations (a blocker's, met elsewhere,
				// stays until its node's heartbeat: not counted here).
				k := 0
				for _, n := range s.ReservedNodes() {
					if n.Reserved.Job.ID == 1 {
						k++
					}
				}
				if sec := int(s.Now() / 1000); sec < len(most) {
					most[sec] = max(most[sec], k)
				}
			})}
		s, err := sim.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		s.Run()
		for sec, want := range c.atMost {
			if most[sec] != want && !(want == -1 && (most[sec] == 1 || most[sec] == 2)) {
				t.Errorf("bounded %v: second %d: at most %d nodes reserved, want %d (all: %v)", c.bounded, sec, most[sec], want, most)
			}
		}
		big := s.Jobs[1].Stages[0].Tasks[0]
		if big.State != sim.TaskDone || len(s.ReservedNodes()) != 0 {
			t.Errorf("bounded %v: the request ended %v with %d nodes still reserved", c.bounded, big.State, len(s.ReservedNodes()))
		}
	}
}
