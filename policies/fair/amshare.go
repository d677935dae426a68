package fair

import (
	"math"

	"yarngym/env/sim"
	"yarngym/policies/base"
)

// AMShare is the FairScheduler's maxAMShare: a job whose AM is not running
// yet is passed over while the queue's AMs plus its own would exceed
// MaxAMShare of the queue's instantaneous fair share (FSLeafQueue.canRunAppAM,
// computeMaxAMResource). Fair shares are computed on memory only
// (FairSharePolicy), so a queue's share has no vCores and the limit takes
// the cluster's currently unallocated vCores in their place: on a busy
// cluster few AMs start, however much memory the queue's share holds. Both
// components are rounded up. A job's AM counts against its queue from its
// allocation until the job ends (amResourceUsage is released when the
// attempt is removed). A negative MaxAMShare switches it off (Hadoop: -1).
type AMShare struct {
	MaxAMShare float64
	u          *Update
	conf       conf
	// am holds each queue's running AMs' resources, taken once per heartbeat
	// (Prepare) and kept current through Launched within it.
	am    map[string]sim.Res
	fresh bool
}

// Prepare marks the per-queue AM totals stale (base.Allocator calls the
// order's Prepare once per ranking; AMShare takes them when first asked).
func (l *AMShare) stale() { l.fresh = false }

func (l *AMShare) take(h sim.Handle) {
	clear(l.am)
	for _, j := range h.Active() {
		if j.AM != nil && j.AM.State == sim.TaskRunning {
			q := base.QueueOf(j)
			l.am[q] = l.am[q].Add(j.AM.Alloc)
		}
	}
	// An ended job's AM counts until its application is removed, when its
	// node reports the AM container complete (FSLeafQueue.removeApp).
	for _, j := range h.Finishing() {
		q := base.QueueOf(j)
		l.am[q] = l.am[q].Add(h.Normalized(j.AM.Req))
	}
	l.fresh = true
}

// Limit is queue q's AM limit now (FSLeafQueue.computeMaxAMResource): a
// fair share of 0 (memory; vCores always, shares being memory only) is
// replaced by the cluster's unallocated resources, within the queue's max
// share.
func (l *AMShare) Limit(h sim.Handle, q string) sim.Res {
	avail := h.Capacity().Sub(h.Allocated())
	maxShare := l.conf.maxShare(q)
	mem := l.u.QueueShareMB(q)
	if mem == 0 {
		mem = float64(min(max(avail.MemMB, 0), maxShare.MemMB))
	}
	vcores := float64(min(max(avail.VCores, 0), maxShare.VCores))
	return sim.Res{MemMB: int64(math.Ceil(mem * l.MaxAMShare)), VCores: int64(math.Ceil(vcores * l.MaxAMShare))}
}

// Allow implements base.Limit.
func (l *AMShare) Allow(h sim.Handle, t *sim.Task, _ *sim.Node) bool {
	if t.Kind != sim.KindAM || l.MaxAMShare < 0 {
		return true
	}
	if !l.fresh {
		l.take(h)
	}
	q := base.QueueOf(t.Job)
	return l.am[q].Add(h.Normalized(t.Req)).Fits(l.Limit(h, q))
}

// Launched keeps the AM totals current within a heartbeat.
func (l *AMShare) Launched(_ sim.Handle, t *sim.Task) {
	if t.Kind == sim.KindAM && l.fresh {
		q := base.QueueOf(t.Job)
		l.am[q] = l.am[q].Add(t.Alloc)
	}
}

// vcoresShare is the running AMs' share of the cluster's vCores.
func (l *AMShare) vcoresShare(h sim.Handle) float64 {
	var v int64
	for _, j := range h.Active() {
		if j.AM != nil && j.AM.State == sim.TaskRunning {
			v += j.AM.Alloc.VCores
		}
	}
	return float64(v) / float64(h.Capacity().VCores)
}

// headroom is what the FairScheduler tells job j's AM it may still get
// (FSAppAttempt.getHeadroom, FairSharePolicy.getHeadroom): the cluster's
// unallocated resources within what its queue's max share leaves, and in
// memory no more than what its queue's fair share leaves of the queue's
// usage.
func (l *AMShare) headroom(h sim.Handle, j *sim.Job) sim.Res {
	free := h.Capacity().Sub(h.Allocated())
	q := base.QueueOf(j)
	if m := l.conf.maxShare(q); m.MemMB < math.MaxInt64 || m.VCores < math.MaxInt64 {
		used := queueUsage(h, nil)[q]
		free = sim.Res{MemMB: min(free.MemMB, m.MemMB-used.MemMB), VCores: min(free.VCores, m.VCores-used.VCores)}
	}
	free = sim.Res{VCores: max(free.VCores, 0), MemMB: max(free.MemMB, 0)}
	share := l.u.QueueShareMB(q)
	if len(l.u.shareMB) <= 1 && share >= float64(h.Capacity().MemMB) {
		return free // one queue: its share is the cluster
	}
	var used int64
	for _, o := range h.Active() {
		if base.QueueOf(o) == q {
			used += o.Alloc.MemMB - o.OppAlloc.MemMB
		}
	}
	free.MemMB = min(free.MemMB, max(int64(share)-used, 0))
	return free
}
