package ras_test

import (
	"testing"

	"yarngym/internal/simtest"
	"yarngym/runner"
)

// TestEndToEnd runs RAS on its built-in scenario (Exp. 1 and, with tight
// goals, Exp. 2) and on a YARN scenario with ApplicationMasters and Spark
// executors, with the model's invariants checked after every event: every
// job completes (on OPERA's scenarios it used to loop: reducers launched
// past the AM's ramp-up, preempted and launched again).
// Reference: RAS Sec. 4.2, 4.3.
func TestEndToEnd(t *testing.T) {
	for _, c := range []struct {
		scenario string
		sets     []string
		policy   string // --policy: the scenario's own parameters that RAS does not have stay with its policy
		jobs     int
	}{
		{"ras-adaptive", nil, "", 9},
		{"ras-adaptive", []string{"workload.options.goals=tight"}, "", 9},
		{"quick", []string{"policy.name=ras"}, "", 0},
		// YARN maps of 3-4 vCores beside reducers of 2: RAS's task
		// scheduler launched reducers past the MapReduce AM's ramp-up
		// (its profiles pack 7 per node), they filled every vCore, the
		// AM's preemption killed one and RAS started it again, forever.
		{"opera-mr", nil, "ras", 6},
		{"opera-spark", nil, "ras", 8},
	} {
		res, err := runner.Run(runner.Options{Scenario: c.scenario, Sets: c.sets, Policy: c.policy, AfterEvent: simtest.Invariants(t)})
		if err != nil {
			t.Fatal(err)
		}
		sum := res.Summary
		if res.Policy != "ras" || sum.JobsStuck+sum.JobsUnfinished != 0 || sum.JobsCompleted == 0 || (c.jobs > 0 && sum.JobsCompleted != c.jobs) {
			t.Fatalf("%s %v: policy %s, %d done, %d stuck, %d unfinished", c.scenario, c.sets, res.Policy, sum.JobsCompleted, sum.JobsStuck, sum.JobsUnfinished)
		}
	}
}

// TestNewJobTakesFreeSlots: before any of its maps has finished a job's
// average task length is unknown, so it needs every pending map and takes
// the free slots; the small jobs submitted behind the large Sort (J1) then
// finish long before it under relaxed goals, as in Table 1's Exp. 1 (J2 648
// s, J5 623 s against J1 3,113 s).
// Reference: RAS Sec. 3.2 (observed average task length), Sec. 4.2 (Job 7
// "has a very low utility right after it is launched"), Table 1.
func TestNewJobTakesFreeSlots(t *testing.T) {
	res, err := runner.Run(runner.Options{Scenario: "ras-adaptive"})
	if err != nil {
		t.Fatal(err)
	}
	jobs := res.Sim.Jobs
	j1 := jobs[0]
	for _, k := range []int{1, 4} { // J2, J5
		if j := jobs[k]; j.FinishMs > j1.FinishMs/3 {
			t.Errorf("J%d finished at %d s, J1 at %d s: want the small job done within a third of J1's time", k+1, j.FinishMs/1000, j1.FinishMs/1000)
		}
	}
}
