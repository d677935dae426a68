package capacity

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"yarngym/env/sim"
	"yarngym/policies/base"
)

// Queues holds the queue configuration and each queue's usage at this
// heartbeat, and is the CapacityScheduler's order and its per-request
// limits: max-capacity and the user limit.
type Queues struct {
	// queues in configuration order, then any queue a job names that is not
	// configured (capacity and max-capacity 0: it never runs). A scenario
	// has a handful of queues, so a linear search by name is cheaper than
	// hashing on every job of every heartbeat.
	queues []queue
	// MaxAMPercent is maximum-am-resource-percent; negative switches it off.
	MaxAMPercent float64
	// Calculator is yarn.scheduler.capacity.resource-calculator: 0 the
	// DefaultResourceCalculator (memory only), 1 the DominantResourceCalculator.
	Calculator float64
	// UserLimitFactor is user-limit-factor: one user may hold this many
	// times the queue's capacity (all jobs here are one user's).
	UserLimitFactor float64
	run             sim.Handle // the run, as the engine last handed it over
	// jobQueue caches each job's queue index plus one (0: not looked up
	// yet), by job ID (a run's IDs count up from 0): the ranking compares
	// queues on every pair of jobs it sorts, and reading the index here
	// costs neither the job's spec nor a name comparison.
	jobQueue []int32
	present  []int // Keys: the queues of the jobs ranked, in rank order
}

// queue is one queue's configuration and its usage at this heartbeat. A
// queue PARENT.CHILD is CHILD of PARENT (Hadoop's root.PARENT.CHILD); its
// capacity and max-capacity are kept absolute, shares of the cluster
// (CSQueueUtils: a child's relative ones times its parent's absolute ones).
type queue struct {
	name             string
	capacity, maxCap float64
	configured       bool
	parent           int // index of the parent queue, -1 under root
	// used is what the queue's jobs hold, plus the requests they have
	// reserved nodes for (a reservation is charged to the queue and its
	// user: LeafQueue.allocateResource).
	used sim.Res
}

// of returns the queue named name, adding an unconfigured one if needed.
func (q *Queues) of(name string) *queue {
	for i := range q.queues {
		if q.queues[i].name == name {
			return &q.queues[i]
		}
	}
	q.queues = append(q.queues, queue{name: name, parent: -1})
	return &q.queues[len(q.queues)-1]
}

// Prepare implements base.Order: each queue's usage, reservations included.
func (q *Queues) Prepare(h sim.Handle) {
	if q.run != h {
		q.jobQueue = q.jobQueue[:0] // another run's jobs
	}
	q.run = h
	for i := range q.queues {
		q.queues[i].used = sim.Res{}
	}
	// An ended job's application holds its AM container, in its queue,
	// until it is removed (sim.Finishing).
	// A parent's usage is its children's.
	for _, jobs := range [2][]*sim.Job{h.Active(), h.Finishing()} {
		for _, j := range jobs {
			q.charge(q.jobIndex(j), j.Alloc.Sub(j.OppAlloc))
		}
	}
	for _, n := range h.ReservedNodes() {
		q.charge(q.jobIndex(n.Reserved.Job), h.Normalized(n.Reserved.Req))
	}
}

// capMB is the queue's guaranteed memory, at least the minimum allocation.
func (qu *queue) capMB(h sim.Handle) float64 {
	return math.Max(qu.capacity*float64(h.Capacity().MemMB), float64(base.MinAllocation(h).MemMB))
}

// usedCapacity is used over guaranteed, memory only (CSQueueUtils).
func (qu *queue) usedCapacity(h sim.Handle) float64 {
	if qu.capacity <= 0 {
		return math.Inf(1)
	}
	return float64(qu.used.MemMB) / qu.capMB(h)
}

