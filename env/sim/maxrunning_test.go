package sim_test

import (
	"strings"
	"testing"

	"yarngym/env/sim"
	"yarngym/internal/simtest"
)

// TestMaxRunningCapsContainers: a stage of six 10 s tasks with MaxRunning 2
// holds at most two containers (checked after every event) and runs in three
// waves, while another job uses the node's other two vCores from the start;
// before its first wave the stage asks for two containers, not six.
//
// Reference: DRESS Sec. II-B, Fig. 4: a Spark job's tasks each run in a
// container of their own, at most the job's executor count at once.
func TestMaxRunningCapsContainers(t *testing.T) {
	capped := job("spark", 0, 6, res(1, 100), 10, flat(0.5, 10, 0))
	capped.Stages[0].MaxRunning = 2
	other := job("other", 0, 2, res(1, 100), 10, flat(0.5, 10, 0))
	asked := -1
	cfg := sim.Config{Nodes: []sim.NodeSpec{{Name: "n", Cap: res(4, 1000)}}, Jobs: []sim.JobSpec{capped, other},
		Model: sim.Model{HeartbeatMs: 100}, Policy: fifoPolicy(t), RecordTasks: true, KeepTasks: true,
		AfterEvent: simtest.Invariants(t, func(s *sim.Sim) {
			if st := s.Jobs[0].Stages[0]; asked < 0 && st.Released {
				_, asked = s.PendingDemand(s.Jobs[0])
			}
		})}
	s, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	sum := s.Run()
	if sum.JobsCompleted != 2 {
		t.Fatalf("summary %+v: want both jobs done", sum)
	}
	if asked != 2 {
		t.Errorf("the capped stage asked for %d containers at release, want 2", asked)
	}
	j0, j1 := s.Jobs[0], s.Jobs[1]
	if got := j0.FinishMs - j0.StartMs; got < 30000 || got > 30300 {
		t.Errorf("capped job ran %d ms, want three 10 s waves (30000 + heartbeats)", got)
	}
	if j1.FinishMs > j0.StartMs+10200 {
		t.Errorf("other job ended at %d ms, want within a heartbeat of 10 s after %d: strict FIFO must not wait on the capped job's unasked tasks",
			j1.FinishMs, j0.StartMs)
	}
	if got := s.Jobs[0].Stages[0].Width(); got != 2 {
		t.Errorf("width %d, want 2", got)
	}
}

func TestMaxRunningNegativeRefused(t *testing.T) {
	j := job("spark", 0, 2, res(1, 100), 10, flat(0.5, 10, 0))
	j.Stages[0].MaxRunning = -1
	_, err := sim.New(sim.Config{Nodes: []sim.NodeSpec{{Name: "n", Cap: res(4, 1000)}}, Jobs: []sim.JobSpec{j}, Policy: fifoPolicy(t)})
	if err == nil || !strings.Contains(err.Error(), "max running -1 is negative") {
		t.Fatalf("error %v, want the negative MaxRunning named", err)
	}
}
