package sim_test

import (
	"testing"

	"yarngym/env/sim"
)

// TestSettleAfterJobEnd: when a job's last task and another job's task end
// at the same instant on a node that also runs the first job's AM, finishing
// the job removes its AM from the node's container list; the other task must
// still end at that instant, not a millisecond later (and a reducer caught at
// the end of its shuffle must not be left gated forever).
func TestSettleAfterJobEnd(t *testing.T) {
	mk := func(name string, durS float64) sim.JobSpec {
		j := job(name, 0, 1, res(1, 100), durS, flat(0.5, 10, 0))
		j.AM = res(1, 100)
		return j
	}
	// FIFO starts a's task one heartbeat before b's: 5 s and 4 s of work end
	// together.
	s := run(t, sim.Config{Nodes: []sim.NodeSpec{{Name: "n", Cap: res(4, 4000)}}, Jobs: []sim.JobSpec{mk("a", 5), mk("b", 4)},
		Model: sim.Model{HeartbeatMs: 1000, AMStartupMs: 2000}})
	a, b := s.Jobs[0].Stages[0].Tasks[0], s.Jobs[1].Stages[0].Tasks[0]
	if a.StartMs+5000 != b.StartMs+4000 {
		t.Fatalf("tasks started at %d and %d ms: the test needs them to end together", a.StartMs, b.StartMs)
	}
	if a.FinishMs != a.StartMs+5000 || b.FinishMs != b.StartMs+4000 {
		t.Fatalf("tasks ran %d..%d and %d..%d ms, want both to end at %d", a.StartMs, a.FinishMs, b.StartMs, b.FinishMs, a.StartMs+5000)
	}
}

// TestUngatedReducerProgressesFromNow: a reducer idling in shuffle for the
// maps is released when the last map ends on another node; it progresses
// from that moment, not from its own node's last heartbeat (polls off: the
// reducer learns of the map at its end; TestShuffleWaitsForMaps has polls).
func TestUngatedReducerProgressesFromNow(t *testing.T) {
	shuffle := &sim.Profile{Name: "r", Absolute: true, Phases: []sim.Phase{
		{Name: "shuffle", Frac: 0.5, CPU: 0.2, Mem: 10, Shuffle: true},
		{Name: "reduce", Frac: 0.5, CPU: 0.5, Mem: 10},
	}}
	j := job("j", 0, 1, res(1, 100), 10, flat(0.5, 10, 0))
	j.Stages = append(j.Stages, sim.StageSpec{Name: "r", Kind: sim.KindReduce, Req: res(1, 100), Profile: shuffle,
		DurationsMs: []sim.Ms{10000}})
	// One vCore per node: the reducer (asked for first) and the map land on
	// different nodes, whose heartbeats are half a second apart.
	s := run(t, sim.Config{Nodes: []sim.NodeSpec{{Name: "n0", Cap: res(1, 1000)}, {Name: "n1", Cap: res(1, 1000)}},
		Jobs: []sim.JobSpec{j}, Model: sim.Model{HeartbeatMs: 1000, ShuffleEventPollMs: -1}})
	m, r := s.Jobs[0].Stages[0].Tasks[0], s.Jobs[0].Stages[1].Tasks[0]
	if recs := s.TaskRecords(); len(recs) != 2 || recs[0].Node == recs[1].Node {
		t.Fatalf("records %+v: the test needs the map and the reducer on different nodes", recs)
	}
	// The reducer waited for the map: all its 10 s of work start at the map's end.
	if want := m.FinishMs + 10000; r.FinishMs != want {
		t.Fatalf("map ended at %d ms, reducer at %d ms; want %d", m.FinishMs, r.FinishMs, want)
	}
}

// TestStuckRunInvariants: an AM deadlock (two AMs fill the node, their tasks
// cannot start, the node is reserved for one of them) ends with the jobs
// reported stuck, and the run's final state still satisfies the invariants:
// no node stays reserved for a job that is no longer admitted.
func TestStuckRunInvariants(t *testing.T) {
	mk := func(name string) sim.JobSpec {
		j := job(name, 0, 1, res(2, 100), 5, flat(0.5, 10, 0))
		j.AM = res(1, 100)
		return j
	}
	cfg := sim.Config{Nodes: []sim.NodeSpec{{Name: "n", Cap: res(2, 1000)}}, Policy: fifoPolicy(t), Jobs: []sim.JobSpec{mk("a"), mk("b")},
		Model: sim.Model{HeartbeatMs: 1000}, StallMs: 10000, AfterEvent: func(s *sim.Sim) {
			if err := sim.CheckInvariants(s); err != nil {
				t.Fatal(err)
			}
		}}
	s, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if sum := s.Run(); sum.JobsStuck != 2 {
		t.Fatalf("%d jobs stuck, want the AM deadlock to leave both stuck", sum.JobsStuck)
	}
}
