package ikayak

import (
	"math"
	"slices"

	"yarngym/env/sim"
)

// Suspender is iKayak's dependency-aware resource adjustment.
//
// Reference: iKayak Sec. 3.2. The delay factor lambda = R_Spark / (R_Spark +
// R_MR) is the share of the resource allocated to Spark applications (here
// vCores, the resource a suspension frees: assumed, the paper does not name
// the dimension); it is "event driven by application submissions" and is
// also refreshed at every control cycle. Every control interval T, the reduce
// tasks whose allocated resource is not used "due to the delay of their map
// task execution" (reducers idling in shuffle, waiting for map outputs, while
// their job still has maps to finish) are suspended for
//
//	T_suspend = (lambda^v - theta) x T
//
// (no suspension when that is not positive): their CPU is released at once,
// their memory kept (Sim.Suspend): it "cannot be released immediately". But
// "the related data of the suspended reduce JVM can be swapped out by the
// operating system with overhead", the overhead theta accounts for in
// T_suspend: with Swap on, half the measured suspend-and-resume overhead
// (Sec. 5.7: "2.7 seconds to suspend and resume a reduce task") after the
// suspension the JVM is paged out and its memory released (Sim.SwapOut), and
// the resumed reducer spends the other half paging it back in. They are
// resumed when T_suspend has passed, at the first heartbeat of their node
// where their vCores (and swapped-out memory) fit again. While a job's
// reducers are suspended, iKayak assigns that job's map tasks to the
// resource they released (Assign, a PreStep of the Placer).
type Suspender struct {
	On        float64 // parameter suspend (0/1)
	V         float64 // parameter suspend_v
	Theta     float64 // parameter suspend_theta
	T         float64 // parameter suspend_interval_s (T, seconds)
	Swap      float64 // parameter suspend_swap (0/1)
	OverheadS float64 // parameter suspend_overhead_s: suspend + resume (s)

	lambda    float64
	lastS     float64 // the last T_suspend, seconds
	suspended []*sim.Task
	until     map[int32]sim.Ms // task ID -> resume time
	swapAt    map[int32]sim.Ms // task ID -> when its memory is paged out
	total     int64
	// Diagnostics (Fig. 10): suspensions whose job still had maps waiting
	// for resources (the released resource can run them), and resumptions
	// after the job's maps had all finished (the reducer idled suspended).
	withPending, lateResumes int64
}

// NewSuspender returns a suspender with the paper's defaults (Sec. 4.2).
func NewSuspender() *Suspender {
	return &Suspender{On: 1, V: 1, Theta: 0.15, T: 300, Swap: 1, OverheadS: 2.7, until: map[int32]sim.Ms{}, swapAt: map[int32]sim.Ms{}}
}

// Duration is T_suspend = (lambda^v - theta) x T in seconds, 0 when that is
// not positive.
func (su *Suspender) Duration(lambda float64) float64 {
	d := (math.Pow(lambda, su.V) - su.Theta) * su.T
	if !(d > 0) {
		return 0
	}
	return d
}

// Lambda computes the delay factor from the vCores held by the active
// Spark and MapReduce jobs.
func Lambda(h sim.Handle) float64 {
	var spark, mr int64
	for _, j := range h.Active() {
		switch j.Spec.Framework {
		case "spark":
			spark += j.Alloc.VCores
		case "mapreduce":
			mr += j.Alloc.VCores
		}
	}
	if spark+mr == 0 {
		return 0
	}
	return float64(spark) / float64(spark+mr)
}

// ControlIntervalMs implements sim.Controller: the control interval T.
func (su *Suspender) ControlIntervalMs() sim.Ms { return sim.Ms(math.Max(su.T, 1) * 1000) }

