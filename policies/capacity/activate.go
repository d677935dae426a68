package capacity

import (
	"math"

	"yarngym/env/sim"
	"yarngym/policies/base"
)

// Activation is the CapacityScheduler's AM limit: a submitted job becomes
// schedulable (activated; in yarngym, admitted: its AM is then requested)
// only while its queue's activated jobs' AMs plus its own fit the queue's AM
// limit, maximum-am-resource-percent of the queue's capacity or of its
// current limit if larger, rounded up to the minimum allocation, and its
// user's AM limit, the same share of the queue's capacity alone times the
// user-limit-factor. A queue with no activated job always takes one. A job
// refused does not hold the line: the ones behind it may still fit. An AM
// counts from activation until its job ends. The limit is checked when
// jobs arrive and end (LeafQueue.activateApplications runs on application
// add and remove), memory only (DefaultResourceCalculator).
//
// Reference: Hadoop 3.3.6 LeafQueue.activateApplications,
// calculateAndGetAMResourceLimitPerPartition, getUserAMResourceLimitPerPartition.
type Activation struct {
	q *Queues
	// What Admit derives from the cluster, kept for one of the engine's
	// passes over the waiting jobs (Handle.AdmitPass): every waiting job
	// would otherwise sum the active jobs again, a pass's cost the
	// waiting jobs times the active ones. Within a pass only admissions
	// change the cluster, each appending its job to Active with nothing
	// allocated yet, so the jobs past seen are added to the sums as they
	// come, in Active's order (the same sums, bit for bit, as computed
	// afresh; AM counts and memory are whole numbers besides). A new pass
	// keeps them too while nothing they count has changed (Handle.Epoch,
	// which admissions also move): the engine passes over the waiting jobs
	// at every job event (and, under DRESS, every control step).
	pass   int64
	epoch  int64
	seen   int
	byName map[string]*amCount
	per    []float64
	root   float64
}

// amCount is a queue's activated (or finishing) jobs and their AMs.
type amCount struct {
	active int
	amUsed sim.Res
}

// Passes implements sim.PassingAdmitter.
func (a *Activation) Passes() bool { return true }

// OnJobEvents implements sim.JobEventAdmitter: applications are activated
// on application add and remove (LeafQueue.addApplicationAttempt,
// removeApplicationAttempt), not at node heartbeats.
func (a *Activation) OnJobEvents() bool { return true }

// Admit implements sim.Admitter.
func (a *Activation) Admit(h sim.Handle, j *sim.Job) bool {
	q := a.q
	if q.MaxAMPercent < 0 {
		return true
	}
	name := base.QueueOf(j)
	q.of(name)
	a.sums(h)
	c := a.byName[name]
	if c == nil || c.active == 0 || c.amUsed.MemMB <= 0 {
		return true
	}
	mem := float64(h.Capacity().MemMB)
	// The queue's current limit: its max-capacity (and its parents'), less
	// what the other queues hold (ParentQueue's child limit).
	per, root := a.per, a.root
	i := q.index(name)
	qu := &q.queues[i]
	current := q.currentMB(i, mem, func(a int) float64 { return per[a] }, root)
	usable := math.Max(qu.capMB(h), current)
	am := float64(c.amUsed.MemMB + amOf(h, j).MemMB)
	step := float64(base.MinAllocation(h).MemMB)
	if am > normalizeUp(usable*q.MaxAMPercent, step) {
		return false
	}
	userLimit := math.Min(normalizeUp(qu.capMB(h)*q.MaxAMPercent*q.UserLimitFactor, step), normalizeUp(usable*q.MaxAMPercent, step))
	return am <= userLimit
}

// sums brings the per-queue AM counts and the queues' usage up to the
// cluster of this pass: afresh in a new pass in which something they count
// has changed (Handle.Epoch), else the jobs admitted since.
func (a *Activation) sums(h sim.Handle) {
	act := h.Active()
	pass := h.AdmitPass()
	if (pass != a.pass && h.Epoch() != a.epoch) || a.byName == nil || len(act) < a.seen {
		a.byName = map[string]*amCount{}
		// An ended job's application stays until its AM container is
		// reported complete (LeafQueue.removeApplicationAttempt).
		for _, o := range h.Finishing() {
			a.count(h, o)
		}
		a.per, a.root = a.q.usage(act)
		for _, o := range act {
			a.count(h, o)
		}
	} else {
		for _, o := range act[a.seen:] {
			a.count(h, o)
			a.q.jobIndex(o)
			a.growPer()
			a.root += a.q.addUsage(a.per, o)
		}
	}
	a.pass, a.seen, a.epoch = pass, len(act), h.Epoch()
	a.growPer()
}

// growPer gives per an entry, empty, for each queue named since it was
// summed.
func (a *Activation) growPer() {
	for len(a.per) < len(a.q.queues) {
		a.per = append(a.per, 0)
	}
}

func (a *Activation) count(h sim.Handle, o *sim.Job) {
	name := base.QueueOf(o)
	c := a.byName[name]
	if c == nil {
		c = &amCount{}
		a.byName[name] = c
	}
	c.active++
	c.amUsed = c.amUsed.Add(amOf(h, o))
}

// amOf is what job j's AM counts against the AM limit: its normalized
// request (a job without an AM, an unmanaged one: the minimum allocation).
func amOf(h sim.Handle, j *sim.Job) sim.Res {
	if j.AM == nil {
		return base.MinAllocation(h)
	}
	return h.Normalized(j.AM.Req)
}

// normalizeUp is DefaultResourceCalculator.multiplyAndNormalizeUp's last
// step: the memory rounded to the nearest MB, then up to a multiple of the
// minimum allocation.
func normalizeUp(mb, step float64) float64 {
	if step <= 0 {
		return math.Floor(mb + 0.5)
	}
	return math.Ceil(math.Floor(mb+0.5)/step) * step
}
