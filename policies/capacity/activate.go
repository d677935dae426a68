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
type Activation struct{ q *Queues }

// Passes implements sim.PassingAdmitter.
func (a *Activation) Passes() bool { return true }

// Admit implements sim.Admitter.
func (a *Activation) Admit(h sim.Handle, j *sim.Job) bool {
	q := a.q
	if q.MaxAMPercent < 0 {
		return true
	}
	name := base.QueueOf(j)
	qu := q.of(name)
	var amUsed sim.Res
	active := 0
	for _, o := range h.Active() {
		if base.QueueOf(o) != name {
			continue
		}
		active++
		amUsed = amUsed.Add(amOf(h, o))
	}
	// An ended job's application stays until its AM container is
	// reported complete (LeafQueue.removeApplicationAttempt).
	for _, o := range h.Finishing() {
		if base.QueueOf(o) == name {
			active++
			amUsed = amUsed.Add(amOf(h, o))
		}
	}
	if active == 0 || amUsed.MemMB <= 0 {
		return true
	}
	mem := float64(h.Capacity().MemMB)
	// The queue's current limit: its max-capacity (and its parents'), less
	// what the other queues hold (ParentQueue's child limit).
	per, root := q.usage(h.Active())
	i := q.index(name)
	qu = &q.queues[i]
	current := q.currentMB(i, mem, func(a int) float64 { return per[a] }, root)
	usable := math.Max(qu.capMB(h), current)
	am := float64(amUsed.MemMB + amOf(h, j).MemMB)
	step := float64(base.MinAllocation(h).MemMB)
	if am > normalizeUp(usable*q.MaxAMPercent, step) {
		return false
	}
	userLimit := math.Min(normalizeUp(qu.capMB(h)*q.MaxAMPercent*q.UserLimitFactor, step), normalizeUp(usable*q.MaxAMPercent, step))
	return am <= userLimit
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
