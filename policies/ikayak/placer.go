package ikayak

import (
	"yarngym/env/sim"
	"yarngym/policies/base"
)

// PreStep assigns containers on a heartbeating node before the stock
// allocation loop (iKayak's map assignment to resources freed by suspended
// reducers; Alg. 3's locality-aware shrinking).
type PreStep interface {
	Assign(h sim.Handle, n *sim.Node, pl *Placer)
}

// Placer is the allocator of iKayak and of the executor-placement baselines.
// The Capacity scheduler's allocation loop (the wrapped base.Allocator)
// decides when an application is served, as YARN does on a node heartbeat;
// when it reaches a Spark application's executor request, the Strategy
// decides where the executor goes (iKayak's exePlace, Sec. 4.1): on the
// heartbeating node, on another node where it fits now, or else by
// reserving the chosen node (Sim.Reserve). The application's other pending
// executors are placed at the same time where the strategy finds room for
// them now; as in YARN, an application holds one reservation at a time, for
// the request at its head. PreSteps run on the heartbeating node before the
// loop. With On at 0 the placer is the stock allocator.
type Placer struct {
	Base     *base.Allocator
	Strategy Strategy
	Pre      []PreStep
	// On is 1 to place executors with Strategy, 0 to leave them to YARN.
	On float64
	// Listeners are told when tasks end (parts inside the placer).
	Listeners []sim.TaskListener

	limits    []base.Limit // the base allocator's own limits
	jobs      []*sim.Job
	requested map[int32]sim.Ms // executor task ID -> first seen requested

	// Executors placed and the time they waited from their request to their
	// launch (the reservation time of Fig. 8(b)), in ms.
	Placed  int
	WaitSum sim.Ms
}

// NewPlacer wraps a (capacity) base allocator.
func NewPlacer(a *base.Allocator, st Strategy) *Placer {
	p := &Placer{Base: a, Strategy: st, On: 1, limits: append([]base.Limit(nil), a.Limits...), requested: map[int32]sim.Ms{}}
	a.Limits = append(a.Limits, placement{p})
	a.Hooks = append(a.Hooks, p)
	return p
}

// placement is the last limit of the base loop: it lets an executor launch
// (or reserve) only on the node its strategy chooses, placing it elsewhere
// itself when that is another node. The limits before it have accepted the
// application (queue capacity, AM limit: they do not depend on the node).
type placement struct{ p *Placer }

func (l placement) Allow(h sim.Handle, t *sim.Task, n *sim.Node) bool {
	p := l.p
	if p.On == 0 || t.Kind != sim.KindExecutor || t.ReservedOn() == n {
		return true
	}
	// Alg. 1 "repeat ... until satisfy the demand of Spark": the
	// application's other pending executors are placed too.
	here := false
	st := t.Stage
	for _, o := range st.Tasks {
		if o.State != sim.TaskPending || !h.Requestable(o) {
			continue
		}
		if o == t {
			here = p.place(h, o, n, nil, true)
		} else if o.ReservedOn() == nil && (!here || st.Spec.MaxRunning == 0 || st.Running+1 < st.Spec.MaxRunning) {
			// Once t is to launch here it holds one of the stage's
			// MaxRunning containers: the others get what is left.
			// Not on n (the loop serves n for t only), and only where it fits
			// now: an application holds one reservation at a time, for the
			// request at its head, as in YARN.
			p.place(h, o, n, n, false)
		}
	}
	return here
}

// place runs the strategy for executor t while node n heartbeats (never
// choosing exclude); it returns true when t should go to the allocation loop
// on n, which launches it there or reserves n and stops.
func (p *Placer) place(h sim.Handle, t *sim.Task, n, exclude *sim.Node, reserve bool) bool {
	if _, ok := p.requested[t.ID]; !ok {
		p.requested[t.ID] = h.Now()
	}
	var best *sim.Node
	if nc, ok := p.Strategy.(NowChooser); ok && !reserve && t.ReservedOn() == nil {
		// Only a node t fits now matters: anything else ends in "not now".
		if best = nc.ChooseNow(h, t, exclude); best == nil {
			return false
		}
	} else {
		best = p.Strategy.Choose(h, t, exclude)
	}
	switch {
	case best == nil:
		return false
	case best == n:
		if cur := t.ReservedOn(); cur != nil && !h.FitsFree(t.Req, n) {
			h.Unreserve(cur) // the loop reserves n instead
		}
		return true
	case h.FitsFree(t.Req, best):
		if !p.Allowed(h, t, best) {
			return false
		}
		if err := p.Launch(h, t, best, t.Req); err != nil {
			panic(err) // the strategy returned a usable node the request fits
		}
		return false
	case !reserve:
		return false
	}
	if cur := t.ReservedOn(); cur != best {
		if cur != nil {
			h.Unreserve(cur)
		}
		_ = h.Reserve(best, t) // cannot fail: best is usable for t and t is requested
	}
	return false
}

// Allocate implements sim.Allocator.
func (p *Placer) Allocate(h sim.Handle, n *sim.Node) {
	for _, st := range p.Pre {
		st.Assign(h, n, p)
	}
	p.Base.Allocate(h, n)
}

// Allowed applies the base allocator's limits (queue max-capacity, the AM
// limit) to launching t on n.
func (p *Placer) Allowed(h sim.Handle, t *sim.Task, n *sim.Node) bool {
	for _, l := range p.limits {
		if !l.Allow(h, t, n) {
			return false
		}
	}
	return true
}

// Launch starts t on n in a guaranteed container (shrunk to size when it is
// smaller than the request) and tells the base allocator's hooks.
func (p *Placer) Launch(h sim.Handle, t *sim.Task, n *sim.Node, size sim.Res) error {
	var err error
	if size == t.Req {
		err = h.Launch(t, n, sim.Guaranteed)
	} else {
		err = h.LaunchShrunk(t, n, size)
	}
	if err != nil {
		return err
	}
	for _, hook := range p.Base.Hooks { // p itself among them
		hook.Launched(h, t)
	}
	if size != t.Req && p.Base.Order != nil {
		// Hooks book the request; re-take the order's usage snapshot (the
		// Capacity scheduler's per-queue use) from what containers hold.
		p.Base.Order.Prepare(h)
	}
	return nil
}

func (p *Placer) launchedExecutor(h sim.Handle, t *sim.Task) {
	if at, ok := p.requested[t.ID]; ok {
		p.Placed++
		p.WaitSum += h.Now() - at
		delete(p.requested, t.ID)
	}
}

// Ranked returns the jobs wanting containers in the scheduler's order (a
// copy, valid until the next call).
func (p *Placer) Ranked(h sim.Handle) []*sim.Job {
	p.jobs = append(p.jobs[:0], p.Base.Ranked(h)...)
	return p.jobs
}

// TaskEnded implements sim.TaskListener: it forwards to the placer's parts
// and books executors launched by the base loop on their reserved node.
func (p *Placer) TaskEnded(h sim.Handle, t *sim.Task, o sim.Outcome) {
	for _, l := range p.Listeners {
		l.TaskEnded(h, t, o)
	}
}

// Launched implements base.Launched: executors launched by the placer or by
// the base loop (on the node reserved for them) count towards the placement
// statistics.
func (p *Placer) Launched(h sim.Handle, t *sim.Task) {
	if t.Kind == sim.KindExecutor {
		p.launchedExecutor(h, t)
	}
}

// MeanWaitS is the mean time executors waited from request to launch.
func (p *Placer) MeanWaitS() float64 {
	if p.Placed == 0 {
		return 0
	}
	return float64(p.WaitSum) / float64(p.Placed) / 1000
}
