package sim_test

import (
	"testing"

	"yarngym/env/sim"
)

// TestJobAMStartup: a job's own AM start-up (JobSpec.AMStartupMs, a Spark
// driver's) delays its first task by that much instead of the model's
// AMStartupMs; 0 takes the model's. Invariants are checked after every
// event.
func TestJobAMStartup(t *testing.T) {
	for _, c := range []struct {
		name       string
		startupMs  sim.Ms
		wantMs     sim.Ms  // JobSpec.StartupMs
		wantStartS float64 // the task's start: the AM starts at 0 s and asks once it has started up; the heartbeat at or after that meets the ask
	}{
		{"model's start-up", 0, 1000, 1},
		{"the job's own, longer", 5000, 5000, 5},
		{"the job's own, shorter than the model's", 500, 500, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := job("a", 0, 1, res(1, 1000), 9, flat(0.5, 10, 0))
			a.AM = res(1, 1000)
			a.AMStartupMs = c.startupMs
			s := run(t, sim.Config{Nodes: []sim.NodeSpec{{Name: "n", Cap: res(2, 2000)}}, Jobs: []sim.JobSpec{a},
				Model: sim.Model{HeartbeatMs: 1000, AMStartupMs: 1000, AMHeartbeatMs: 0}})
			task := s.Jobs[0].Stages[0].Tasks[0]
			if got := float64(task.StartMs) / 1000; got != c.wantStartS {
				t.Errorf("task started at %v s, want %v", got, c.wantStartS)
			}
			if got := s.Jobs[0].Spec.StartupMs(s.Model()); got != c.wantMs {
				t.Errorf("StartupMs = %d, want %d", got, c.wantMs)
			}
		})
	}
}

// TestNegativeAMStartupRefused: a negative AM start-up is bad input.
func TestNegativeAMStartupRefused(t *testing.T) {
	j := job("a", 0, 1, res(1, 1000), 9, flat(0.5, 10, 0))
	j.AMStartupMs = -1
	_, err := sim.New(sim.Config{Nodes: []sim.NodeSpec{{Name: "n", Cap: res(2, 2000)}}, Jobs: []sim.JobSpec{j}, Policy: fifoPolicy(t)})
	if err == nil || err.Error() != `job "a": negative AM start-up time` {
		t.Fatalf("got %v, want the job's negative AM start-up named", err)
	}
}
