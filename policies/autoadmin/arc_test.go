package autoadmin_test

import (
	"testing"

	"yarngym/env/sim"
	"yarngym/internal/simtest"
	"yarngym/policies/autoadmin"
	"yarngym/policies/base"
	"yarngym/policies/fair"
)

var flat = &sim.Profile{Name: "t", Absolute: true, Phases: []sim.Phase{{Name: "run", Frac: 1, CPU: 0.5, Mem: 10}}}

// amJob is a job with an AM of amVC vCores and n tasks of taskVC vCores
// lasting durS seconds each.
func amJob(name string, submitS float64, amVC int64, n int, taskVC int64, durS float64) sim.JobSpec {
	d := make([]sim.Ms, n)
	for i := range d {
		d[i] = sim.Ms(durS * 1000)
	}
	return sim.JobSpec{Name: name, SubmitMs: sim.Ms(submitS * 1000), AM: sim.Res{VCores: amVC, MemMB: 100},
		Stages: []sim.StageSpec{{Name: "s", Kind: sim.KindGeneric, Req: sim.Res{VCores: taskVC, MemMB: 100}, Profile: flat, DurationsMs: d}}}
}

// refuse is an admitter that refuses the job of that name: it stays waiting,
// so the ARC can be asked about it in a known state.
type refuse string

func (r refuse) Admit(_ sim.Handle, j *sim.Job) bool { return j.Spec.Name != string(r) }

// newSim builds a run of Fair with the given admitters, with invariants
// checked after every event.
func newSim(t *testing.T, nodes []sim.NodeSpec, jobs []sim.JobSpec, adm ...sim.Admitter) *sim.Sim {
	t.Helper()
	p, err := fair.New(base.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	_ = p.Params.Set("max_am_share", -1)
	p.Admission = adm
	s, err := sim.New(sim.Config{Nodes: nodes, Jobs: jobs, Policy: p, Model: sim.Model{HeartbeatMs: 1000},
		AfterEvent: simtest.Invariants(t)})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func constant(r float64) func(sim.Handle) float64 { return func(sim.Handle) float64 { return r } }

// TestARCFig34: the paper's example. With 21 vCores reserved for tasks, 6
// remain for AMs; job1 and job2 (3-vCore AMs) take them and job3 waits.
//
// Reference: AutoAdmin Sec. 3.3, Fig. 3.4, Alg. 3 lines 1-5.
func TestARCFig34(t *testing.T) {
	arc := &autoadmin.ARC{Reserve: constant(21)}
	jobs := []sim.JobSpec{amJob("job1", 0, 3, 2, 3, 100), amJob("job2", 0, 3, 2, 3, 100), amJob("job3", 0, 3, 2, 3, 100)}
	s := newSim(t, []sim.NodeSpec{{Name: "n", Cap: sim.Res{VCores: 27, MemMB: 27000}}}, jobs, arc)
	s.RunUntil(5000)
	if len(s.Active()) != 2 || len(s.Waiting()) != 1 || s.Waiting()[0].Spec.Name != "job3" {
		t.Fatalf("%d running, %d waiting; want job1 and job2 running, job3 waiting", len(s.Active()), len(s.Waiting()))
	}
	if got := autoadmin.TotalApp(s.Handle()); got != 6 {
		t.Fatalf("TotalApp_R = %d, want 6", got)
	}
	job3 := s.Waiting()[0]
	for _, c := range []struct {
		r    float64
		want bool
	}{{21, false}, {18.5, false}, {18, true}, {0, true}} {
		a := &autoadmin.ARC{Reserve: constant(c.r)}
		// 27 - 6 - 3 = 18 vCores would be left for tasks.
		if got := a.Admit(s.Handle(), job3); got != c.want {
			t.Errorf("R_R = %v: admit job3 = %v, want %v", c.r, got, c.want)
		}
	}
	// job1 ends at about 3 + 100 s (AM start-up, one wave of two tasks):
	// job3 is admitted then, and all end.
	s.Run()
	if sum := s.Summary(); sum.JobsCompleted != 3 {
		t.Fatalf("%d jobs completed, want 3", sum.JobsCompleted)
	}
	if a1, a3 := s.Jobs[0], s.Jobs[2]; a3.AdmitMs < a1.FinishMs {
		t.Errorf("job3 admitted at %d ms, before job1 ended at %d ms", a3.AdmitMs, a1.FinishMs)
	}
}

// TestARCWaitingNeedsNodeRoom: a waiting job is released at a NodeUpdate
// only if a node can hold its AM (Alg. 3 line 10, AV_A_R,i >=
// WaitingJobAM_R), even when the cluster-wide test passes; a job checked at
// its submission takes the cluster-wide test only (lines 1-5).
//
// Reference: AutoAdmin Sec. 3.3, Alg. 3 lines 6-13.
func TestARCWaitingNeedsNodeRoom(t *testing.T) {
	// Two 4-vCore nodes; job a's AM (1) and two 3-vCore tasks leave at most
	// one vCore free on a node until its tasks end at about 2 + 20 s.
	jobs := []sim.JobSpec{amJob("a", 0, 1, 2, 3, 20), amJob("b", 1, 2, 1, 1, 5)}
	nodes := []sim.NodeSpec{{Name: "n0", Cap: sim.Res{VCores: 4, MemMB: 4000}}, {Name: "n1", Cap: sim.Res{VCores: 4, MemMB: 4000}}}
	arc := &autoadmin.ARC{Reserve: constant(0)}
	s := newSim(t, nodes, jobs, arc, refuse("b"))
	s.RunUntil(10000)
	b := s.Jobs[1]
	if b.State != sim.JobWaiting {
		t.Fatalf("job b is %v, want waiting (refused by the test's admitter)", b.State)
	}
	for _, n := range s.Nodes {
		if n.Free().VCores > 1 {
			t.Fatalf("node %d has %v free, want at most 1 vCore", n.ID, n.Free())
		}
	}
	// 8 - 1 - 2 = 5 >= 0 cluster-wide, but no node has 2 free vCores.
	if arc.Admit(s.Handle(), b) {
		t.Error("admitted a waiting job whose AM fits no node")
	}
	s.RunUntil(30000)
	if !arc.Admit(s.Handle(), b) {
		t.Errorf("job a's tasks ended (free %v, %v): the waiting job should be admitted", s.Nodes[0].Free(), s.Nodes[1].Free())
	}
	// At its submission instant the same job takes only the cluster-wide test.
	s2 := newSim(t, nodes, []sim.JobSpec{amJob("a", 0, 1, 2, 3, 20), amJob("b", 10, 2, 1, 1, 5)}, arc)
	s2.Run()
	if b2 := s2.Jobs[1]; b2.AdmitMs != 10000 {
		t.Errorf("job b submitted at 10 s was admitted at %d ms, want at its submission", b2.AdmitMs)
	}
}