// Less implements base.Order: the least used queue (used over guaranteed
// capacity, memory) first, ties to the larger capacity, then configuration
// order (PriorityUtilizationQueueOrderingPolicy); a queue's jobs first in,
// first out (FifoOrderingPolicy: priority, then application id).
func (q *Queues) Less(h sim.Handle, a, b *sim.Job) bool {
	if c := q.compareQueues(h, q.jobIndex(a), q.jobIndex(b)); c != 0 {
		return c < 0
	}
	return a.ID < b.ID
}

// compareQueues is Less between queues i and k: -1 when i's jobs go first,
// 1 when k's do, 0 when i is k or one holds the other (their jobs then go
// by application id).
func (q *Queues) compareQueues(h sim.Handle, i, k int) int {
	if i == k {
		return 0
	}
	// Queues in different places are compared where their paths part
	// (ParentQueue sorts its children).
	ia, ib := q.siblings(i, k)
	if ia == ib {
		return 0
	}
	used := (*queue).usedCapacity
	if q.dominant() {
		used = (*queue).usedCapacityDominant
	}
	if c := cmp.Compare(used(&q.queues[ia], h), used(&q.queues[ib], h)); c != 0 {
		return c
	}
	if c := cmp.Compare(q.queues[ib].capacity, q.queues[ia].capacity); c != 0 {
		return c // the larger capacity first
	}
	return cmp.Compare(ia, ib)
}

// Keys implements base.KeyOrder: the rank of the job's queue among the
// jobs' queues (by compareQueues), then the application id. Where one of
// the jobs' queues holds another, Less's queue order is no ranking of
// queues (a parent's jobs tie with each child's) and Keys declines.
func (q *Queues) Keys(h sim.Handle, jobs []*sim.Job, keys []uint64) bool {
	q.present = q.present[:0]
	for x, j := range jobs {
		i := q.jobIndex(j)
		keys[x] = uint64(i) // the queue for now, its rank below
		if !slices.Contains(q.present, i) {
			q.present = append(q.present, i)
		}
	}
	if len(q.present) > 1 {
		for x, i := range q.present {
			for _, k := range q.present[x+1:] {
				if q.compareQueues(h, i, k) == 0 {
					return false
				}
			}
		}
		slices.SortFunc(q.present, func(i, k int) int { return q.compareQueues(h, i, k) })
	}
	for x, j := range jobs {
		keys[x] = uint64(slices.Index(q.present, int(keys[x])))<<32 | uint64(j.ID)
	}
	return true
}

// jobIndex returns the index of job j's queue (see jobQueue).
func (q *Queues) jobIndex(j *sim.Job) int {
	q.jobQueue = base.ByJobID(q.jobQueue, j.ID)
	if k := q.jobQueue[j.ID]; k > 0 {
		return int(k) - 1
	}
	i := q.index(base.QueueOf(j))
	q.jobQueue[j.ID] = int32(i + 1)
	return i
}

func (q *Queues) index(name string) int {
	for i := range q.queues {
		if q.queues[i].name == name {
			return i
		}
	}
	q.of(name)
	return len(q.queues) - 1
}

// Allow implements base.Limit: the queue's max-capacity (its usage plus the
// request within max-capacity: RegularContainerAllocator.checkHeadroom) and
// its user's limit (one user for all jobs: UsersManager.computeUserLimit,
// LeafQueue.canAssignToUser), memory only as the DefaultResourceCalculator
// compares; by dominant share under the DominantResourceCalculator
// (dominant.go).
func (q *Queues) Allow(h sim.Handle, t *sim.Task, n *sim.Node) bool {
	if n.Reserved == t {
		return true // charged when reserved: fulfilling it checks no limit (LeafQueue.accept)
	}
	i := q.jobIndex(t.Job)
	mem := float64(h.Capacity().MemMB)
	req := t.Req
	if !t.Sized {
		req = h.Normalized(req)
	}
	if q.dominant() {
		return q.allowDominant(h, t, i, req)
	}
	// checkHeadroom: the headroom plus what the job has reserved must hold
	// the request, so the job's own reservations do not count against it;
	// the headroom is the tightest of the queue's and its parents'
	// max-capacities (ParentQueue.getResourceLimitsOfChild).
	own := base.ReservedMB(h, t.Job)
	for a := i; a >= 0; a = q.queues[a].parent {
		if float64(q.queues[a].used.MemMB-own+req.MemMB) > q.queues[a].maxCap*mem+0.5 {
			return false
		}
	}
	qu := &q.queues[i]
	// LeafQueue.canAssignToUser with reservations-continue-looking: a user
	// over its limit may still be assigned while its job's reservations
	// make up the excess, by giving one up (OverUserLimit).
	return float64(qu.used.MemMB-own) <= q.userLimitMB(h, qu)
}

