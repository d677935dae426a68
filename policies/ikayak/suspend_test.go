package ikayak

import (
	"testing"

	"yarngym/env/sim"
	"yarngym/policies/base"
)

// TestSuspendDuration: T_suspend = (lambda^v - theta) x T for hand-set
// lambda, and no suspension when that is not positive.
// Reference: iKayak Sec. 3.2 and Sec. 4.2 (v = 1, theta = 0.15, T = 5 min).
func TestSuspendDuration(t *testing.T) {
	cases := []struct {
		lambda, v, theta, T, want float64
	}{
		{0.5, 1, 0.15, 300, 105},      // (0.5 - 0.15) x 300
		{1, 1, 0.15, 300, 255},        // all Spark
		{0.15, 1, 0.15, 300, 0},       // at the threshold
		{0.1, 1, 0.15, 300, 0},        // below it: no suspension
		{0, 1, 0.15, 300, 0},          // no Spark
		{0.6, 2, 0.15, 300, 63},       // (0.36 - 0.15) x 300
		{0.8, 1, 0.15, 60, 39},        // (0.8 - 0.15) x 60
		{0.5, 1, 2, 300, 0},           // the paper's unstable theta = 2
		{0.81, 0.5, 0, 100, 90},       // 0.9 x 100
		{0.25, 1, 0.05, 300, 60.0000}, // (0.25 - 0.05) x 300
	}
	for _, c := range cases {
		su := NewSuspender()
		su.V, su.Theta, su.T = c.v, c.theta, c.T
		if got := su.Duration(c.lambda); !near(got, c.want, 1e-9) {
			t.Errorf("lambda %v v %v theta %v T %v: %v s, want %v", c.lambda, c.v, c.theta, c.T, got, c.want)
		}
	}
	if d := NewSuspender(); d.V != 1 || d.Theta != 0.15 || d.T != 300 {
		t.Fatalf("defaults v %v theta %v T %v, want the paper's 1, 0.15, 300 s", d.V, d.Theta, d.T)
	}
}

