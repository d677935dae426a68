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
	// Processed counts the events the engine handled: Events less the
	// heartbeats of idle nodes it skipped (idle.go).
	Processed int64
}

// Stats returns the counters so far.
func (s *Sim) Stats() Stats {
	st := s.stats
	st.Events += s.virtualEvents()
	return st
}

// accounting integrates cluster totals over time, exactly. The sums are
// kept exactly (to about 2^-106 relative, see sum), so they do not depend on
// how an interval is split: each total is integrated up to now just before
// it changes (resv, cpu, mem) and when it is read (integrate), not at every
// event.
type accounting struct {
	allocG  Res
	allocO  Res
	cpuUsed float64 // CPU actually consumed, capped per node at capacity
	memUsed float64 // actual memory demand

	// The time each integral has been brought up to.
	resvMs, cpuMs, memMs Ms

	vcoreMsReserved sum
	vcoreMsUsed     sum
	memMBMsReserved sum
	memMBMsUsed     sum
}

// resv integrates the reserved totals up to now (before allocG or allocO
// changes).
func (a *accounting) resv(now Ms) {
	if dt := float64(now - a.resvMs); dt > 0 {
		a.resvMs = now
		a.vcoreMsReserved.addProduct(dt, float64(a.allocG.VCores+a.allocO.VCores))
		a.memMBMsReserved.addProduct(dt, float64(a.allocG.MemMB+a.allocO.MemMB))
	}
}

// cpu integrates the CPU used up to now (before cpuUsed changes).
func (a *accounting) cpu(now Ms) {
	if dt := float64(now - a.cpuMs); dt > 0 {
		a.cpuMs = now
		a.vcoreMsUsed.addProduct(dt, a.cpuUsed)
	}
}

// mem integrates the memory used up to now (before memUsed changes).
func (a *accounting) mem(now Ms) {
	if dt := float64(now - a.memMs); dt > 0 {
		a.memMs = now
		a.memMBMsUsed.addProduct(dt, a.memUsed)
	}
}

// integrate brings every integral up to now (before they are read).
func (a *accounting) integrate(now Ms) {
	a.resv(now)
	a.cpu(now)
	a.mem(now)
}

// sum accumulates products in double-double arithmetic: each product is
// split exactly into its float64 value and rounding error (FMA), and the
// running sum carries its own rounding error in lo. The result is the exact
// sum rounded to float64 unless the sum is within about 2^-106 of a rounding
// boundary, so adding x*(a+b) or x*a + x*b gives the same float64.
type sum struct{ hi, lo float64 }

func (s *sum) addProduct(x, y float64) {
	p := x * y
	e := math.FMA(x, y, -p) // p + e = x*y exactly
	t := s.hi + p
	bp := t - s.hi
	err := (s.hi - (t - bp)) + (p - bp) // s.hi + p = t + err exactly
	lo := s.lo + err + e
	s.hi = t + lo // renormalise: hi holds the float64 sum, lo the rest
	s.lo = lo - (s.hi - t)
}

func (s sum) value() float64 { return s.hi + s.lo }

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
	return a.vcoreMsUsed.value()
}

// Capacity returns the cluster's total capacity.
func (s *Sim) Capacity() Res { return s.capacity }

// Allocated is what the cluster's guaranteed containers hold now.
func (s *Sim) Allocated() Res { return s.acct.allocG }

// TaskRecord is one task attempt, as it ended. A run that writes its
// tasks keeps one for every attempt of every task: the small fields are
// packed together (48 bytes, not 64).
type TaskRecord struct {
	Job       int32
	Attempt   int32
	Node      int32
	Kind      TaskKind
	Container ContainerKind
	Locality  Locality
	Outcome   Outcome
	Stage     int
	Index     int
	StartMs   Ms
	EndMs     Ms
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
	StuckReason        string // why the run ended stuck: a stall or a livelock
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
	s.acct.integrate(s.now)
	sum := Summary{Stuck: s.stuck, StuckReason: s.stuckReason, Truncated: s.truncated, TasksKilled: s.stats.Killed, WastedMs: s.stats.WastedMs,
		OppLaunched: s.stats.OppLaunched, Suspended: s.stats.Suspended, Events: s.stats.Events + s.virtualEvents(), EndMs: s.now}
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
		// Means over [0, Now] (integrated to Now above).
		a := &s.acct
		span := float64(s.now)
		sum.VCoresReservedMean = a.vcoreMsReserved.value() / span
		sum.VCoresUsedMean = a.vcoreMsUsed.value() / span
		sum.MemMBReservedMean = a.memMBMsReserved.value() / span
		sum.MemMBUsedMean = a.memMBMsUsed.value() / span
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
		out = append(out, JobResult{ID: j.ID, Name: j.Spec.Name, App: j.Spec.App, Framework: j.Spec.Framework,
			Queue: j.Spec.Queue, State: j.State, SubmitMs: j.Spec.SubmitMs, AdmitMs: j.AdmitMs, StartMs: j.StartMs,
			FinishMs: j.FinishMs, Tasks: j.Spec.TaskCount(), GoalMs: j.Spec.GoalMs})
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].ID < out[b].ID })
	return out
}
