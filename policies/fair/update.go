package fair

import (
	"math"
	"slices"
	"strings"

	"yarngym/env/sim"
	"yarngym/policies/base"
)

// Update is the FairScheduler's update(), run every
// yarn.scheduler.fair.update-interval-ms (500 ms) on its own thread: it
// caches each job's demand (what it holds plus what it asks for) and
// recomputes the instantaneous fair shares, memory only (FairSharePolicy):
// the queues with runnable jobs split the cluster by weight within their
// min and max shares, and a queue's runnable jobs (those ended but not yet
// removed included) split its share equally (ComputeFairShares, shares.go). Between updates the scheduler sees demand as cached
// while usage is live, so a job offers itself for a container only while its
// cached demand differs from what it holds: a new job, or new asks (a
// MapReduce job's reducers after slow start), wait for the next update
// (FSLeafQueue.fetchAppsWithDemand, FSAppAttempt.getPendingDemand).
//
// Reference: Hadoop 3.3.6 FairScheduler.update, FSAppAttempt.updateDemand,
// FSLeafQueue.updateDemand, ComputeFairShares.computeShares.
type Update struct {
	IntervalMs float64
	conf       conf

	// demand is each job's demand cached at the last update, by job ID
	// (Offers reads it for every job on every heartbeat: a slice, not a
	// map), valid where its stamp is the update's; demanded lists the jobs
	// that have one.
	demand   []cachedDemand
	demanded []*sim.Job
	stamp    uint32 // this update's, counting from 1
	// shareMB is each queue's instantaneous fair share (memory), jobShare
	// each job's, as of the last update.
	shareMB  map[string]float64
	jobShare map[*sim.Job]float64
	// queueDemandMB is each queue's demand (memory) as of the last update,
	// its waiting (non-runnable) jobs' AMs included, capped at its max
	// share (FSLeafQueue.updateDemand).
	queueDemandMB map[string]int64
	queues        []string           // scratch
	equal         map[string]float64 // scratch: each queue's job share
	items         []share            // scratch
	out           []int64            // scratch
	jobsIn        map[string]int     // scratch: each queue's jobs (-1: a parent without its own)
	names         []string           // scratch: queueDemand's queues
	memo          shareMemo
}

// shareMemo remembers the shares computed at earlier updates. Both
// computations are pure functions of their inputs, which mostly repeat from
// one update to the next (the same queues and cluster memory, a handful of
// job counts), and each costs some fifty steps of doubling and bisection:
// an update every 500 ms made them a tenth of a simulated day's CPU.
type shareMemo struct {
	// groups holds the last update's computeShares calls, one per group
	// of sibling queues, in the order made.
	groups []groupShares
	// equal is equalShare's results by its arguments.
	equal map[equalKey]int64
}

type groupShares struct {
	items   []share
	totalMB int64
	out     []int64
}

type equalKey struct {
	n       int
	totalMB int64
}

// maxEqualMemo bounds shareMemo.equal (a long run under changing shares
// could add entries without end); past it the memo starts afresh.
const maxEqualMemo = 4096

// computeShares is computeShares for the k-th group of this update,
// reusing the last update's result when its inputs are the same.
func (m *shareMemo) computeShares(k int, items []share, totalMB int64, out []int64) {
	if k < len(m.groups) {
		g := &m.groups[k]
		if g.totalMB == totalMB && slices.Equal(g.items, items) {
			copy(out, g.out)
			return
		}
	} else {
		m.groups = append(m.groups, groupShares{})
	}
	computeShares(items, totalMB, out)
	g := &m.groups[k]
	g.items = append(g.items[:0], items...)
	g.totalMB = totalMB
	g.out = append(g.out[:0], out...)
}

// equalShare is equalShare, remembered.
func (m *shareMemo) equalShare(n int, totalMB int64) int64 {
	key := equalKey{n, totalMB}
	if v, ok := m.equal[key]; ok {
		return v
	}
	if m.equal == nil || len(m.equal) >= maxEqualMemo {
		m.equal = make(map[equalKey]int64)
	}
	v := equalShare(n, totalMB)
	m.equal[key] = v
	return v
}