func suspendPolicy(t *testing.T) (*sim.Policy, *Suspender) {
	t.Helper()
	p, err := New(base.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]float64{"placement": 0, "shrink": 0, "suspend_interval_s": 60} {
		if err := p.Params.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	for _, m := range p.Monitors {
		if su, ok := m.(*Suspender); ok {
			return p, su
		}
	}
	t.Fatal("no suspender among the monitors")
	return nil, nil
}

// TestSuspension: through the engine, lambda is the Spark share of the
// allocated vCores; at each control cycle the reducers idling for map
// outputs are suspended (CPU freed, memory kept until the OS has paged the
// JVM out) for (lambda - theta) x T and resumed at their node's first
// heartbeat after it.
// Reference: iKayak Sec. 3.2, Sec. 5.7 (2.7 s to suspend and resume).
func TestSuspension(t *testing.T) {
	p, su := suspendPolicy(t)
	// Spark holds 6 vCores (3 executors of 2); the MR job 2 long maps and 2
	// reducers (slow-start 0: they idle in shuffle): lambda = 6 / 10 = 0.6,
	// T_suspend = (0.6 - 0.15) x 60 s = 27 s.
	nodes := []sim.NodeSpec{{Name: "n", Cap: res(16, 65536)}}
	jobs := []sim.JobSpec{
		sparkSpec("spark", 0, 3, 2000, res(2, 4096)),
		mrSpec("mr", 1, 2, 500, 2, 60, res(1, 2048), 0),
	}
	type ev struct {
		task                       int32
		suspendMs, swapped, resume sim.Ms
		lambda                     float64
	}
	var evs []*ev
	open := map[int32]*ev{}
	// Cycles at 60, 120, ... s (AlignControl): the last one before the
	// maps finish (500 s) suspends past them, a late resume.
	sm := run(t, sim.Config{Nodes: nodes, Jobs: jobs, Policy: p, AlignControl: true}, func(s *sim.Sim) {
		for _, tk := range s.Nodes[0].Containers {
			if tk.Kind != sim.KindReduce {
				continue
			}
			e := open[tk.ID]
			switch {
			case tk.Suspended() && e == nil:
				e = &ev{task: tk.ID, suspendMs: s.Now(), lambda: su.LambdaNow()}
				evs = append(evs, e)
				open[tk.ID] = e
				if tk.Alloc.VCores != 0 || tk.Alloc.MemMB != tk.Req.MemMB || tk.Use.CPU != 0 {
					t.Fatalf("suspended reducer holds %v and uses %.2f CPU, want <0 vCores, %d MB> and none", tk.Alloc, tk.Use.CPU, tk.Req.MemMB)
				}
			case tk.Suspended() && tk.Swapped() && e.swapped == 0:
				e.swapped = s.Now()
				if tk.Alloc.MemMB != 0 || tk.Use.MemMB != 0 {
					t.Fatalf("swapped-out reducer holds %v and uses %.0f MB, want no memory", tk.Alloc, tk.Use.MemMB)
				}
			case !tk.Suspended() && e != nil:
				e.resume = s.Now()
				delete(open, tk.ID)
			}
		}
	})
	if len(evs) < 4 {
		t.Fatalf("%d suspensions, want both reducers suspended at several cycles", len(evs))
	}
	// Diagnostics: both maps run from the start, so no suspension finds a
	// map pending; resumptions after the last map count as late.
	var mapsDone sim.Ms
	for _, m := range sm.Jobs[1].Stages[0].Tasks {
		mapsDone = max(mapsDone, m.FinishMs)
	}
	late := 0
	for _, e := range evs {
		if e.resume > mapsDone {
			late++
		}
	}
	if su.total != int64(len(evs)) || su.withPending != 0 || su.lateResumes != int64(late) || late == 0 {
		t.Errorf("counted %d suspensions, %d with maps pending, %d late resumes; want %d, 0, %d (> 0)", su.total, su.withPending, su.lateResumes, len(evs), late)
	}
	for _, e := range evs {
		if !near(e.lambda, 0.6, 1e-9) {
			t.Errorf("reducer %d: lambda %v at its suspension, want 6 / 10", e.task, e.lambda)
		}
		if e.suspendMs%60000 != 0 {
			t.Errorf("reducer %d suspended at %d ms, not at a control cycle", e.task, e.suspendMs)
		}
		// Paged out at the node's first heartbeat 1.35 s (half of Sec. 5.7's
		// 2.7 s) after the suspension.
		if e.swapped < e.suspendMs+1350 || e.swapped >= e.suspendMs+2350 {
			t.Errorf("reducer %d suspended at %d ms, swapped out at %d ms, want at the first heartbeat 1.35 s on", e.task, e.suspendMs, e.swapped)
		}
		if want := e.suspendMs + 27000; e.resume != want {
			t.Errorf("reducer %d suspended at %d ms, resumed at %d ms, want %d", e.task, e.suspendMs, e.resume, want)
		}
	}
}

// script launches, at each node's first heartbeat from 1 s on, the tasks its
// layout function picks, then nothing.
type script struct {
	pick func(h sim.Handle, n *sim.Node) []*sim.Task
	done map[int32]bool
}

func (a *script) Allocate(h sim.Handle, n *sim.Node) {
	if a.done == nil {
		a.done = map[int32]bool{}
	}
	if a.done[n.ID] || h.Now() < 1000 { // every job of the tests has arrived by 1 s
		return
	}
	a.done[n.ID] = true
	for _, t := range a.pick(h, n) {
		if err := h.Launch(t, n, sim.Guaranteed); err != nil {
			panic(err)
		}
	}
}

// pending returns the first k pending tasks of stage st of job j.
func pending(s sim.Handle, j, st, k int) []*sim.Task {
	var out []*sim.Task
	for _, t := range s.Jobs()[j].Stages[st].Tasks {
		if len(out) < k && t.State == sim.TaskPending && s.Requestable(t) {
			out = append(out, t)
		}
	}
	return out
}

// TestSuspendedVCoresGoToOwnMaps: the vCores a job's suspended reducers
// release go to that job's maps first, ahead of a job the scheduler ranks
// higher (here the FIFO-first one).
// Reference: iKayak Sec. 3.2 ("iKayak utilizes the released resource to
// assign map tasks of the same job to the node").
func TestSuspendedVCoresGoToOwnMaps(t *testing.T) {
	nodes := []sim.NodeSpec{{Name: "n", Cap: res(8, 65536)}}
	jobs := []sim.JobSpec{
		mrSpec("first", 0, 20, 300, 0, 0, res(1, 1024), 0),
		mrSpec("mine", 0, 20, 300, 2, 60, res(1, 1024), 0),
	}
	lay := &script{pick: func(h sim.Handle, n *sim.Node) []*sim.Task {
		return append(pending(h, 0, 0, 6), pending(h, 1, 1, 2)...) // 6 maps of "first", 2 reducers of "mine"
	}}
	s, err := sim.New(sim.Config{Nodes: nodes, Jobs: jobs, Policy: &sim.Policy{Name: "script", Allocate: lay}})
	if err != nil {
		t.Fatal(err)
	}
	s.RunUntil(5000)
	n := s.Nodes[0]
	su := NewSuspender()
	for _, r := range s.Jobs[1].Stages[1].Tasks {
		if err := s.Suspend(r); err != nil {
			t.Fatal(err)
		}
		su.suspended = append(su.suspended, r)
		su.until[r.ID] = 60000
	}
	pl := &Placer{Base: &base.Allocator{}}
	su.Assign(s.Handle(), n, pl)
	var mine, first int
	for _, tk := range n.Containers {
		if tk.Kind == sim.KindMap {
			if tk.Job.Spec.Name == "mine" {
				mine++
			} else {
				first++
			}
		}
	}
	if mine != 2 || first != 6 {
		t.Fatalf("after the suspension: %d maps of the suspended job, %d of the other; want 2 and 6", mine, first)
	}
	if err := sim.CheckInvariants(s); err != nil {
		t.Fatal(err)
	}
}

// TestSwappedMemoryGoesToOwnMaps: on a node whose memory is full, the vCores
// suspended reducers release launch no map while the reducers keep their
// memory; once the OS has paged them out, their memory and vCores run maps
// of their job.
// Reference: iKayak Sec. 3.2 ("can be swapped out by the operating system
// with overhead"; "iKayak utilizes the released resource to assign map tasks
// of the same job to the node").
func TestSwappedMemoryGoesToOwnMaps(t *testing.T) {
	for _, swap := range []bool{false, true} {
		nodes := []sim.NodeSpec{{Name: "n", Cap: res(8, 8192)}}
		jobs := []sim.JobSpec{
			mrSpec("first", 0, 20, 300, 0, 0, res(1, 1024), 0),
			mrSpec("mine", 0, 20, 300, 2, 60, res(1, 1024), 0),
		}
		lay := &script{pick: func(h sim.Handle, n *sim.Node) []*sim.Task {
			return append(pending(h, 0, 0, 6), pending(h, 1, 1, 2)...) // 8 x 1 GB: the node's memory is full
		}}
		s, err := sim.New(sim.Config{Nodes: nodes, Jobs: jobs, Policy: &sim.Policy{Name: "script", Allocate: lay}})
		if err != nil {
			t.Fatal(err)
		}
		s.RunUntil(5000)
		n := s.Nodes[0]
		su := NewSuspender()
		for _, r := range s.Jobs[1].Stages[1].Tasks {
			if err := s.Suspend(r); err != nil {
				t.Fatal(err)
			}
			if swap {
				if err := s.SwapOut(r, su.half()); err != nil {
					t.Fatal(err)
				}
			}
			su.suspended = append(su.suspended, r)
			su.until[r.ID] = 60000
		}
		su.Assign(s.Handle(), n, &Placer{Base: &base.Allocator{}})
		mine := 0
		for _, tk := range n.Containers {
			if tk.Kind == sim.KindMap && tk.Job.Spec.Name == "mine" {
				mine++
			}
		}
		if want := map[bool]int{false: 0, true: 2}[swap]; mine != want {
			t.Errorf("swapped out %v: %d maps of the suspended job launched, want %d", swap, mine, want)
		}
		if err := sim.CheckInvariants(s); err != nil {
			t.Fatal(err)
		}
	}
}
