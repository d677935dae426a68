package sim_test

import (
	"testing"

	"yarngym/env/sim"
)

// TestJobCommit: a job with a commit time ends that long after its last
// task, its AM holding its container meanwhile (a second job's AM, which
// fits only once the first AM's container is free, starts after the
// commit); a job without an AM, or with no commit time, ends with its last
// task. Invariants are checked after every event.
// Reference: Hadoop 3.3.6 MapReduce AM, CommitterEventHandler (commitJob
// after the last task), a job history's finishTime.
func TestJobCommit(t *testing.T) {
	for _, c := range []struct {
		name          string
		commitS       float64
		am            bool
		wantEndS      float64 // the first job's end
		wantSecondAMS float64 // the second job's AM start (-1: no second job): at the heartbeat that frees the first AM
	}{
		{"commit holds the AM's container", 5, true, 16, 16},
		{"no commit time", 0, true, 11, 11},
		{"no AM: nothing commits", 5, false, 9, -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := job("a", 0, 1, res(1, 1000), 9, flat(0.5, 10, 0))
			a.CommitMs = sim.Ms(c.commitS * 1000)
			jobs := []sim.JobSpec{a}
			if c.am {
				a.AM = res(1, 1000)
				b := job("b", 1, 1, res(1, 1000), 9, flat(0.5, 10, 0))
				b.AM = res(1, 1500)
				jobs = []sim.JobSpec{a, b}
			}
			// Room for a's AM and task; b's AM fits only once a's AM has
			// freed its container too.
			s := run(t, sim.Config{Nodes: []sim.NodeSpec{{Name: "n", Cap: res(2, 2000)}}, Jobs: jobs,
				Model: sim.Model{HeartbeatMs: 1000, AMStartupMs: 1000, AMHeartbeatMs: 0}})
			if got := float64(s.Jobs[0].FinishMs) / 1000; got != c.wantEndS {
				t.Errorf("job a ended at %v s, want %v", got, c.wantEndS)
			}
			if c.wantSecondAMS >= 0 {
				if got := float64(s.Jobs[1].AM.FirstStartMs) / 1000; got != c.wantSecondAMS {
					t.Errorf("job b's AM started at %v s, want %v", got, c.wantSecondAMS)
				}
			}
		})
	}
}

// TestNegativeCommitRefused: a negative commit time is bad input.
func TestNegativeCommitRefused(t *testing.T) {
	j := job("a", 0, 1, res(1, 1000), 9, flat(0.5, 10, 0))
	j.CommitMs = -1
	_, err := sim.New(sim.Config{Nodes: []sim.NodeSpec{{Name: "n", Cap: res(2, 2000)}}, Jobs: []sim.JobSpec{j}, Policy: fifoPolicy(t)})
	if err == nil || err.Error() != `job "a": negative commit time` {
		t.Fatalf("got %v, want the job's negative commit time named", err)
	}
}
