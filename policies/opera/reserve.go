package opera

import (
	"slices"

	"yarngym/env/sim"
)

// Reservation approaches (the reservation parameter).
const (
	ReserveOff    = 0 // Fair's own allocation (with YARN's node reservation), then opportunistic
	ReserveStrict = 1 // Alg. 3
	ReserveMulti  = 2 // Alg. 4
)

// strict is NodeUpdate with strict reservation. A task that neither normal
// nor opportunistic assignment can place reserves the node (YARN's node
// reservation, which gives the node's guaranteed resources to that task
// only) and assignment stops until the next heartbeat; on later heartbeats
// the reserved task is served first and nothing else is assigned on the node
// until it is. As with the base allocator, assignment goes on while tasks
// are placed (Alg. 3 places one and waits for the next heartbeat; YARN
// assigns several containers per heartbeat).
//
// Reference: OPERA Sec. III-E 1), Alg. 3.
func (o *Opera) strict(h sim.Handle, n *sim.Node) {
	o.begin(n)
	if t := n.Reserved; t != nil {
		if !h.StillAsked(t) || !o.Fair.Allowed(h, t, n) {
			h.Unreserve(n)
		} else if !o.assign(h, n, t) {
			return
		}
	}
	for {
		t := o.nextFromQueue(h, n, nil)
		if t == nil {
			return
		}
		if o.assign(h, n, t) {
			continue
		}
		h.ReserveRequest(n, t) // t's request is asked for and fits the node's capacity
		return
	}
}

// reserved is a task in a node's multi-chance reservation queue and the
// number of times another task was given resources on the node ahead of it.
type reserved struct {
	t     *sim.Task
	skips int
}

// Reserved is a multi-chance reservation as Queue reports it.
type Reserved struct {
	Task  *sim.Task
	Skips int
}

// Queue returns node id's multi-chance reservation queue, oldest first.
func (o *Opera) Queue(id int32) []Reserved {
	if int(id) >= len(o.queues) {
		return nil
	}
	out := make([]Reserved, len(o.queues[id]))
	for i, r := range o.queues[id] {
		out[i] = Reserved{Task: r.t, Skips: r.skips}
	}
	return out
}

// multiChance is NodeUpdate with multi-chance reservation. Each node keeps a
// FIFO queue of at most EpsR reserved tasks. On a heartbeat the reserved
// tasks are tried in order; a reserved task that still cannot be placed may
// be skipped (later reserved tasks and queued tasks get resources before it)
// only while it has been skipped fewer than EpsS times: once it has, the node
// assigns nothing else until it is placed. While the queue has room and no
// reserved task has used up its skips, tasks are taken from Fair's queue: one
// that is placed skips every reserved task (their counters grow by one), one
// that cannot be placed joins the queue.
//
// The paper's counters start at 1 when a task is reserved and also grow when
// the reserved task itself fails; here they count only real skips, so "a
// reserved task is passed over at most EpsS times" holds exactly. A task is
// reserved on one node at a time, but another node may still run it (as a
// YARN request reserved on one node can be allocated on another; the stale
// entry is dropped): else one reserved task, at the head of its job's
// queue, would keep the whole job off every other node. The engine's single
// node reservation is not used in this mode.
//
// Reference: OPERA Sec. III-E 2), Alg. 4.
func (o *Opera) multiChance(h sim.Handle, n *sim.Node) {
	o.begin(n)
	o.growQueues(h)
	q := o.queues[n.ID]
	// Drop entries that are no longer waiting (launched on another node).
	k := 0
	for _, r := range q {
		if h.StillAsked(r.t) && o.resvAt[r.t.ID] == n.ID+1 {
			q[k] = r
			k++
		} else if o.resvAt[r.t.ID] == n.ID+1 {
			o.resvAt[r.t.ID] = 0
		}
	}
	q = q[:k]
	defer func() { o.queues[n.ID] = q }()
	for i := 0; i < len(q); {
		r := q[i]
		if !h.StillAsked(r.t) {
			// Placing an earlier entry took the last container its stage
			// asked for (two reduces of one job reserved here, the AM's ask
			// for one more): the request is gone, and so is the entry.
			o.resvAt[r.t.ID] = 0
			q = append(q[:i], q[i+1:]...)
			continue
		}
		if o.canPlace(h, n, r.t) {
			if o.exhausted(q[:i]) {
				return // placing r would skip a reserved task once too often
			}
			o.assign(h, n, r.t)
			o.resvAt[r.t.ID] = 0
			q = append(q[:i], q[i+1:]...)
			for x := range q[:i] {
				q[x].skips++
			}
			continue
		}
		if r.skips >= int(o.EpsS) {
			return
		}
		i++
	}
	// Tasks reserved here, or reserved elsewhere and tried on this heartbeat,
	// are passed over (each pass either places a task, reserves one here or
	// marks one tried, so the loop ends).
	o.tried = o.tried[:0]
	skip := func(t *sim.Task) bool {
		return (!t.Excess() && o.resvAt[t.ID] == n.ID+1) || slices.Contains(o.tried, t)
	}
	for len(q) < int(o.EpsR) && !o.exhausted(q) {
		t := o.nextFromQueue(h, n, skip)
		if t == nil {
			return
		}
		if o.assign(h, n, t) {
			for x := range q {
				q[x].skips++
			}
			continue
		}
		if t.Excess() || o.resvAt[t.ID] != 0 {
			// Reserved on another node, or a container beyond its stage's
			// maps (the scheduler's count; nothing to hold a node for).
			o.tried = append(o.tried, t)
			continue
		}
		q = append(q, reserved{t: t})
		o.resvAt[t.ID] = n.ID + 1
	}
}

// unreserve forgets a launched task's multi-chance reservation.
func (o *Opera) unreserve(t *sim.Task) {
	if int(t.ID) < len(o.resvAt) {
		o.resvAt[t.ID] = 0
	}
}

// canPlace reports whether assign would place t on n now.
func (o *Opera) canPlace(h sim.Handle, n *sim.Node, t *sim.Task) bool {
	if !o.Fair.Allowed(h, t, n) {
		return false
	}
	if h.FitsFree(t.Req, n) && (n.Reserved == nil || n.Reserved == t) {
		return true
	}
	return t.Kind != sim.KindAM && o.fitsOA(t) && o.Eligible(t)
}

// exhausted reports whether a task of q has been skipped EpsS times.
func (o *Opera) exhausted(q []reserved) bool {
	for _, r := range q {
		if r.skips >= int(o.EpsS) {
			return true
		}
	}
	return false
}

func (o *Opera) growQueues(h sim.Handle) {
	for len(o.queues) < len(h.Nodes()) {
		o.queues = append(o.queues, nil)
	}
	if len(o.resvAt) < int(h.TaskIDs()) {
		o.resvAt = append(o.resvAt, make([]int32, int(h.TaskIDs())-len(o.resvAt))...)
	}
}

// reservedCount returns the tasks reserved now (node reservations, or
// multi-chance queue entries).
func (o *Opera) reservedCount(h sim.Handle) float64 {
	if h == nil {
		return 0
	}
	k := 0
	if int(o.Reservation) == ReserveMulti {
		for _, q := range o.queues {
			k += len(q)
		}
		return float64(k)
	}
	for _, n := range h.Nodes() {
		if n.Reserved != nil {
			k++
		}
	}
	return float64(k)
}
