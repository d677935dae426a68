package sim_test

import (
	"math"
	"testing"

	"yarngym/env/sim"
)

// scripted is a node monitor that runs fn once, at the first heartbeat at or
// after atMs.
type scripted struct {
	atMs sim.Ms
	done bool
	fn   func(h sim.Handle, n *sim.Node)
}

func (m *scripted) Monitor(h sim.Handle, n *sim.Node) {
	if !m.done && h.Now() >= m.atMs {
		m.done = true
		m.fn(h, n)
	}
}

func withMonitor(t *testing.T, m sim.NodeMonitor) *sim.Policy {
	p := fifoPolicy(t)
	p.Monitors = []sim.NodeMonitor{m}
	return p
}

// TestKillRequeues: a killed task loses its work (counted as wasted), goes
// back to the queue, runs again from scratch and ends exactly once.
func TestKillRequeues(t *testing.T) {
	m := &scripted{atMs: 4000, fn: func(h sim.Handle, n *sim.Node) {
		if err := h.Kill(n.Containers[0]); err != nil {
			t.Fatal(err)
		}
	}}
	s := run(t, sim.Config{Nodes: []sim.NodeSpec{{Name: "n", Cap: res(1, 1000)}}, Policy: withMonitor(t, m),
		Jobs: []sim.JobSpec{job("a", 0, 1, res(1, 100), 10, flat(0.5, 10, 0))}, Model: sim.Model{HeartbeatMs: 1000}})
	sum := s.Summary()
	if sum.TasksKilled != 1 || sum.WastedMs != 4000 {
		t.Fatalf("killed %d, wasted %d ms; want 1 and 4000", sum.TasksKilled, sum.WastedMs)
	}
	recs := s.TaskRecords()
	if len(recs) != 2 || recs[0].Outcome != sim.Killed || recs[1].Outcome != sim.Finished || recs[1].Attempt != 1 {
		t.Fatalf("records %+v: want one killed attempt then one finished", recs)
	}
	// Relaunched on the heartbeat that killed it (4 s), then 10 s of work.
	if s.AllTasks()[0].FinishMs != 14000 {
		t.Fatalf("finished at %d ms, want 14000", s.AllTasks()[0].FinishMs)
	}
	if err := s.Kill(s.AllTasks()[0]); err == nil {
		t.Fatal("killing a finished task must fail")
	}
}

// TestSuspendFreesCPUKeepsMemory (iKayak Sec. 3.3).
func TestSuspendFreesCPUKeepsMemory(t *testing.T) {
	red := job("r", 0, 1, res(2, 500), 10, flat(1, 400, 0))
	red.Stages[0].Kind = sim.KindReduce
	var during sim.Res
	var mem float64
	m := &scripted{atMs: 2000, fn: func(h sim.Handle, n *sim.Node) {
		tk := n.Containers[0]
		if err := h.Suspend(tk); err != nil {
			t.Fatal(err)
		}
		during, mem = n.Alloc, n.Demand.MemMB
	}}
	resume := &scripted{atMs: 5000, fn: func(h sim.Handle, n *sim.Node) {
		if err := h.Resume(h.Task(0)); err != nil {
			t.Fatal(err)
		}
	}}
	p := withMonitor(t, m)
	p.Monitors = append(p.Monitors, resume)
	s := run(t, sim.Config{Nodes: []sim.NodeSpec{{Name: "n", Cap: res(4, 1000)}}, Policy: p, Jobs: []sim.JobSpec{red}, Model: sim.Model{HeartbeatMs: 1000}})
	if during != res(0, 500) || mem != 400 {
		t.Fatalf("while suspended: alloc %v, memory used %v; want <0, 500> and 400", during, mem)
	}
	// 2 s of work, 3 s suspended, 8 s more.
	if s.AllTasks()[0].FinishMs != 13000 {
		t.Fatalf("finished at %d ms, want 13000", s.AllTasks()[0].FinishMs)
	}
}