// Control suspends the idle reducers for T_suspend.
func (su *Suspender) Control(h sim.Handle) {
	su.lambda = Lambda(h)
	if su.On == 0 {
		return
	}
	d := su.Duration(su.lambda)
	su.lastS = d
	if d <= 0 {
		return
	}
	until := h.Now() + sim.Ms(d*1000)
	// A snapshot: Suspend brings its node up to now, which can finish a
	// task and with it a job, removing that job from s.Active() mid-loop.
	for _, j := range slices.Clone(h.Active()) {
		if len(j.Stages) < 2 || j.Stages[0].Done == len(j.Stages[0].Tasks) {
			continue
		}
		for _, st := range j.Stages[1:] {
			if st.Spec.Kind != sim.KindReduce || st.Running == 0 {
				continue
			}
			for _, t := range st.Tasks {
				if t.State == sim.TaskRunning && t.Gated() && h.Suspend(t) == nil {
					su.suspended = append(su.suspended, t)
					su.until[t.ID] = until
					if su.Swap != 0 {
						su.swapAt[t.ID] = h.Now() + su.half()
					}
					su.total++
					if j.Stages[0].Pending > 0 {
						su.withPending++
					}
				}
			}
		}
	}
}

// half is half the suspend-and-resume overhead: the swap-out, or swap-in.
func (su *Suspender) half() sim.Ms { return sim.Ms(math.Max(su.OverheadS, 0) * 500) }

// Monitor implements sim.NodeMonitor: page out n's suspended reducers whose
// swap-out time has come, and resume those whose suspension has run out, if
// their resources fit.
func (su *Suspender) Monitor(h sim.Handle, n *sim.Node) {
	keep := su.suspended[:0]
	for _, t := range su.suspended {
		if !t.Suspended() {
			delete(su.until, t.ID) // killed (reducer preemption) meanwhile
			delete(su.swapAt, t.ID)
			continue
		}
		if t.Node != n {
			keep = append(keep, t)
			continue
		}
		if h.Now() >= su.until[t.ID] && h.Resume(t) == nil {
			if ms := t.Job.Stages[0]; ms.Done == len(ms.Tasks) {
				su.lateResumes++
			}
			delete(su.until, t.ID)
			delete(su.swapAt, t.ID)
			continue
		}
		if at, ok := su.swapAt[t.ID]; ok && h.Now() >= at && h.Now() < su.until[t.ID] {
			if err := h.SwapOut(t, su.half()); err != nil {
				panic(err)
			}
			delete(su.swapAt, t.ID)
		}
		keep = append(keep, t)
	}
	clear(su.suspended[len(keep):])
	su.suspended = keep
}

// Left is how much longer reducer t stays suspended, in seconds.
func (su *Suspender) Left(h sim.Handle, t *sim.Task) float64 {
	if !t.Suspended() {
		return 0
	}
	at, ok := su.until[t.ID]
	if !ok {
		return 0
	}
	return math.Max(0, float64(at-h.Now())/1000)
}

// JobArrived implements sim.JobListener (lambda is event driven by
// application submissions).
func (su *Suspender) JobArrived(h sim.Handle, _ *sim.Job) { su.lambda = Lambda(h) }

// JobFinished implements sim.JobListener.
func (su *Suspender) JobFinished(h sim.Handle, _ *sim.Job) { su.lambda = Lambda(h) }

// Assign implements PreStep: the vCores released by a job's suspended
// reducers on n go to that job's pending maps first (node-local ones first).
func (su *Suspender) Assign(h sim.Handle, n *sim.Node, pl *Placer) {
	if len(su.suspended) == 0 || (n.Reserved != nil) {
		return
	}
	for _, r := range su.suspended {
		if r.Node != n || !r.Suspended() {
			continue
		}
		j := r.Job
		ms := j.Stages[0]
		if ms.Spec.Kind != sim.KindMap || ms.Pending == 0 {
			continue
		}
		for _, local := range []bool{true, false} {
			for _, t := range ms.Tasks {
				if !h.FitsFree(t.Req, n) {
					break
				}
				if t.State != sim.TaskPending || !h.Requestable(t) || (local && h.LocalityOf(t, n) != sim.NodeLocal) {
					continue
				}
				if !pl.Allowed(h, t, n) {
					break
				}
				if err := pl.Launch(h, t, n, t.Req); err != nil {
					panic(err)
				}
			}
		}
	}
}

// LambdaNow returns the last delay factor.
func (su *Suspender) LambdaNow() float64 { return su.lambda }

// Suspended returns the number of reducers suspended now.
func (su *Suspender) Suspended() int {
	k := 0
	for _, t := range su.suspended {
		if t.Suspended() {
			k++
		}
	}
	return k
}
