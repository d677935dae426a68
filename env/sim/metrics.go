package sim

import (
	"math"
	"sort"
)

// Stats are the run's running counters.
type Stats struct {
	Events       int64
	Launched     int64
	OppLaunched  int64
	TasksDone    int64
	Killed       int64
	WastedMs     Ms
	Suspended    int64
	Reservations int64
	// ReducePreempted counts reducers killed by their AM for maps.
	ReducePreempted int64
}

// Stats returns the counters so far.
func (s *Sim) Stats() Stats { return s.stats }

// accounting integrates cluster totals over time, exactly: every change
// happens inside an event, and the integral is brought up to the event's
// time before the event changes anything.
type accounting struct {
	lastMs  Ms
	allocG  Res
	allocO  Res
	cpuUsed float64 // CPU actually consumed, capped per node at capacity
	memUsed float64 // actual memory demand

	vcoreMsReserved float64
	vcoreMsUsed     float64
	memMBMsReserved float64
	memMBMsUsed     float64
}

func (a *accounting) integrate(now Ms) {
	dt := float64(now - a.lastMs)
	if dt <= 0 {
		return
	}
	a.lastMs = now
	a.vcoreMsReserved += dt * float64(a.allocG.VCores+a.allocO.VCores)
	a.vcoreMsUsed += dt * a.cpuUsed
	a.memMBMsReserved += dt * float64(a.allocG.MemMB+a.allocO.MemMB)
	a.memMBMsUsed += dt * a.memUsed
}

// Totals returns the cluster's allocation and actual use now.
func (s *Sim) Totals() (guaranteed, opportunistic Res, cpuUsed, memUsedMB float64) {
	return s.acct.allocG, s.acct.allocO, s.acct.cpuUsed, s.acct.memUsed
}

// UsedVCoreMs returns the integral of the CPU actually consumed (capped per
// node at its physical cores), in vCore-milliseconds, from time 0 to Now.
// It reads the running integral and adds the stretch since the last event
// without changing it, so calling it never alters a run.
func (s *Sim) UsedVCoreMs() float64 {
	a := s.acct
	a.integrate(s.now)
	return a.vcoreMsUsed
}

// Capacity returns the cluster's total capacity.
func (s *Sim) Capacity() Res { return s.capacity }

// TaskRecord is one task attempt, as it ended.
type TaskRecord struct {
	Job       int32
	Kind      TaskKind
	Stage     int
	Index     int
	Attempt   int32
	Node      int32
	Container ContainerKind
	Locality  Locality
	StartMs   Ms
	EndMs     Ms
	Outcome   Outcome
}

func (s *Sim) record(t *Task, o Outcome) {
	if !s.cfg.RecordTasks {
		return
	}
	st := -1
	if t.Stage != nil {
		st = t.Stage.Index
	}
	s.records = append(s.records, TaskRecord{Job: t.Job.ID, Kind: t.Kind, Stage: st, Index: t.Index,
		Attempt: t.Attempt, Node: t.Node.ID, Container: t.Container, Locality: t.Locality,
		StartMs: t.StartMs, EndMs: s.now, Outcome: o})
}

// TaskRecords returns every ended attempt in the order they ended (empty
// unless Config.RecordTasks).
func (s *Sim) TaskRecords() []TaskRecord { return s.records }

// Sample is the cluster's state at one instant, for timelines.
type Sample struct {
	AtMs             Ms
	VCoresGuaranteed int64
	VCoresOpp        int64
	CPUUsed          float64
	MemMBReserved    int64
	MemMBUsed        float64
	ContainersG      int
	ContainersO      int
	PendingTasks     int
	WaitingJobs      int
	RunningJobs      int
	Policy           []float64 // the policy's State, in order
}

func (s *Sim) sample() {
	smp := Sample{AtMs: s.now, VCoresGuaranteed: s.acct.allocG.VCores, VCoresOpp: s.acct.allocO.VCores,
		CPUUsed: s.acct.cpuUsed, MemMBReserved: s.acct.allocG.MemMB + s.acct.allocO.MemMB, MemMBUsed: s.acct.memUsed,
		WaitingJobs: len(s.waiting), RunningJobs: len(s.active)}
	for _, n := range s.Nodes {
		for _, t := range n.Containers {
			if t.Container == Opportunistic {
				smp.ContainersO++
			} else {
				smp.ContainersG++
			}
		}
	}
	for _, j := range s.active {
		_, k := s.PendingDemand(j)
		smp.PendingTasks += k
	}
	for _, v := range s.policy.State {
		smp.Policy = append(smp.Policy, v.Get())
	}
	s.timeline = append(s.timeline, smp)
}