func newUpdate(c conf) *Update {
	return &Update{conf: c, shareMB: map[string]float64{}, jobShare: map[*sim.Job]float64{},
		queueDemandMB: map[string]int64{}, equal: map[string]float64{}}
}

// ControlIntervalMs implements sim.Controller.
func (u *Update) ControlIntervalMs() sim.Ms { return sim.Ms(math.Round(u.IntervalMs)) }

// Control implements sim.Controller: one update().
func (u *Update) Control(h sim.Handle) {
	u.stamp++
	u.demanded = u.demanded[:0]
	clear(u.shareMB)
	clear(u.jobShare)
	u.queues = u.queues[:0]
	// Scratch kept from update to update: an update runs every 500 ms.
	if u.jobsIn == nil {
		u.jobsIn = map[string]int{}
	}
	clear(u.jobsIn)
	jobsIn := u.jobsIn
	// An ended job's application stays in its queue, and shares it, until
	// its AM container is reported complete (sim.Finishing).
	for _, jobs := range [2][]*sim.Job{h.Active(), h.Finishing()} {
		for _, j := range jobs {
			u.setDemand(j, demand(h, j))
			q := base.QueueOf(j)
			if jobsIn[q] == 0 {
				u.queues = append(u.queues, q)
			}
			jobsIn[q]++
		}
	}
	// The queues with runnable jobs split their parent's share (root's: the
	// cluster's memory; the others' share is 0), parents before children,
	// siblings in sorted order: the same sums every run
	// (FSParentQueue.recomputeShares).
	for _, q := range u.queues {
		for p := parentOf(q); p != "" && jobsIn[p] == 0; p = parentOf(p) {
			jobsIn[p] = -1 // a parent: active, no jobs of its own
			u.queues = append(u.queues, p)
		}
	}
	slices.SortFunc(u.queues, func(a, b string) int {
		if da, db := depth(a), depth(b); da != db {
			return da - db
		}
		return strings.Compare(a, b)
	})
	for lo, k := 0, 0; lo < len(u.queues); k++ {
		parent := parentOf(u.queues[lo])
		total := h.Capacity().MemMB
		if parent != "" {
			total = int64(u.shareMB[parent])
		}
		u.items, u.out = u.items[:0], u.out[:0]
		hi := lo
		for ; hi < len(u.queues) && parentOf(u.queues[hi]) == parent; hi++ {
			q := u.queues[hi]
			u.items = append(u.items, share{weight: u.conf.weight(q), minMB: u.conf.minShare(q).MemMB, maxMB: u.conf.maxShare(q).MemMB})
			u.out = append(u.out, 0)
		}
		u.memo.computeShares(k, u.items, total, u.out)
		for i, q := range u.queues[lo:hi] {
			u.shareMB[q] = float64(u.out[i])
		}
		lo = hi
	}
	// A queue's runnable jobs (weight 1, no min or max share) split its
	// share equally.
	// The same for every job of a queue: computed once per queue.
	clear(u.equal)
	for _, j := range h.Active() {
		q := base.QueueOf(j)
		e, ok := u.equal[q]
		if !ok {
			e = float64(u.memo.equalShare(jobsIn[q], int64(u.shareMB[q])))
			u.equal[q] = e
		}
		u.jobShare[j] = e
	}
	// Jobs held back by maxRunningApps are in their queue, not runnable:
	// their demand (their AM's request) is cached all the same
	// (FSLeafQueue.updateDemand walks the non-runnable applications too),
	// so one made runnable between updates is offered a node at once. Jobs
	// waiting on anything else (a paper's admission control) have not
	// reached the scheduler.
	for _, j := range h.Waiting() {
		if j.AM != nil && u.conf.capped(base.QueueOf(j)) {
			u.setDemand(j, h.Normalized(j.AM.Req))
		}
	}
	u.queueDemand()
}

