package sim_test

import (
	"fmt"
	"testing"

	"yarngym/env/sim"
	"yarngym/internal/simtest"
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
	// Both jobs arrive at 0 and FIFO starts both AMs on the first
	// heartbeat, so the tasks start together: 5 s of work each ends at the
	// same instant. (Processes start at allocation: no AM pick-up delay.)
	s := run(t, sim.Config{Nodes: []sim.NodeSpec{{Name: "n", Cap: res(4, 4000)}}, Jobs: []sim.JobSpec{mk("a", 5), mk("b", 5)},
		Model: sim.Model{HeartbeatMs: 1000, AMStartupMs: 2000, AMHeartbeatMs: -1}})
	a, b := s.Jobs[0].Stages[0].Tasks[0], s.Jobs[1].Stages[0].Tasks[0]
	if a.StartMs != b.StartMs || a.Node != b.Node || s.Jobs[0].AM.Node != a.Node {
		t.Fatalf("tasks started at %d and %d ms: the test needs them to end together beside a's AM", a.StartMs, b.StartMs)
	}
	if a.FinishMs != a.StartMs+5000 || b.FinishMs != b.StartMs+5000 {
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
		Model: sim.Model{HeartbeatMs: 1000}, StallMs: 10000, AfterEvent: simtest.Invariants(t)}
	s, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if sum := s.Run(); sum.JobsStuck != 2 {
		t.Fatalf("%d jobs stuck, want the AM deadlock to leave both stuck", sum.JobsStuck)
	}
}

// killer is a node monitor that kills every task it finds running: a policy
// that launches what it then kills, the loop LivelockMs ends.
type killer struct{}

func (killer) Monitor(h sim.Handle, n *sim.Node) {
	for _, t := range append([]*sim.Task(nil), n.Containers...) {
		if t.Kind != sim.KindAM && h.Now()-t.StartMs >= 3000 {
			_ = h.Kill(t)
		}
	}
}

// TestLivelockEndsStuck: tasks killed and started again without end do not
// loop to run.max_s (or forever): after LivelockMs with no task finished and
// no job ended the run ends, its jobs stuck, the reason naming the loop and
// the task killed most often; before it, the run goes on.
func TestLivelockEndsStuck(t *testing.T) {
	for _, c := range []struct {
		livelock sim.Ms
		wantEnd  sim.Ms // the run ends in [livelock, livelock + 10 s] after the last arrival
	}{{600 * sim.MsPerS, 600 * sim.MsPerS}, {0, sim.DefaultLivelockMs}} {
		p := fifoPolicy(t)
		p.Monitors = []sim.NodeMonitor{killer{}}
		cfg := sim.Config{Nodes: []sim.NodeSpec{{Name: "n", Cap: res(2, 1000)}}, Policy: p,
			Jobs:  []sim.JobSpec{job("a", 0, 1, res(1, 100), 10, flat(0.5, 10, 0))},
			Model: sim.Model{HeartbeatMs: 1000}, LivelockMs: c.livelock, MaxMs: 48 * 3600 * sim.MsPerS}
		s := run(t, cfg)
		sum := s.Summary()
		if !sum.Stuck || sum.JobsStuck != 1 || sum.Truncated {
			t.Fatalf("livelock %d: %+v, want the job stuck, not truncated", c.livelock, sum)
		}
		if sum.EndMs < c.wantEnd || sum.EndMs > c.wantEnd+10*sim.MsPerS {
			t.Errorf("livelock %d: ended at %d ms, want within 10 s after %d", c.livelock, sum.EndMs, c.wantEnd)
		}
		want := fmt.Sprintf("livelock: no task finished and no job ended for %d s; job 0 task 0.0 was killed %d times",
			c.wantEnd/sim.MsPerS, sum.TasksKilled)
		if sum.StuckReason != want {
			t.Errorf("reason %q, want %q", sum.StuckReason, want)
		}
	}
}

// TestStallReason: a run stuck with nothing running says why: jobs the
// admission refuses, or AMs holding containers while their tasks wait.
func TestStallReason(t *testing.T) {
	mk := func(name string) sim.JobSpec {
		j := job(name, 0, 1, res(2, 100), 5, flat(0.5, 10, 0))
		j.AM = res(1, 100)
		return j
	}
	cfg := sim.Config{Nodes: []sim.NodeSpec{{Name: "n", Cap: res(2, 1000)}}, Jobs: []sim.JobSpec{mk("a"), mk("b")}, StallMs: 10000}
	sum := run(t, cfg).Summary()
	if want := "stall: no task ran for 10 s; 2 AMs hold containers while their tasks wait"; sum.StuckReason != want {
		t.Errorf("AM deadlock: reason %q, want %q", sum.StuckReason, want)
	}
	p := fifoPolicy(t)
	p.Admission = []sim.Admitter{refuseAll{}}
	cfg.Policy = p
	sum = run(t, cfg).Summary()
	if want := "stall: no task ran for 10 s; 2 jobs refused admission by the policy"; sum.StuckReason != want {
		t.Errorf("refused admission: reason %q, want %q", sum.StuckReason, want)
	}
}

type refuseAll struct{}

func (refuseAll) Admit(sim.Handle, *sim.Job) bool { return false }