// OverUserLimit reports whether job j's user holds more than its limit
// (reservations included), so that a container for j must take the place
// of one of its reservations (LeafQueue.canAssignToUser sets
// amountNeededUnreserve; base.Allocator.OverUserLimit).
func (q *Queues) OverUserLimit(h sim.Handle, j *sim.Job) bool {
	qu := &q.queues[q.jobIndex(j)]
	if q.dominant() {
		return greater(toD(qu.used), q.userLimitDominant(h, qu), toD(h.Capacity()))
	}
	return float64(qu.used.MemMB) > q.userLimitMB(h, qu)
}

// userLimitMB is the one user's limit in queue qu: with
// minimum-user-limit-percent 100, the queue's capacity, or while the user
// holds more, one minimum allocation beyond what it holds; at most
// user-limit-factor times the capacity; rounded up to the minimum
// allocation. A user is refused only once it holds more than its limit, so
// it may go one container beyond. At the default factor 1 a queue thus
// stays within its capacity (plus a container) however high its
// max-capacity: only a factor above 1 lets one user's queue grow into idle
// capacity.
func (q *Queues) userLimitMB(h sim.Handle, qu *queue) float64 {
	capMB := qu.capMB(h)
	minMB := float64(base.MinAllocation(h).MemMB)
	used := float64(qu.used.MemMB)
	limit := capMB
	if used >= capMB {
		limit = used + minMB
	}
	limit = math.Min(math.Max(used+minMB, limit), capMB*q.UserLimitFactor)
	if minMB <= 0 {
		return limit
	}
	return math.Ceil(limit/minMB) * minMB
}

// Launched keeps the per-queue usage current within a heartbeat.
func (q *Queues) Launched(h sim.Handle, t *sim.Task) {
	q.charge(q.jobIndex(t.Job), t.Alloc)
}

// NewQueues validates the spec's queues: capacities in [0, 1], the
// children of each parent (and the queues under root) summing to 1 (or one
// "default" queue with everything), max-capacity at least capacity; a
// queue PARENT.CHILD needs PARENT declared.
func NewQueues(sp base.Spec) (*Queues, error) {
	q := &Queues{}
	if len(sp.Queues) == 0 {
		q.queues = []queue{{name: base.DefaultQueue, capacity: 1, maxCap: 1, configured: true, parent: -1}}
		return q, nil
	}
	for _, qu := range sp.Queues {
		if qu.Capacity < 0 || qu.Capacity > 1 {
			return nil, fmt.Errorf("capacity: queue %q capacity %v outside [0, 1]", qu.Name, qu.Capacity)
		}
		mc := qu.MaxCapacity
		if mc == 0 {
			mc = 1
		}
		if mc < qu.Capacity || mc > 1 {
			return nil, fmt.Errorf("capacity: queue %q max_capacity %v outside [capacity, 1]", qu.Name, mc)
		}
		// The FairScheduler's queue limits have no CapacityScheduler
		// counterpart here: refused rather than silently ignored.
		if qu.MinMemMB != 0 || qu.MinVCores != 0 || qu.MaxMemMB != 0 || qu.MaxVCores != 0 || qu.MaxRunningApps != 0 {
			return nil, fmt.Errorf("capacity: queue %q sets min_resources_*, max_resources_* or max_running_apps, FairScheduler settings (fair-scheduler.xml) the capacity policy does not model: use capacity and max_capacity", qu.Name)
		}
		q.queues = append(q.queues, queue{name: qu.Name, capacity: qu.Capacity, maxCap: mc, configured: true, parent: -1})
	}
	return q, q.tree()
}

