package capacity

import (
	"math"

	"yarngym/env/sim"
	"yarngym/policies/base"
)

// Queue and user limits under the DominantResourceCalculator
// (resource_calculator = 1). Hadoop's CapacityScheduler compares a queue's
// or a user's usage with its limit through the calculator: under this one
// Resources.greaterThan(rc, cluster, a, b) holds when a's largest share of
// the cluster exceeds b's, the smaller share breaking a tie
// (DominantResourceCalculator.compare for two resource types), limits are
// worked out resource by resource (Resources.multiply, add, subtract,
// roundUp) and picked whole by that order (Resources.max, min), and a
// queue's used capacity is the ratio of dominant shares
// (DominantResourceCalculator.divide, CSQueueUtils.updateUsedCapacity).
// Under the DefaultResourceCalculator the same code compares memory only,
// which the memory-only functions in queues.go implement.

// dres is a resource in floating point: limits are fractions of the
// cluster, and a headroom may be negative in one resource.
type dres struct{ mem, vc float64 }

func toD(r sim.Res) dres            { return dres{float64(r.MemMB), float64(r.VCores)} }
func (a dres) add(b dres) dres      { return dres{a.mem + b.mem, a.vc + b.vc} }
func (a dres) sub(b dres) dres      { return dres{a.mem - b.mem, a.vc - b.vc} }
func (a dres) scale(f float64) dres { return dres{a.mem * f, a.vc * f} }
func (a dres) shares(c dres) (hi, lo float64) {
	m, v := a.mem/c.mem, a.vc/c.vc
	if m >= v {
		return m, v
	}
	return v, m
}

// greater is Resources.greaterThan under the DominantResourceCalculator.
func greater(a, b, cluster dres) bool {
	ah, al := a.shares(cluster)
	bh, bl := b.shares(cluster)
	if ah != bh {
		return ah > bh
	}
	return al > bl
}

// dmax and dmin are Resources.max and min under it: the whole resource
// that compares larger (smaller); the first on a tie.
func dmax(a, b, cluster dres) dres {
	if greater(b, a, cluster) {
		return b
	}
	return a
}

func dmin(a, b, cluster dres) dres {
	if greater(a, b, cluster) {
		return b
	}
	return a
}

// roundUp is Resources.roundUp: each resource up to a multiple of step's.
func roundUp(a, step dres) dres {
	up := func(x, s float64) float64 {
		if s <= 0 {
			return x
		}
		return math.Ceil(x/s) * s
	}
	return dres{up(a.mem, step.mem), up(a.vc, step.vc)}
}

// dominant reports whether the queues compare by dominant share.
func (q *Queues) dominant() bool { return q.Calculator != 0 }

// capRes is the queue's guaranteed resources, each at least the minimum
// allocation (as capMB).
func (qu *queue) capRes(h sim.Handle) dres {
	c, m := toD(h.Capacity()), toD(base.MinAllocation(h))
	return dres{math.Max(qu.capacity*c.mem, m.mem), math.Max(qu.capacity*c.vc, m.vc)}
}

// usedCapacityDominant is used over guaranteed as dominant shares.
func (qu *queue) usedCapacityDominant(h sim.Handle) float64 {
	if qu.capacity <= 0 {
		return math.Inf(1)
	}
	c := toD(h.Capacity())
	u, _ := toD(qu.used).shares(c)
	g, _ := qu.capRes(h).shares(c)
	return u / g
}

// userLimitDominant is userLimitMB resource by resource: the queue's
// capacity, or while the user holds as much or more, one minimum
// allocation beyond what it holds; at most user-limit-factor times the
// capacity; rounded up to the minimum allocation.
func (q *Queues) userLimitDominant(h sim.Handle, qu *queue) dres {
	c, minA, used := toD(h.Capacity()), toD(base.MinAllocation(h)), toD(qu.used)
	capR := qu.capRes(h)
	limit := capR
	if !greater(capR, used, c) {
		limit = used.add(minA)
	}
	limit = dmin(dmax(used.add(minA), limit, c), capR.scale(q.UserLimitFactor), c)
	return roundUp(limit, minA)
}

// allowDominant is Allow under the DominantResourceCalculator: for the
// queue and each parent, its usage must stay below its max-capacity
// (AbstractCSQueue.canAssignToThisQueue) and the headroom there, with the
// job's own reservations, must hold the request (RegularContainerAllocator.
// checkHeadroom: compared by dominant share, so a headroom short in one
// resource may still pass); and the user must not hold more than its limit
// (LeafQueue.canAssignToUser).
func (q *Queues) allowDominant(h sim.Handle, t *sim.Task, i int, req sim.Res) bool {
	c := toD(h.Capacity())
	own := toD(base.Reserved(h, t.Job))
	r := toD(req)
	for a := i; a >= 0; a = q.queues[a].parent {
		used := toD(q.queues[a].used).sub(own)
		limit := c.scale(q.queues[a].maxCap)
		if !greater(limit, used, c) || greater(r, limit.sub(used), c) {
			return false
		}
	}
	qu := &q.queues[i]
	return !greater(toD(qu.used).sub(own), q.userLimitDominant(h, qu), c)
}
