package policies_test

import (
	"testing"

	"yarngym/env/sim"
	"yarngym/internal/simtest"
	"yarngym/policies/base"
)

// TestCapacityPreemption: queue a fills two nodes with long tasks, then
// queue b (guaranteed half) asks. Without the monitor b waits for a's tasks
// to end; with it, a's newest containers are marked and, picked again 15 s
// later, killed (their work lost), and b starts well before a's tasks end.
// No container is killed before 15 s after b asks (its first mark). The
// monitor's figures round by round are checked against Hadoop's own in the
// oracle suite (oracle/scenarios/preempt.toml).
func TestCapacityPreemption(t *testing.T) {
	nodes := []sim.NodeSpec{{Name: "n0", Cap: res(8, 8192)}, {Name: "n1", Cap: res(8, 8192)}}
	queues := []base.Queue{{Name: "a", Capacity: 0.5, MaxCapacity: 1}, {Name: "b", Capacity: 0.5, MaxCapacity: 1}}
	const bSubmitS = 20
	run := func(on float64) (*sim.Sim, sim.Ms) {
		jobs := []sim.JobSpec{job("a", "a", 0, 16, res(1, 1024), 300), job("b", "b", bSubmitS, 8, res(1, 1024), 10)}
		firstKill := sim.Ms(-1)
		var killed int64
		s := simtest.Run(t, sim.Config{Nodes: nodes, Jobs: jobs, Model: sim.Model{HeartbeatMs: 1000},
			Policy: newPolicy(t, "capacity", base.Spec{Queues: queues}, map[string]float64{"preemption": on, "user_limit_factor": 2, "locality_delay": 0})},
			simtest.Watch(func(s *sim.Sim) {
				k := s.Summary().TasksKilled
				if k > killed {
					killed = k
					if firstKill < 0 {
						firstKill = s.Now()
					}
				}
			}))
		return s, firstKill
	}
	off, _ := run(0)
	on, firstKill := run(1)
	if k := off.Summary().TasksKilled; k != 0 {
		t.Fatalf("preemption off: %d tasks killed", k)
	}
	if on.Summary().TasksKilled == 0 {
		t.Fatal("preemption on: no task killed")
	}
	if firstKill < (bSubmitS+15)*1000 {
		t.Errorf("first kill at %d ms, before 15 s after queue b asked (%d s)", firstKill, bSubmitS)
	}
	bOff, bOn := off.Jobs[1].StartMs, on.Jobs[1].StartMs
	if !(bOn < bOff-100_000) {
		t.Errorf("queue b started at %d ms with preemption, %d ms without: want far sooner", bOn, bOff)
	}
}
