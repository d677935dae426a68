package sim_test

import (
	"testing"

	"yarngym/env/sim"
)

// TestPreemptFreesJobNowNodeLater: a preempted container (the
// CapacityScheduler's monitor kills it) leaves its job at once, but its
// node frees it only when the node manager reports it, at the node's
// heartbeat after next: on a one-container node the task runs again two
// heartbeats after the kill (2 s), from scratch; Kill frees both at once
// (TestKillRequeues: relaunched on the same heartbeat).
func TestPreemptFreesJobNowNodeLater(t *testing.T) {
	var jobAt, nodeAt sim.Res
	m := &scripted{atMs: 4000, fn: func(h sim.Handle, n *sim.Node) {
		tk := n.Containers[0]
		if err := h.Preempt(tk); err != nil {
			t.Fatal(err)
		}
		jobAt, nodeAt = tk.Job.Alloc, n.Alloc
	}}
	s := run(t, sim.Config{Nodes: []sim.NodeSpec{{Name: "n", Cap: res(1, 1000)}}, Policy: withMonitor(t, m),
		Jobs: []sim.JobSpec{job("a", 0, 1, res(1, 100), 10, flat(0.5, 10, 0))}, Model: sim.Model{HeartbeatMs: 1000}})
	if jobAt != (sim.Res{}) || nodeAt != res(1, 100) {
		t.Fatalf("right after the preemption the job holds %v and the node %v; want nothing and the container", jobAt, nodeAt)
	}
	sum := s.Summary()
	if sum.TasksKilled != 1 || sum.WastedMs != 4000 {
		t.Fatalf("killed %d, wasted %d ms; want 1 and 4000", sum.TasksKilled, sum.WastedMs)
	}
	// Preempted at the 4 s heartbeat; the node manager stops it at 5 s and
	// reports it at 6 s, when it is relaunched: 10 s of work to 16 s.
	if s.AllTasks()[0].FinishMs != 16000 {
		t.Fatalf("finished at %d ms, want 16000", s.AllTasks()[0].FinishMs)
	}
	if err := s.Preempt(s.AllTasks()[0]); err == nil {
		t.Fatal("preempting a finished task must fail")
	}
}
