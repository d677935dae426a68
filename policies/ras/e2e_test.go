package ras_test

import (
	"testing"

	"yarngym/env/runner"
	"yarngym/env/sim"
)

// TestEndToEnd runs RAS on its built-in scenario (Exp. 1 and, with tight
// goals, Exp. 2) and on a YARN scenario with ApplicationMasters and Spark
// executors, with the model's invariants checked after every event: every
// job completes.
// Reference: RAS Sec. 4.2, 4.3.
func TestEndToEnd(t *testing.T) {
	for _, c := range []struct {
		scenario string
		sets     []string
		jobs     int
	}{
		{"ras-adaptive", nil, 9},
		{"ras-adaptive", []string{"workload.options.goals=tight"}, 9},
		{"quick", []string{"policy.name=ras"}, 0},
	} {
		res, err := runner.Run(runner.Options{Scenario: c.scenario, Sets: c.sets, AfterEvent: func(s *sim.Sim) {
			if err := sim.CheckInvariants(s); err != nil {
				t.Fatal(err)
			}
		}})
		if err != nil {
			t.Fatal(err)
		}
		sum := res.Summary
		if res.Policy != "ras" || sum.JobsStuck+sum.JobsUnfinished != 0 || sum.JobsCompleted == 0 || (c.jobs > 0 && sum.JobsCompleted != c.jobs) {
			t.Fatalf("%s %v: policy %s, %d done, %d stuck, %d unfinished", c.scenario, c.sets, res.Policy, sum.JobsCompleted, sum.JobsStuck, sum.JobsUnfinished)
		}
	}
}
