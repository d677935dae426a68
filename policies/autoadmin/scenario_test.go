package autoadmin_test

import (
	"fmt"
	"strings"
	"testing"

	"yarngym/env/sim"
	"yarngym/internal/simtest"
	"yarngym/runner"
)

// runAA runs autoadmin-66 (66 terasort jobs, AM 1 vCore, tasks 4 vCores, 64
// vCores) with the overrides, checking the invariants and watch after every
// event.
func runAA(t *testing.T, sets []string, watch func(*sim.Sim)) *runner.Result {
	t.Helper()
	res, err := runner.Run(runner.Options{Scenario: "autoadmin-66", Sets: sets, AfterEvent: simtest.Invariants(t, func(s *sim.Sim) {
		if watch != nil {
			watch(s)
		}
	})})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func state(s *sim.Sim, name string) float64 {
	for _, v := range s.Policy().State {
		if v.Name == name {
			return v.Get()
		}
	}
	panic("no state " + name)
}

// TestAutoAdmin66: AutoAdmin completes the batch; its reservation stays
// within Alg. 2's bounds, and every job it admits leaves the reservation to
// the tasks at its admission.
//
// Reference: AutoAdmin Sec. 2.3 (Case 1), Sec. 3, Alg. 2 and 3.
func TestAutoAdmin66(t *testing.T) {
	const c = 64.0
	seen := map[int32]bool{}
	res := runAA(t, []string{"policy.name=autoadmin"}, func(s *sim.Sim) {
		r := state(s, "rrp_reserved_vcores")
		if r < 0.4*c-1e-9 || r > c-1+1e-9 {
			t.Fatalf("t=%d R_R = %v outside [0.4 C, C - AvgAMC] = [25.6, 63]", s.Now(), r)
		}
		// Active jobs are in admission order: a newly admitted job saw the
		// AMs of those before it (Alg. 3: C - TotalApp_R - AM_J >= R_R).
		var app int64
		for _, j := range s.Active() {
			if !seen[j.ID] {
				seen[j.ID] = true
				if left := c - float64(app+j.Spec.AM.VCores); left < r-1e-9 {
					t.Fatalf("t=%d job %d admitted leaving %v vCores for tasks, R_R = %v", s.Now(), j.ID, left, r)
				}
			}
			app += j.Spec.AM.VCores
		}
		if got := state(s, "arc_total_app_vcores"); got != float64(app) {
			t.Fatalf("t=%d arc_total_app_vcores = %v, admitted AMs hold %d", s.Now(), got, app)
		}
	})
	if res.Summary.JobsCompleted != 66 || res.Summary.JobsStuck != 0 {
		t.Fatalf("%d of 66 jobs completed, %d stuck", res.Summary.JobsCompleted, res.Summary.JobsStuck)
	}
	if len(seen) != 66 {
		t.Fatalf("saw %d admissions, want 66", len(seen))
	}
}

// TestStaticReservationUShape: with 4-vCore tasks and 1-vCore AMs, a
// reservation too small to leave one task's 4 vCores free on some node lets
// the AMs take the cluster (the AM deadlock: jobs are reported stuck); a
// small one that leaves room starves the tasks and too large a one starves
// the AMs, both slower than the paper's best static reservation for this
// cell (48 vCores, Table 3.1, TC = 4, AMC = 1).
//
// The reservation is cluster-wide (Alg. 3), the tasks' room per node: Fair
// places one container per node heartbeat (assignmultiple false,
// FairScheduler.attemptScheduling), so the 64 - R admitted AMs spread evenly
// over the 8 nodes before their first requests (am_startup_ms 8 s), and a
// 4-vCore task needs at most 4 AMs on its 8-vCore node: R = 24 (5 AMs per
// node) deadlocks, R = 32 (4 per node) does not.
//
// Reference: AutoAdmin Sec. 2.2 (deadlock), Sec. 2.3 and Fig. 2.2 (makespan
// against the static reservation), Table 3.1.
func TestStaticReservationUShape(t *testing.T) {
	makespan := map[int]float64{}
	for _, r := range []int{0, 24, 32, 48, 60} {
		res := runAA(t, []string{"policy.name=static-reserve", fmt.Sprintf("reserved_vcores=%d", r)}, nil)
		sum := res.Summary
		if r <= 24 {
			if sum.JobsStuck == 0 || !strings.Contains(sum.StuckReason, "AMs hold containers while their tasks wait") {
				t.Fatalf("reserved_vcores=%d: %d jobs completed, stuck reason %q; want an AM deadlock", r, sum.JobsCompleted, sum.StuckReason)
			}
			continue
		}
		if sum.JobsCompleted != 66 {
			t.Fatalf("reserved_vcores=%d: %d of 66 jobs completed", r, sum.JobsCompleted)
		}
		makespan[r] = float64(sum.MakespanMs) / 1000
	}
	if !(makespan[32] > 1.2*makespan[48] && makespan[60] > 1.2*makespan[48]) {
		t.Fatalf("makespans %v: want reservations 32 and 60 at least 20%% slower than 48", makespan)
	}
}

// TestZeroHeadroomBreaksReducerHold: on Table 4.2's Exp4 (30 terasort and
// 30 wordcount jobs, 3-vCore maps, 4-vCore wordcount reducers) AutoAdmin
// admits enough jobs that their early reducers and AMs leave each node's
// free vCores too few for a map. Under Hadoop 3.3.6's headroom (the
// cluster's free vCores, which still hold a map) each AM keeps its idle
// reducers until the unconditional preemption, 300 s after its maps were
// asked for, and reducers are killed by the dozen; under the paper's YARN
// v2.2.0 FairScheduler (zero headroom, the default here) an AM whose maps
// wait with none in a container preempts its reducers at once, and the
// batch ends sooner.
//
// Reference: AutoAdmin Sec. 4.2.2, Table 4.2 (Exp4), Sec. 6 (YARN v2.2.0);
// FSSchedulerApp.getHeadroom before YARN-1959; RMContainerAllocator.
// preemptReducesIfNeeded.
func TestZeroHeadroomBreaksReducerHold(t *testing.T) {
	run := func(zero int) *runner.Result {
		res, err := runner.Run(runner.Options{Scenario: "autoadmin-mix",
			Sets:       []string{"workload.options.set=exp4", fmt.Sprintf("policy.params.zero_headroom=%d", zero)},
			AfterEvent: simtest.Invariants(t, nil)})
		if err != nil {
			t.Fatal(err)
		}
		if res.Summary.JobsCompleted != 60 { // the scenario's seed, 1
			t.Fatalf("zero_headroom=%d: %d of 60 jobs completed", zero, res.Summary.JobsCompleted)
		}
		return res
	}
	v22, v336 := run(1).Summary, run(0).Summary
	if v336.TasksKilled < 10 || v22.TasksKilled > 2 {
		t.Fatalf("reducers killed: %d with Hadoop 3.3.6's headroom (want >= 10), %d with zero headroom (want <= 2)", v336.TasksKilled, v22.TasksKilled)
	}
	if !(float64(v22.MakespanMs) < 0.8*float64(v336.MakespanMs)) {
		t.Fatalf("makespan %d ms with zero headroom, %d ms with 3.3.6's: want at least 20%% shorter", v22.MakespanMs, v336.MakespanMs)
	}
}
