package base

import "yarngym/env/sim"

// The CapacityScheduler's bound on a request's reservations
// (RegularContainerAllocator.shouldAllocOrReserveNewContainer, Hadoop
// 3.3.6): a job may hold a new container for a request, allocated or
// reserved, only while
//
//	starvation + outstanding - reserved > 0
//
// where outstanding is the scheduler's any-node count for the request
// (getOutstandingAsksCount), reserved the nodes reserved for it, and
// starvation = (int)(reReservations / reserved x (1 - min(nodeFactor,
// minimumAllocationFactor))): reReservations counts the heartbeats on which
// a reserved node still could not hold the request since the request last
// reserved a new node or dropped one (SchedulerApplicationAttempt.reserve,
// unreserve), nodeFactor is the request over the maximum allocation and
// minimumAllocationFactor (maximum - minimum) / maximum allocation
// (AbstractCSQueue), both as the calculator compares. When the bound is
// met, a request that does not fit reserves nothing (the job is passed
// over on this node), and one that fits takes the container only by
// giving up one of its reservations elsewhere (reservations-continue-
// looking, FiCaSchedulerApp.findNodeToUnreserve; Hadoop takes the first in
// a hash map's order, yarngym the lowest node ID).
//
// The maximum allocation is the largest node's capacity, as the oracle
// configures yarn.scheduler.maximum-allocation-mb and -vcores.

// resvKey is a request: a job's stage, -1 for its AM.
type resvKey struct {
	job   int32
	stage int
}

func keyOf(t *sim.Task) resvKey {
	if t.Stage == nil {
		return resvKey{t.Job.ID, -1}
	}
	return resvKey{t.Job.ID, t.Stage.Index}
}

// reservedFor counts the nodes reserved for request k.
func reservedFor(h sim.Handle, k resvKey) int {
	c := 0
	for _, n := range h.ReservedNodes() {
		if keyOf(n.Reserved) == k {
			c++
		}
	}
	return c
}

// outstanding is the scheduler's any-node count for t's request.
func outstanding(t *sim.Task) int {
	if t.Stage == nil {
		return 1
	}
	return t.Stage.Asking()
}

// mayHoldNew is shouldAllocOrReserveNewContainer for t's request.
func (a *Allocator) mayHoldNew(h sim.Handle, t *sim.Task, n *sim.Node) bool {
	k := keyOf(t)
	reserved := reservedFor(h, k)
	if reserved == 0 {
		return outstanding(t) > 0
	}
	maxAlloc := a.maxAllocation(h)
	calc := h.CalcOn(n)
	minAlloc := MinAllocation(h)
	nodeFactor := calc.Ratio(h.Normalized(t.Req), maxAlloc)
	minFactor := calc.Ratio(sim.Res{VCores: maxAlloc.VCores - minAlloc.VCores, MemMB: maxAlloc.MemMB - minAlloc.MemMB}, maxAlloc)
	starvation := int(float32(a.reReserved[k]) / float32(reserved) * (1 - min(nodeFactor, minFactor)))
	return starvation+outstanding(t)-reserved > 0
}

// reReserve notes that node n, reserved for t's request, still could not
// hold it on this heartbeat (SchedulerApplicationAttempt.addReReservation).
func (a *Allocator) reReserve(t *sim.Task) {
	if a.reReserved == nil {
		a.reReserved = map[resvKey]int{}
	}
	a.reReserved[keyOf(t)]++
}

// reserveNew reserves n for t's request (a new reservation: the request's
// re-reservations restart).
func (a *Allocator) reserveNew(h sim.Handle, n *sim.Node, t *sim.Task) {
	delete(a.reReserved, keyOf(t))
	h.ReserveRequest(n, t)
}

// giveUpOne drops, after t's request was given a container on n without a
// new reservation allowed, reservations of the request until it holds
// wanted nodes: lowest node ID first.
func (a *Allocator) giveUpOne(h sim.Handle, t *sim.Task, wanted int) {
	k := keyOf(t)
	for reservedFor(h, k) > wanted {
		var drop *sim.Node
		for _, m := range h.ReservedNodes() {
			if keyOf(m.Reserved) == k && (drop == nil || m.ID < drop.ID) {
				drop = m
			}
		}
		h.Unreserve(drop)
		delete(a.reReserved, k)
	}
}

// headroomHolds is checkHeadroom: the job's headroom plus what it has
// reserved holds t's request (memory, as the DefaultResourceCalculator).
func (a *Allocator) headroomHolds(h sim.Handle, t *sim.Task) bool {
	if !a.CapacityReservations || a.AssignHeadroom == nil {
		return true
	}
	return a.AssignHeadroom(h, t.Job).MemMB+ReservedMB(h, t.Job) >= h.Normalized(t.Req).MemMB
}

// Reserved is what the nodes reserved for job j (all jobs when j is nil)
// hold, as the scheduler books them: normalized.
func Reserved(h sim.Handle, j *sim.Job) sim.Res {
	var r sim.Res
	for _, m := range h.ReservedNodes() {
		if j == nil || m.Reserved.Job == j {
			r = r.Add(h.Normalized(m.Reserved.Req))
		}
	}
	return r
}

// ReservedMB is Reserved's memory.
func ReservedMB(h sim.Handle, j *sim.Job) int64 { return Reserved(h, j).MemMB }

// needToUnreserve: t's request is larger than the job's headroom, or its
// user is over its limit, so it may be held only in place of one of the
// job's reservations (RegularContainerAllocator.assignContainer).
func (a *Allocator) needToUnreserve(h sim.Handle, t *sim.Task) bool {
	if a.OverUserLimit != nil && a.OverUserLimit(h, t.Job) {
		return true
	}
	return a.AssignHeadroom != nil && a.AssignHeadroom(h, t.Job).MemMB < h.Normalized(t.Req).MemMB
}

// maxAllocation is the largest node's capacity, taken once per run (the
// nodes do not change during one).
func (a *Allocator) maxAllocation(h sim.Handle) sim.Res {
	a.perRun(h)
	return a.maxAlloc
}
