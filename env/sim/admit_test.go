package sim_test

import (
	"testing"

	"yarngym/env/sim"
	"yarngym/internal/simtest"
)

// oneAtATime admits a job only while no other is active or finishing (a
// maxRunningApps of 1), counting the times it is asked.
type oneAtATime struct {
	onEvents bool
	calls    int
}

func (a *oneAtATime) Admit(h sim.Handle, _ *sim.Job) bool {
	a.calls++
	return len(h.Active())+len(h.Finishing()) == 0
}

func (a *oneAtATime) Passes() bool      { return true }
func (a *oneAtATime) OnJobEvents() bool { return a.onEvents }

// TestJobEventAdmitter: an admitter whose answer changes only with the jobs
// (sim.JobEventAdmitter) is asked at job events, not at every heartbeat
// while jobs wait, and the jobs start at the same instants either way: a
// waiting job is reconsidered when the job before it leaves.
//
// Reference: Hadoop 3.3.6 LeafQueue.activateApplications (called on
// application add and remove), MaxRunningAppsEnforcer.
// updateRunnabilityOnAppRemoval.
func TestJobEventAdmitter(t *testing.T) {
	var admits [2][]sim.Ms
	var calls [2]int
	for i, onEvents := range []bool{false, true} {
		a := &oneAtATime{onEvents: onEvents}
		p := fifoPolicy(t)
		p.Admission = []sim.Admitter{a}
		jobs := []sim.JobSpec{}
		for _, name := range []string{"a", "b", "c"} {
			jobs = append(jobs, job(name, 0, 1, res(1, 100), 30, flat(0.5, 10, 0)))
		}
		s := run(t, sim.Config{Nodes: []sim.NodeSpec{{Name: "n", Cap: res(4, 1000)}}, Jobs: jobs, Policy: p})
		if sum := s.Summary(); sum.JobsCompleted != 3 {
			t.Fatalf("onEvents %v: %+v, want 3 jobs done", onEvents, sum)
		}
		for _, j := range s.Jobs {
			admits[i] = append(admits[i], j.AdmitMs)
		}
		calls[i] = a.calls
	}
	if admits[0][1] <= admits[0][0] || admits[0][2] <= admits[0][1] {
		t.Fatalf("admitted at %v ms, want one after another", admits[0])
	}
	for k := range admits[0] {
		if admits[0][k] != admits[1][k] {
			t.Errorf("job %d admitted at %d ms asked every heartbeat, %d asked at job events", k, admits[0][k], admits[1][k])
		}
	}
	// Each job waits about 30 s per job ahead of it: some 900 heartbeats of
	// 100 ms, each asking the waiting jobs, against a handful of job events.
	if calls[0] < 500 || calls[1] > 20 {
		t.Errorf("asked %d times every heartbeat and %d at job events, want hundreds and at most 20", calls[0], calls[1])
	}
}

// gate admits nothing until opened (a parameter a controller sets).
type gate struct{ open bool }

func (g *gate) Admit(sim.Handle, *sim.Job) bool { return g.open }
func (g *gate) OnJobEvents() bool               { return true }

// TestParamsChangedReconsiders: setting the policy's parameters mid-run
// (Sim.ParamsChanged, which an environment's step calls) has waiting jobs
// reconsidered at the next heartbeat, as YARN's queue refresh does
// (LeafQueue.reinitialize activates applications); without it a job-event
// admitter is not asked again while nothing happens to the jobs.
func TestParamsChangedReconsiders(t *testing.T) {
	for _, tell := range []bool{false, true} {
		g := &gate{}
		p := fifoPolicy(t)
		p.Admission = []sim.Admitter{g}
		cfg := sim.Config{Nodes: []sim.NodeSpec{{Name: "n", Cap: res(4, 1000)}}, Policy: p,
			Jobs:  []sim.JobSpec{job("a", 0, 1, res(1, 100), 10, flat(0.5, 10, 0))},
			Model: sim.Model{HeartbeatMs: 100}, StallMs: 3600 * sim.MsPerS, AfterEvent: simtest.Invariants(t)}
		s, err := sim.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		s.RunUntil(5000)
		g.open = true
		if tell {
			s.ParamsChanged()
		}
		s.RunUntil(10000)
		j := s.Jobs[0]
		switch {
		case tell && (j.State == sim.JobWaiting || j.AdmitMs < 5000 || j.AdmitMs > 5100):
			t.Errorf("told: job %v, admitted at %d ms, want admitted at the first heartbeat after 5,000 ms", j.State, j.AdmitMs)
		case !tell && j.State != sim.JobWaiting:
			t.Errorf("not told: job %v at %d ms, want still waiting (no job event since the gate opened)", j.State, j.AdmitMs)
		}
	}
}