func (q *Queues) maxLoad() float64 {
	if q.run == nil {
		return 0
	}
	m := 0.0
	for i := range q.queues {
		if q.queues[i].configured {
			m = max(m, float64(q.queues[i].used.MemMB)/(q.queues[i].capacity*float64(q.run.Capacity().MemMB)))
		}
	}
	return min(m, 1e6)
}

// Headroom is what the CapacityScheduler tells job j's AM it may still get
// (LeafQueue.getHeadroom): its user's limit less what the user holds, and
// the queue's current limit less what the queue holds, whichever is
// smaller, rounded down to the minimum allocation, and no more than the
// cluster's free memory; reserved containers count as held. Memory only
// (DefaultResourceCalculator).
func (q *Queues) Headroom(h sim.Handle, j *sim.Job) sim.Res {
	name := base.QueueOf(j)
	i := q.index(name)
	mem := float64(h.Capacity().MemMB)
	var used int64
	var current float64
	if len(q.queues) == 1 {
		used = h.Allocated().MemMB
		for _, n := range h.ReservedNodes() {
			used += h.Normalized(n.Reserved.Req).MemMB
		}
		current = math.Min(q.queues[i].maxCap*mem, mem)
	} else {
		per, root := q.usage(h.Active(), h.Finishing())
		// The job's own queue counts its reservations (and so do its
		// parents); the others' are left out.
		var resv float64
		for _, n := range h.ReservedNodes() {
			if base.QueueOf(n.Reserved.Job) == name {
				resv += float64(h.Normalized(n.Reserved.Req).MemMB)
			}
		}
		for a := i; a >= 0; a = q.queues[a].parent {
			per[a] += resv
		}
		root += resv
		used = int64(per[i])
		current = q.currentMB(i, mem, func(a int) float64 { return per[a] }, root)
	}
	qu := &q.queues[i]
	saved := qu.used
	qu.used.MemMB = used
	user := q.userLimitMB(h, qu)
	qu.used = saved
	room := math.Min(user-float64(used), current-float64(used))
	if step := float64(base.MinAllocation(h).MemMB); step > 0 {
		room = math.Trunc(room/step) * step
	}
	// The cluster's free resources as the root queue counts them: its
	// usage holds the reserved containers too.
	free := h.Capacity().Sub(h.Allocated())
	free.MemMB -= base.ReservedMB(h, nil)
	room = math.Min(room, float64(free.MemMB))
	return sim.Res{MemMB: int64(room), VCores: free.VCores}
}

// AssignHeadroom is the headroom the scheduler assigns job j's containers
// against (base.Allocator.AssignHeadroom): its queue's current limit less
// what the queue holds, reserved containers included (AbstractCSQueue.
// canAssignToThisQueue sets it: the smaller of max-capacity and the
// cluster's free resources plus the queue's own usage,
// getCurrentLimitResource). The user limit is not in it (LeafQueue.
// canAssignToUser refuses a user only once it holds more than its limit).
// Memory only.
func (q *Queues) AssignHeadroom(h sim.Handle, j *sim.Job) sim.Res {
	free := h.Capacity().Sub(h.Allocated())
	free.MemMB -= base.ReservedMB(h, nil) // the root queue's usage holds reservations
	mem := float64(h.Capacity().MemMB)
	room := float64(free.MemMB)
	// used: the ranking's snapshot, kept current by Launched; the
	// tightest of the queue's and its parents' max-capacities.
	for a := q.jobIndex(j); a >= 0; a = q.queues[a].parent {
		room = math.Min(room, q.queues[a].maxCap*mem-float64(q.queues[a].used.MemMB))
	}
	return sim.Res{MemMB: int64(math.Floor(room)), VCores: free.VCores}
}
