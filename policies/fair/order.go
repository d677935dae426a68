package fair

import (
	"cmp"
	"yarngym/env/sim"
	"yarngym/policies/base"
)

// Order is FairSharePolicy's comparator, at each level of the queue
// hierarchy (two jobs' queues are compared as the children of their lowest
// common ancestor that hold them, a parent's usage and demand being its
// children's): queues below their min share
// (min(minResources, demand as of the last update)) first, the one furthest
// below it first; then by memory held per unit of weight, then by name; jobs
// in a queue by memory held (a job's weight is 1, its min share none), then
// by submission (start time, then application id). Usage is live, as in the
// FairScheduler.
//
// Memory held counts every container, opportunistic ones too (OPERA's, the
// only policy that launches them): OPERA sorts its task queue "based on the
// Fair queuing discipline (i.e., the deficit between their deserved fair
// share of cluster resources and actual occupied resources)" (Sec. III-E),
// and its scheduler, built on YARN 2.5's FairScheduler (Sec. IV), gives an
// opportunistic container to an application as any other, which
// FSAppAttempt counts in the usage FairSharePolicy compares. Counting
// guaranteed memory only, jobs whose maps ran opportunistically looked
// poorer than jobs whose reducers held guaranteed containers and came first
// for every container, so the maps of the latter got none until their AMs'
// unconditional preemption killed those reducers (opera-spark, AGGRESSIVE,
// seed 1: at 1,240 s job 6 had no map running and its AM preempted 35
// reducers, while 58 opportunistic maps of jobs 2, 3 and 5 ran; jobs 5, 3
// and 2 followed within 50 s). The limits, the AM share, starvation and the
// cached demand (limits.go, amshare.go, reserve.go, update.go) still count
// guaranteed containers only: they bound what the guaranteed capacity
// holds, and OPERA's guaranteed availability leaves opportunistic tasks out
// (GA = C - the normal tasks' demands, Eq. 6). Not modelled: its first rule,
// a schedulable with no demand last (an active job always holds or asks for
// its AM).
type Order struct {
	conf conf
	u    *Update
	// stats holds the totals of each queue with active jobs (a scenario has
	// a handful of queues: a linear search beats hashing names for every
	// active job).
	stats     []queueStat
	run       sim.Handle // the run, as the engine last handed it over
	fresh     bool       // stats hold this ranking's totals
	onPrepare func()     // told of each ranking (the AM limit's totals go stale)
}

// queueStat is one queue's totals.
type queueStat struct {
	name  string
	usage float64 // memory held
}

// stat returns the totals of queue q, adding a zero entry if it has none.
func (o *Order) stat(q string) *queueStat {
	for i := range o.stats {
		if o.stats[i].name == q {
			return &o.stats[i]
		}
	}
	o.stats = append(o.stats, queueStat{name: q})
	return &o.stats[len(o.stats)-1]
}

// usage is queue q's memory held (0 for a queue with no active job).
func (o *Order) usage(q string) float64 {
	for i := range o.stats {
		if o.stats[i].name == q {
			return o.stats[i].usage
		}
	}
	return 0
}

// newOrder returns the Fair order for the allocation file's queues, their
// demands read from u.
func newOrder(c conf, u *Update) *Order { return &Order{conf: c, u: u} }

// Prepare implements base.Order. The per-queue totals are computed only
// when two queues are compared (with one queue, never).
func (o *Order) Prepare(h sim.Handle) {
	o.run = h
	o.fresh = false
	if o.onPrepare != nil {
		o.onPrepare()
	}
}

// IdleNoop implements sim.IdleNoop: Prepare only marks totals stale, and
// they are recomputed before any use.
func (o *Order) IdleNoop() bool { return true }

// queueUsage totals what each queue's active jobs hold, in the queue and in
// each of its parents (a parent's usage is its children's).
func (o *Order) queueUsage() {
	o.stats = o.stats[:0]
	var st *queueStat
	for _, j := range o.run.Active() {
		q := base.QueueOf(j)
		if st == nil || st.name != q {
			st = o.stat(q)
		}
		u := float64(j.Alloc.MemMB)
		st.usage += u
		for p := parentOf(q); p != ""; p = parentOf(p) {
			o.stat(p).usage += u
		}
	}
	o.fresh = true
}

// Less implements base.Order.
func (o *Order) Less(_ sim.Handle, a, b *sim.Job) bool {
	qa, qb := base.QueueOf(a), base.QueueOf(b)
	if qa != qb {
		// Queues in different places are compared where their paths part
		// (FSParentQueue.assignContainer sorts its children).
		qa, qb = siblings(qa, qb)
	}
	if qa != qb {
		if !o.fresh {
			o.queueUsage()
		}
		ua, ub := o.usage(qa), o.usage(qb)
		if c := o.compareMinShare(qa, qb, ua, ub); c != 0 {
			return c < 0
		}
		ra, rb := ua/o.conf.weight(qa), ub/o.conf.weight(qb)
		if ra != rb {
			return ra < rb
		}
		return qa < qb
	}
	ua, ub := a.Alloc.MemMB, b.Alloc.MemMB
	if ua != ub {
		return ua < ub
	}
	return a.ID < b.ID
}

// compareMinShare is FairSharePolicy's compareMinShareUsage for queues a
// and b holding ua and ub MB: a queue below min(minShare, demand) comes
// first; of two below, the one with the lower usage over that share (over
// nothing if it is 1 MB or less).
func (o *Order) compareMinShare(a, b string, ua, ub float64) int {
	ma := float64(min(o.conf.minShare(a).MemMB, o.u.QueueDemandMB(a)))
	mb := float64(min(o.conf.minShare(b).MemMB, o.u.QueueDemandMB(b)))
	needyA, needyB := ua < ma, ub < mb
	switch {
	case needyA && !needyB:
		return -1
	case needyB && !needyA:
		return 1
	case !needyA:
		return 0
	}
	if ma > 1 {
		ua /= ma
	}
	if mb > 1 {
		ub /= mb
	}
	return cmp.Compare(ua, ub)
}
