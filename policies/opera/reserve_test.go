package opera

import (
	"testing"

	"yarngym/env/sim"
	"yarngym/internal/simtest"
	"yarngym/policies/base"
)

// reservationRun runs one <4 vCores> node with job A holding 2 vCores for
// 50 s, job B asking for all 4 vCores, and job C with many 1-vCore, 1-second
// tasks, under OPERA with the given reservation approach and epsilon_s, with
// the invariants checked after every event. It returns how many of C's
// tasks started before B's, and the run.
func reservationRun(t *testing.T, reservation, epsS float64) (int, *sim.Sim) {
	t.Helper()
	p, err := New(base.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]float64{"reservation": reservation, "epsilon_s": epsS, "relief_policy": Neutral} {
		if err := p.Params.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	prof := &sim.Profile{Name: "flat", Absolute: true, Phases: []sim.Phase{{Name: "run", Frac: 1, CPU: 0.5, Mem: 50}}}
	job := func(name string, n int, vcores int64, durS float64) sim.JobSpec {
		d := make([]sim.Ms, n)
		for i := range d {
			d[i] = sim.Ms(durS * 1000)
		}
		return sim.JobSpec{Name: name, App: name, Framework: "test", Stages: []sim.StageSpec{{Name: "s", Kind: sim.KindGeneric,
			Req: sim.Res{VCores: vcores, MemMB: 1024}, Profile: prof, DurationsMs: d}}}
	}
	op := p.Allocate.(*Opera)
	// B asks for 2 GB: Fair reserves a node only for a request of at least
	// yarn.scheduler.reservation-threshold.increment-multiple (2) times the
	// memory increment (FairScheduler.isAtLeastReservationThreshold).
	jobB := job("B", 1, 4, 5)
	jobB.Stages[0].Req.MemMB = 2048
	s, err := sim.New(sim.Config{Nodes: []sim.NodeSpec{{Name: "n", Cap: sim.Res{VCores: 4, MemMB: 8192}}},
		Jobs: []sim.JobSpec{job("A", 1, 2, 50), jobB, job("C", 40, 1, 1)}, Policy: p, KeepTasks: true,
		AfterEvent: simtest.Invariants(t, func(s *sim.Sim) {
			checkQueues(t, s, op)
		})})
	if err != nil {
		t.Fatal(err)
	}
	if sum := s.Run(); sum.JobsCompleted != 3 {
		t.Fatalf("%d of 3 jobs completed", sum.JobsCompleted)
	}
	b := s.Jobs[1].Stages[0].Tasks[0]
	before := 0
	for _, c := range s.Jobs[2].Stages[0].Tasks {
		if c.FirstStartMs < b.StartMs {
			before++
		}
	}
	return before, s
}

// checkQueues asserts the multi-chance bound: no reserved task has been
// skipped more than epsilon_s times, and every queue holds at most
// epsilon_r tasks, each reserved on that node only.
func checkQueues(t *testing.T, s *sim.Sim, op *Opera) {
	t.Helper()
	for id, q := range op.queues {
		if len(q) > int(op.EpsR) {
			t.Fatalf("t=%d node %d: %d reserved tasks, epsilon_r %v", s.Now(), id, len(q), op.EpsR)
		}
		for _, r := range q {
			if r.skips > int(op.EpsS) {
				t.Fatalf("t=%d node %d: %s skipped %d times, epsilon_s %v", s.Now(), id, r.t, r.skips, op.EpsS)
			}
			if op.resvAt[r.t.ID] != int32(id)+1 && r.t.State == sim.TaskPending {
				t.Fatalf("t=%d node %d: %s queued here but recorded on %d", s.Now(), id, r.t, op.resvAt[r.t.ID]-1)
			}
		}
	}
}

// TestReservationSkips: a task that does not fit reserves the node. Under
// strict reservation nothing else runs on the node before it; under
// multi-chance reservation other tasks may skip it exactly epsilon_s times.
//
// Reference: OPERA Sec. III-E, Alg. 3 (strict) and Alg. 4 (multi-chance,
// "the maximum time that each reserved task can be 'skipped' by any other
// tasks (i.e., epsilon_s)").
func TestReservationSkips(t *testing.T) {
	cases := []struct {
		name        string
		reservation float64
		epsS        float64
		want        int
	}{
		{"strict", ReserveStrict, 5, 0},
		{"off (Fair's node reservation)", ReserveOff, 5, 0},
		{"multi-chance, epsilon_s 0", ReserveMulti, 0, 0},
		{"multi-chance, epsilon_s 2", ReserveMulti, 2, 2},
		{"multi-chance, epsilon_s 5", ReserveMulti, 5, 5},
	}
	for _, tc := range cases {
		if got, _ := reservationRun(t, tc.reservation, tc.epsS); got != tc.want {
			t.Errorf("%s: %d of C's tasks started before B's, want %d", tc.name, got, tc.want)
		}
	}
}

// TestMultiChancePassesOverAStage: under multi-chance reservation a job
// whose next task (its later stage's, asked at a higher priority) can
// neither take the guaranteed resources nor fit OA is reserved on the node,
// and the job's other stage still offers its short tasks, which take OA.
// One <4 vCores, 8 GB> node: job W teaches the classifier that app w's
// stage s is short; job A then holds the node's 4 vCores for 60 s using
// half a core; job B has stage s (short <1 vCore, 100 MB> tasks) and stage
// big (one <1 vCore, 8 GB> task, released with s, which fits neither). B's
// s tasks must run opportunistically beside A, not wait for A's end: as
// many as the reserved task may be skipped (epsilon_s, Alg. 4 line 12), the
// rest after A's end, when big runs.
func TestMultiChancePassesOverAStage(t *testing.T) {
	p, err := New(base.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]float64{"reservation": ReserveMulti, "relief_policy": Neutral} {
		if err := p.Params.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	op := p.Allocate.(*Opera)
	prof := &sim.Profile{Name: "flat", Absolute: true, Phases: []sim.Phase{{Name: "run", Frac: 1, CPU: 0.5, Mem: 50}}}
	stage := func(name string, n int, req sim.Res, durS float64) sim.StageSpec {
		d := make([]sim.Ms, n)
		for i := range d {
			d[i] = sim.Ms(durS * 1000)
		}
		return sim.StageSpec{Name: name, Kind: sim.KindGeneric, Req: req, Profile: prof, DurationsMs: d}
	}
	small := sim.Res{VCores: 1, MemMB: 100}
	w := sim.JobSpec{Name: "W", App: "w", Framework: "test", Stages: []sim.StageSpec{stage("s", 12, small, 1)}}
	a := sim.JobSpec{Name: "A", App: "a", Framework: "test", SubmitMs: 5000,
		Stages: []sim.StageSpec{stage("run", 1, sim.Res{VCores: 4, MemMB: 1024}, 60)}}
	b := sim.JobSpec{Name: "B", App: "w", Framework: "test", SubmitMs: 10000,
		Stages: []sim.StageSpec{stage("s", 8, small, 1), stage("big", 1, sim.Res{VCores: 1, MemMB: 8192}, 1)}}
	s, err := sim.New(sim.Config{Nodes: []sim.NodeSpec{{Name: "n", Cap: sim.Res{VCores: 4, MemMB: 8192}}},
		Jobs: []sim.JobSpec{w, a, b}, Policy: p, KeepTasks: true,
		AfterEvent: simtest.Invariants(t, func(s *sim.Sim) { checkQueues(t, s, op) })})
	if err != nil {
		t.Fatal(err)
	}
	if sum := s.Run(); sum.JobsCompleted != 3 {
		t.Fatalf("%d of 3 jobs completed", sum.JobsCompleted)
	}
	aEnd := s.Jobs[1].Stages[0].Tasks[0].FinishMs
	beside := 0
	for _, x := range s.Jobs[2].Stages[0].Tasks {
		if x.FirstStartMs < aEnd {
			beside++
		}
	}
	if beside != int(op.EpsS) {
		t.Errorf("%d of B's %d short tasks started before A ended at %d ms, want epsilon_s = %v (opportunistic launches: %d)",
			beside, len(s.Jobs[2].Stages[0].Tasks), aEnd, op.EpsS, op.OppLaunched)
	}
}
