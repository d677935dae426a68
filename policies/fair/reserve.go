package fair

import (
	"math"

	"yarngym/env/sim"
)

// reservable is the FairScheduler's rule for reserving a node for a request
// that does not fit it (FSAppAttempt.isReservable, reserve,
// reservationExceedsThreshold): the job must be starved, holding less
// memory than its instantaneous fair share, and the request at least the
// reservation threshold (yarn.scheduler.reservation-threshold.
// increment-multiple 2 times the increment, 2,048 MB, compared on memory
// as FairSharePolicy does); and a job holds at most ceil(reservable-nodes
// 0.05 x nodes) reservations for requests off its block's rack (ceil(0.05 x
// the rack's nodes) for rack-local ones). Otherwise the job is passed over
// on this node and the next is tried: the FairScheduler does not block the
// line behind a request that does not fit.
type reservable struct {
	u *Update
	// ThresholdMB is the reservation threshold's memory.
	ThresholdMB float64
	// ReservableNodes is yarn.scheduler.fair.reservable-nodes.
	ReservableNodes float64
}

func (r *reservable) ok(h sim.Handle, t *sim.Task, n *sim.Node) bool {
	j := t.Job
	if float64(h.Normalized(t.Req).MemMB) < r.ThresholdMB {
		return false
	}
	if float64(j.Alloc.MemMB-j.OppAlloc.MemMB) >= r.u.JobShareMB(j) {
		return false // not starved
	}
	// The request's level on n is the scheduler's (its host and rack
	// counts, Sim.ContainerLevel), not the task the AM will put in it.
	level := h.ContainerLevel(t, n)
	if level == sim.NodeLocal {
		return true // node-local: no limit
	}
	sameRack := level == sim.RackLocal
	held, nodes := 0, len(h.Nodes())
	if sameRack {
		nodes = 0
		for _, m := range h.Nodes() {
			if m.Spec.Rack == n.Spec.Rack {
				nodes++
			}
		}
	}
	for _, m := range h.ReservedNodes() {
		if m.Reserved.Job == j && (!sameRack || m.Spec.Rack == n.Spec.Rack) {
			held++
		}
	}
	return float64(held) < math.Ceil(float64(nodes)*r.ReservableNodes)
}