// queueDemand caches each queue's demand, its jobs' cached demands (a
// parent's: its children's), capped at the queue's max share
// (FSLeafQueue/FSParentQueue.updateDemand).
func (u *Update) queueDemand() {
	clear(u.queueDemandMB)
	for _, j := range u.demanded {
		q := base.QueueOf(j)
		u.queueDemandMB[q] += u.demand[j.ID].res.MemMB
		for p := parentOf(q); p != ""; p = parentOf(p) {
			u.queueDemandMB[p] += 0 // present, filled from its children below
		}
	}
	names := u.names[:0]
	for q := range u.queueDemandMB {
		names = append(names, q)
	}
	// Children before parents.
	slices.SortFunc(names, func(a, b string) int {
		if da, db := depth(a), depth(b); da != db {
			return db - da
		}
		return strings.Compare(a, b)
	})
	for _, q := range names {
		d := min(u.queueDemandMB[q], u.conf.maxShare(q).MemMB)
		u.queueDemandMB[q] = d
		if p := parentOf(q); p != "" {
			u.queueDemandMB[p] += d
		}
	}
	clear(names)
	u.names = names[:0]
}

// demand is what job j holds plus the normalized requests it asks for now.
func demand(h sim.Handle, j *sim.Job) sim.Res {
	d := j.Alloc.Sub(j.OppAlloc)
	if j.AM != nil && j.AM.State == sim.TaskPending {
		return d.Add(h.Normalized(j.AM.Req))
	}
	if !h.HasPending(j) {
		return d
	}
	for _, st := range j.Stages {
		if k := st.Asking(); k > 0 {
			r := h.Normalized(st.Spec.Req)
			d = d.Add(sim.Res{VCores: r.VCores * int64(k), MemMB: r.MemMB * int64(k)})
		}
	}
	return d
}

// Offers reports whether job j offers itself for a container: its demand as
// of the last update differs from what it holds now (base.Allocator's
// Considers).
func (u *Update) Offers(_ sim.Handle, j *sim.Job) bool {
	return u.cached(j) != j.Alloc.Sub(j.OppAlloc)
}

// cachedDemand is a job's demand as of the update stamped.
type cachedDemand struct {
	stamp uint32
	res   sim.Res
}

// setDemand caches job j's demand d for this update.
func (u *Update) setDemand(j *sim.Job, d sim.Res) {
	if int(j.ID) >= len(u.demand) {
		u.demand = append(u.demand, make([]cachedDemand, int(j.ID)+1-len(u.demand))...)
	}
	if u.demand[j.ID].stamp != u.stamp {
		u.demanded = append(u.demanded, j)
	}
	u.demand[j.ID] = cachedDemand{stamp: u.stamp, res: d}
}

// cached is job j's demand as of the last update (none: zero).
func (u *Update) cached(j *sim.Job) sim.Res {
	if int(j.ID) < len(u.demand) && u.demand[j.ID].stamp == u.stamp {
		return u.demand[j.ID].res
	}
	return sim.Res{}
}

// QueueShareMB is queue q's instantaneous fair share (memory) as of the
// last update; a queue that had no job then has none.
func (u *Update) QueueShareMB(q string) float64 { return u.shareMB[q] }

// JobShareMB is job j's instantaneous fair share (memory) as of the last
// update.
func (u *Update) JobShareMB(j *sim.Job) float64 { return u.jobShare[j] }

// QueueDemandMB is queue q's demand (memory) as of the last update.
func (u *Update) QueueDemandMB(q string) int64 { return u.queueDemandMB[q] }

// JobFinished implements sim.JobListener: a finished job leaves the cache.
func (u *Update) JobFinished(_ sim.Handle, j *sim.Job) {
	if int(j.ID) < len(u.demand) && u.demand[j.ID].stamp == u.stamp {
		u.demand[j.ID].stamp = 0 // no longer cached (it stays in demanded
		// until the next update, counted in this one's queue demands)
	}
	delete(u.jobShare, j)
}

// JobArrived implements sim.JobListener: a job that has just arrived has
// no cached demand. The cache is by job ID, and a policy given to several
// runs sees the same IDs again: another run's entry must not count.
func (u *Update) JobArrived(_ sim.Handle, j *sim.Job) {
	if int(j.ID) < len(u.demand) {
		u.demand[j.ID].stamp = 0
	}
}