// TestSwapOutReleasesMemory: a suspended reducer whose JVM the OS paged out
// holds neither vCores nor memory, so another task takes its memory; it
// resumes only once its memory fits again, then pages back in (no progress)
// for the swap-in time before it runs on.
// Reference: iKayak Sec. 3.2 (swapped out "with overhead"), Sec. 5.7 (2.7 s).
func TestSwapOutReleasesMemory(t *testing.T) {
	red := job("r", 0, 1, res(2, 800), 10, flat(1, 600, 0))
	red.Stages[0].Kind = sim.KindReduce
	other := job("m", 2.5, 1, res(1, 400), 4, flat(1, 300, 0))
	var during sim.Res
	var mem float64
	var errTwice, errEarly error
	p := withMonitor(t, &scripted{atMs: 2000, fn: func(h sim.Handle, n *sim.Node) {
		tk := n.Containers[0]
		if err := h.SwapOut(tk, 1000); err == nil {
			t.Fatal("swapping out a running task must fail")
		}
		if err := h.Suspend(tk); err != nil {
			t.Fatal(err)
		}
		if err := h.SwapOut(tk, 1000); err != nil {
			t.Fatal(err)
		}
		errTwice = h.SwapOut(tk, 1000)
		during, mem = n.Alloc, n.Demand.MemMB
	}})
	p.Monitors = append(p.Monitors,
		&scripted{atMs: 5000, fn: func(h sim.Handle, n *sim.Node) { errEarly = h.Resume(h.Task(0)) }},
		&scripted{atMs: 9000, fn: func(h sim.Handle, n *sim.Node) {
			if !h.Task(0).Swapped() {
				t.Fatal("the reducer should still be swapped out")
			}
			if err := h.Resume(h.Task(0)); err != nil {
				t.Fatal(err)
			}
		}})
	s := run(t, sim.Config{Nodes: []sim.NodeSpec{{Name: "n", Cap: res(4, 1000)}}, Policy: p, Jobs: []sim.JobSpec{red, other},
		Model: sim.Model{HeartbeatMs: 1000}})
	if during != res(0, 0) || mem != 0 || errTwice == nil {
		t.Fatalf("swapped out: alloc %v, memory used %v, second swap-out err %v; want <0, 0>, 0 and an error", during, mem, errTwice)
	}
	// The 400 MB task fits only in the memory the reducer released.
	if m := s.AllTasks()[1]; m.FirstStartMs >= 5000 || m.FinishMs > 9000 {
		t.Fatalf("other task ran %d-%d ms, want it in the released memory before the resume", m.FirstStartMs, m.FinishMs)
	}
	if errEarly == nil {
		t.Fatal("resume while the other task holds the memory must fail")
	}
	// 2 s of work, suspended until 9 s, 1 s paging in, 8 s more.
	if s.AllTasks()[0].FinishMs != 18000 || s.AllTasks()[0].Swapped() {
		t.Fatalf("finished at %d ms, want 18000", s.AllTasks()[0].FinishMs)
	}
}

// TestShrinkCapsCPU (iKayak Alg. 3): a 4-vCore task using 4 cores shrunk to
// 2 runs at half speed and frees 2 vCores.
func TestShrinkCapsCPU(t *testing.T) {
	var free sim.Res
	m := &scripted{atMs: 2000, fn: func(h sim.Handle, n *sim.Node) {
		if err := h.Shrink(n.Containers[0], 2); err != nil {
			t.Fatal(err)
		}
		free = n.Free()
	}}
	s := run(t, sim.Config{Nodes: []sim.NodeSpec{{Name: "n", Cap: res(4, 1000)}}, Policy: withMonitor(t, m),
		Jobs: []sim.JobSpec{job("a", 0, 1, res(4, 100), 10, flat(4, 10, 0))}, Model: sim.Model{HeartbeatMs: 1000, UsageSampleMs: 1000000}})
	if free.VCores != 2 {
		t.Fatalf("free vCores after shrink %d, want 2", free.VCores)
	}
	if got := float64(s.AllTasks()[0].FinishMs) / 1000; math.Abs(got-18) > 0.002 {
		t.Fatalf("finished at %v s, want 18 (2 s full speed + 8 s of work at half)", got)
	}
}

// TestReservationBlocksOthers: a node reserved for a big request takes no
// other guaranteed container until the big one launches.
func TestReservationBlocksOthers(t *testing.T) {
	jobs := []sim.JobSpec{job("small", 0, 1, res(2, 100), 10, flat(1, 10, 0)), job("big", 1, 1, res(4, 100), 10, flat(1, 10, 0)),
		job("small2", 2, 1, res(1, 100), 5, flat(1, 10, 0))}
	// Containers are freed as their tasks end (no wait for the node's next
	// heartbeat), so that big starts exactly as small ends.
	s := run(t, sim.Config{Nodes: []sim.NodeSpec{{Name: "n", Cap: res(4, 1000)}}, Jobs: jobs, Model: sim.Model{HeartbeatMs: 100, ImmediateRelease: true}})
	// small2 fits beside small at 2 s, but the node is reserved for big.
	if st := s.AllTasks()[2].FirstStartMs; st != 20000 {
		t.Fatalf("small2 started at %d ms, want 20000 (after big)", st)
	}
	if s.Stats().Reservations != 2 {
		t.Fatalf("%d reservations, want 2 (big, then small2 behind it)", s.Stats().Reservations)
	}
}

