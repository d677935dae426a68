package sim

import "testing"

// cappedJob is a job with an AM whose one stage of executors, one task per
// container, holds at most max containers (a Spark job as DRESS runs it).
func cappedJob(max int, durs ...Ms) JobSpec {
	prof := &Profile{Name: "t", Absolute: true, Phases: []Phase{{Name: "run", Frac: 1, CPU: 1, Mem: 100}}}
	return JobSpec{Name: "spark", AM: Res{VCores: 1, MemMB: 1024}, Stages: []StageSpec{
		{Name: "tasks", Kind: KindExecutor, Req: Res{VCores: 1, MemMB: 1024}, Profile: prof, DurationsMs: durs, MaxRunning: max},
	}}
}

// amBeatRun runs spec alone on one node of vcores vCores under alloc, with
// node and AM heartbeats every second and a 2 s AM start-up, checking the
// invariants and calling watch (if not nil) after every event.
func amBeatRun(t *testing.T, vcores int64, spec JobSpec, alloc Allocator, watch func(*Sim)) *Sim {
	t.Helper()
	s, err := New(Config{Nodes: []NodeSpec{{Name: "n", Cap: Res{VCores: vcores, MemMB: 8192}}}, Jobs: []JobSpec{spec}, Seed: 1,
		Policy: &Policy{Name: "t", Allocate: alloc, Params: &Params{}}, RecordTasks: true, KeepTasks: true,
		Model: Model{HeartbeatMs: 1000, AMHeartbeatMs: 1000, AMStartupMs: 2000},
		AfterEvent: func(s *Sim) {
			if err := CheckInvariants(s); err != nil {
				t.Fatal(err)
			}
			if watch != nil {
				watch(s)
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	s.Run()
	return s
}

// TestCappedAsksOnAMHeartbeat: a stage capped at 2 of 4 tasks asks for the
// container of its third task only at the AM's allocate() after the one
// that reports its first task's container complete (MapReduce's
// applyConcurrentTaskLimits and requestLimitsToUpdate, Spark's
// YarnAllocator.allocateResources), not when the task ends.
//
// Worked out by hand (node and AM heartbeats every second from 0, AM
// registered at 2 s): the AM asks for 2 at 2 s, the node gives tasks 0 and
// 1 then, their processes start at the AM's heartbeat at 3 s; task 0 (5.5
// s) ends at 8.5 s, its node reports it at 9 s, the AM is told at 10 s and
// asks for 1 at 11 s, given at once (task 2, 1 s: 12-13 s); task 1 (10 s)
// and task 2 end at 13 s, reported then, told at 14 s, task 3 asked for
// and given at 15 s, run 16-17 s. (Asking at each end, as yarngym did: task
// 2 given at 9 s, task 3 at 11 s, the job done at 13 s.)
func TestCappedAsksOnAMHeartbeat(t *testing.T) {
	s := amBeatRun(t, 8, cappedJob(2, 5500, 10000, 1000, 1000), anyNode{}, nil)
	j := s.Jobs[0]
	if !j.Stages[0].capped {
		t.Error("the stage is not capped through its AM")
	}
	for i, want := range []Ms{2000, 2000, 11000, 15000} {
		if got := j.Stages[0].Tasks[i].StartMs; got != want {
			t.Errorf("task %d given at %d ms, want %d", i, got, want)
		}
	}
	if j.FinishMs != 17000 {
		t.Errorf("job done at %d ms, want 17000", j.FinishMs)
	}
}

// oneEach launches at most one container per node heartbeat, the AM first
// (as the CapacityScheduler gives one off-switch container per heartbeat).
type oneEach struct{}

func (oneEach) Allocate(h Handle, n *Node) {
	for _, j := range h.Active() {
		if j.AM != nil && j.AM.State == TaskPending && h.FitsFree(j.AM.Req, n) {
			_ = h.Launch(j.AM, n, Guaranteed)
			return
		}
		for _, st := range j.Stages {
			for _, t := range st.Tasks {
				if h.Requestable(t) && h.FitsFree(t.Req, n) {
					_ = h.Launch(t, n, Guaranteed)
					return
				}
			}
		}
	}
}

// TestCappedAbsoluteCountOverAllocates: the AM's count is absolute, so the
// scheduler gives a container beyond the cap, which the AM releases.
//
// By hand (one container per node heartbeat, every second; cap 3 of 6
// tasks of 20 s): the AM asks for 3 at 2 s; tasks 0, 1, 2 are given at 2,
// 3 and 4 s. At 4 s the AM, having taken task 0's container at 3 s (its
// entry changed), sends min(3 - 1 held, 5 scheduled) = 2 while the
// scheduler, having given task 1's since, counted 1: a fourth container
// comes at 5 s. At 6 s the AM holds 3 and releases it (freed at its next
// allocate(), 7 s); task 3 waits for task 0's end at 23 s, reported at 24 s,
// asked for and given at 25 s.
func TestCappedAbsoluteCountOverAllocates(t *testing.T) {
	most := 0
	held := map[Ms]int64{} // the job's vCores after the last event at each instant
	s := amBeatRun(t, 8, cappedJob(3, 20000, 20000, 20000, 20000, 20000, 20000), oneEach{}, func(s *Sim) {
		j := s.Jobs[0]
		if v := int(j.Alloc.VCores); v > most {
			most = v
			if v == 5 && (s.Now() != 5000 || j.Stages[0].Tasks[3].State != TaskRunning) {
				t.Errorf("at %d ms the job holds 5 containers, want the fourth executor's from 5000 ms", s.Now())
			}
		}
		held[s.Now()] = j.Alloc.VCores
	})
	if held[6000] != 5 || held[7000] != 4 {
		t.Errorf("the job holds %d vCores at 6 s and %d at 7 s, want 5 then 4 (the container beyond the cap released at 7 s)", held[6000], held[7000])
	}
	if most != 5 {
		t.Errorf("the job held at most %d containers, want 5 (AM, 3 executors and one beyond the cap)", most)
	}
	for i, want := range []Ms{2000, 3000, 4000, 25000} {
		if got := s.Jobs[0].Stages[0].Tasks[i].StartMs; got != want {
			t.Errorf("task %d given at %d ms, want %d", i, got, want)
		}
	}
}

// TestExecutorsAskOnAMHeartbeat: TestCappedAsksOnAMHeartbeat's job (2
// executors, partitions of 5.5, 10, 1 and 1 s) with partition executors
// (executors.go). By hand: the AM asks for 2 at 2 s, given then; at its
// heartbeat at 3 s it takes both, 2 >= 0.8 x 2 registered, so the driver
// starts partitions 0 and 1 in them then; partition 0 ends at 8.5 s and its executor runs
// 2 (8.5-9.5 s) then 3 (9.5-10.5 s) in the same container, then idles;
// partition 1 ends at 13 s, the job with it (17 s with a container per
// partition). The AM asks for no third container: its count stays at 0
// after the first two are given.
func TestExecutorsAskOnAMHeartbeat(t *testing.T) {
	spec := cappedJob(2, 5500, 10000, 1000, 1000)
	spec.Stages[0].PartitionExecutors = true
	most := int64(0)
	s := amBeatRun(t, 8, spec, anyNode{}, func(s *Sim) {
		if st := s.Jobs[0].Stages; st != nil && st[0].asked > 0 && s.Now() > 2000 {
			t.Fatalf("at %d ms the scheduler counts %d more executors", s.Now(), st[0].asked)
		}
		most = max(most, s.Jobs[0].Alloc.VCores)
	})
	j := s.Jobs[0]
	for i, want := range []struct{ start, finish Ms }{{3000, 8500}, {3000, 13000}, {8500, 9500}, {9500, 10500}} {
		tk := j.Stages[0].Tasks[i]
		if tk.StartMs != want.start || tk.FinishMs != want.finish {
			t.Errorf("partition %d ran %d-%d ms, want %d-%d", i, tk.StartMs, tk.FinishMs, want.start, want.finish)
		}
	}
	if j.FinishMs != 13000 {
		t.Errorf("job done at %d ms, want 13000", j.FinishMs)
	}
	if most != 3 || s.stats.Launched != 3 {
		t.Errorf("the job held at most %d vCores and %d containers were launched, want 3 and 3 (AM and 2 executors)", most, s.stats.Launched)
	}
}

// TestExecutorsWaitForRegistration: the driver runs no partition before
// 0.8 of its executors have registered or 30 s have passed since the AM
// registered (TaskSchedulerImpl.waitBackendReady, YarnSchedulerBackend's
// minRegisteredResourcesRatio 0.8, maxRegisteredResourcesWaitingTime 30 s).
// 5 executors, 10 partitions of 2 s, AM registered at 2 s (asks for 5, the
// node gives what fits then, the AM takes them at 3 s). By hand: on 5
// vCores (AM and 4 executors) 4 >= 0.8 x 5 register at 3 s: partitions
// 0-3 run 3-5 s, 4-7 5-7 s, 8-9 7-9 s. On 4 vCores 3 register: they idle
// until the AM's heartbeat at 2 + 30 = 32 s, then partitions 0-2 run
// 32-34 s, 3-5 34-36 s, 6-8 36-38 s, 9 38-40 s.
func TestExecutorsWaitForRegistration(t *testing.T) {
	for _, tc := range []struct {
		vcores      int64
		firstStarts []Ms // partitions 0-3
		finish      Ms
	}{
		{5, []Ms{3000, 3000, 3000, 3000}, 9000},
		{4, []Ms{32000, 32000, 32000, 34000}, 40000},
	} {
		durs := make([]Ms, 10)
		for i := range durs {
			durs[i] = 2000
		}
		spec := cappedJob(5, durs...)
		spec.Stages[0].PartitionExecutors = true
		s := amBeatRun(t, tc.vcores, spec, anyNode{}, nil)
		j := s.Jobs[0]
		for i, want := range tc.firstStarts {
			if got := j.Stages[0].Tasks[i].StartMs; got != want {
				t.Errorf("%d vCores: partition %d started at %d ms, want %d", tc.vcores, i, got, want)
			}
		}
		if j.FinishMs != tc.finish {
			t.Errorf("%d vCores: job done at %d ms, want %d", tc.vcores, j.FinishMs, tc.finish)
		}
		if want := tc.vcores; s.stats.Launched != want {
			t.Errorf("%d vCores: %d containers launched, want %d (AM and executors)", tc.vcores, s.stats.Launched, want)
		}
	}
}