// Timeline returns the samples taken (empty unless Config.TimelineMs).
func (s *Sim) Timeline() []Sample { return s.timeline }

// Summary is a run's outcome.
type Summary struct {
	MakespanMs         Ms
	MeanWaitMs         float64
	MeanCompletionMs   float64
	JobsCompleted      int
	JobsStuck          int
	JobsUnfinished     int
	Stuck              bool
	Truncated          bool
	TasksKilled        int64
	WastedMs           Ms
	OppLaunched        int64
	Suspended          int64
	VCoresReservedMean float64
	VCoresUsedMean     float64
	MemMBReservedMean  float64
	MemMBUsedMean      float64
	SwapMs             Ms
	Events             int64
	EndMs              Ms
}

// Summary computes the outcome so far (final once Done).
func (s *Sim) Summary() Summary {
	sum := Summary{Stuck: s.stuck, Truncated: s.truncated, TasksKilled: s.stats.Killed, WastedMs: s.stats.WastedMs,
		OppLaunched: s.stats.OppLaunched, Suspended: s.stats.Suspended, Events: s.stats.Events, EndMs: s.now}
	first, last := Ms(math.MaxInt64), Ms(0)
	var wait, comp float64
	for _, j := range s.Jobs {
		if j.State != JobFuture && j.Spec.SubmitMs < first {
			first = j.Spec.SubmitMs
		}
		switch j.State {
		case JobDone:
			sum.JobsCompleted++
			wait += float64(j.StartMs - j.Spec.SubmitMs)
			comp += float64(j.FinishMs - j.Spec.SubmitMs)
			if j.FinishMs > last {
				last = j.FinishMs
			}
		case JobStuck:
			sum.JobsStuck++
		default:
			sum.JobsUnfinished++
		}
	}
	if sum.JobsCompleted > 0 {
		sum.MeanWaitMs = wait / float64(sum.JobsCompleted)
		sum.MeanCompletionMs = comp / float64(sum.JobsCompleted)
		sum.MakespanMs = last - first
	}
	if s.now > 0 {
		// Means over [0, Now]: the integrals run to the last event, and the
		// stretch since it (when a RunUntil stopped between events) is
		// added here without changing them.
		a := s.acct
		a.integrate(s.now)
		span := float64(s.now)
		sum.VCoresReservedMean = a.vcoreMsReserved / span
		sum.VCoresUsedMean = a.vcoreMsUsed / span
		sum.MemMBReservedMean = a.memMBMsReserved / span
		sum.MemMBUsedMean = a.memMBMsUsed / span
	}
	for _, n := range s.Nodes {
		sum.SwapMs += n.SwapMs
	}
	return sum
}

// JobResult is one job's outcome, for per-job tables.
type JobResult struct {
	ID        int32
	Name, App string
	Framework string
	Queue     string
	State     JobState
	SubmitMs  Ms
	AdmitMs   Ms
	StartMs   Ms
	FinishMs  Ms
	Tasks     int
	GoalMs    Ms
}

// JobResults returns every job's outcome in job order.
func (s *Sim) JobResults() []JobResult {
	out := make([]JobResult, 0, len(s.Jobs))
	for _, j := range s.Jobs {
		n := 0
		for _, st := range j.Stages {
			n += len(st.Tasks)
		}
		out = append(out, JobResult{ID: j.ID, Name: j.Spec.Name, App: j.Spec.App, Framework: j.Spec.Framework,
			Queue: j.Spec.Queue, State: j.State, SubmitMs: j.Spec.SubmitMs, AdmitMs: j.AdmitMs, StartMs: j.StartMs,
			FinishMs: j.FinishMs, Tasks: n, GoalMs: j.Spec.GoalMs})
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].ID < out[b].ID })
	return out
}