// TestAMDeadlockEndsStuck: AMs that hold every container leave no room for
// tasks; the run ends reporting the jobs stuck instead of looping.
func TestAMDeadlockEndsStuck(t *testing.T) {
	var jobs []sim.JobSpec
	for i := 0; i < 3; i++ {
		j := job("j", 0, 1, res(1, 100), 10, flat(1, 10, 0))
		j.AM = res(1, 100)
		jobs = append(jobs, j)
	}
	s := run(t, sim.Config{Nodes: []sim.NodeSpec{{Name: "n", Cap: res(2, 1000)}}, Jobs: jobs, StallMs: 60000,
		Policy: fifoBackfill(t)})
	sum := s.Summary()
	if !sum.Stuck || sum.JobsStuck != 3 || sum.JobsCompleted != 0 {
		t.Fatalf("summary %+v: want 3 stuck jobs", sum)
	}
	if sum.EndMs > 70000 {
		t.Fatalf("ended at %d ms: the stall should end the run about 60 s in", sum.EndMs)
	}
}

func fifoBackfill(t *testing.T) *sim.Policy {
	p := fifoPolicy(t)
	if err := p.Params.Set("backfill", 1); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestReduceRampup: while maps wait, reducers stay within min(f, 0.5) of
// the job's running tasks, f the share of its maps completed (the MapReduce
// AM ramps reduces up with the completed map percentage, capped at the
// rampup limit 0.5): just past the 5 % slow-start (2 of 40 maps) a job
// holding 6 containers gets no reducer yet, where a flat 0.5 would give it
// three.
func TestReduceRampup(t *testing.T) {
	maps := sim.StageSpec{Name: "map", Kind: sim.KindMap, Req: res(1, 100), Profile: flat(1, 10, 0), DurationsMs: make([]sim.Ms, 40)}
	for i := range maps.DurationsMs {
		maps.DurationsMs[i] = sim.Ms(5000 + 1000*(i%7))
	}
	red := sim.StageSpec{Name: "reduce", Kind: sim.KindReduce, Req: res(1, 100), Profile: sim.ReduceProfile, SlowStart: 0.05,
		DurationsMs: []sim.Ms{10000, 10000, 10000, 10000, 10000, 10000, 10000, 10000}}
	worst, firstAt, lastR := 0.0, -1.0, 0
	cfg := sim.Config{Nodes: []sim.NodeSpec{{Name: "n", Cap: res(6, 10000)}}, Policy: fifoPolicy(t),
		Jobs: []sim.JobSpec{{Name: "mr", Stages: []sim.StageSpec{maps, red}}}, Model: sim.Model{HeartbeatMs: 100}, KeepTasks: true,
		AfterEvent: func(s *sim.Sim) {
			j := s.Jobs[0]
			m, r := j.Stages[0], j.Stages[1]
			// The rule is checked as a reducer starts: maps ending later
			// lower the maps' count until their successors start.
			if m.Pending > 0 && r.Running > lastR {
				f := math.Min(float64(m.Done)/float64(len(m.Tasks)), 0.5)
				worst = math.Max(worst, float64(r.Running)/float64(r.Running+m.Running)-f)
				if firstAt < 0 {
					firstAt = float64(m.Done) / float64(len(m.Tasks))
				}
			}
			lastR = r.Running
		}}
	s, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if sum := s.Run(); sum.JobsCompleted != 1 {
		t.Fatalf("job did not complete: %+v", sum)
	}
	// A reducer starts within the limit counting itself among the job's
	// running tasks (rampupAllows' r + 1 of m + r + 1); a map ending in the
	// same event can move the share by one task of the node's 6.
	if worst > 1.0/6 {
		t.Fatalf("reducers exceeded min(completed share, 0.5) of running tasks by %.2f while maps waited", worst)
	}
	// A first reducer needs min(f, 0.5) x (6 + 1) >= 1: f >= 1/7.
	if firstAt < 1.0/7 {
		t.Fatalf("the first reducer ran with %.3f of the maps done, want at least 1/7", firstAt)
	}
}

// TestTruncatedRunLabelsEveryJob: a run cut by MaxMs labels jobs that never
// arrived unfinished, and the invariants hold on the final state.
func TestTruncatedRunLabelsEveryJob(t *testing.T) {
	s := run(t, sim.Config{Nodes: []sim.NodeSpec{{Name: "n", Cap: res(1, 1000)}}, MaxMs: 5000,
		Jobs: []sim.JobSpec{job("a", 0, 1, res(1, 100), 10, flat(1, 10, 0)), job("b", 60, 1, res(1, 100), 10, flat(1, 10, 0))}})
	if err := sim.CheckInvariants(s); err != nil {
		t.Fatal(err)
	}
	sum := s.Summary()
	if !sum.Truncated || sum.JobsUnfinished != 2 || s.Jobs[1].State != sim.JobUnfinished {
		t.Fatalf("summary %+v, job b %v: want truncated with 2 unfinished jobs", sum, s.Jobs[1].State)
	}
}
