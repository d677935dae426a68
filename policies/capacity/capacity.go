// Package capacity is YARN's CapacityScheduler: each queue is guaranteed a
// capacity (share of the cluster) and may grow to its max-capacity when
// others leave resources idle; the least-served queue (used / capacity) is
// served first, jobs in a queue first-in first-out; the AMs of a queue may
// hold at most maximum-am-resource-percent of its capacity; a request that
// does not fit reserves the node.
package capacity

import (
	"fmt"

	"yarngym/env/sim"
	"yarngym/policies/base"
)

// Queues holds the capacity configuration and per-heartbeat usage.
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
	sim          *sim.Sim
}

// queue is one queue's configuration and its usage at this heartbeat.
type queue struct {
	name             string
	capacity, maxCap float64
	configured       bool
	used, am         sim.Res
}

// of returns the queue named name, adding an unconfigured one if needed.
func (q *Queues) of(name string) *queue {
	for i := range q.queues {
		if q.queues[i].name == name {
			return &q.queues[i]
		}
	}
	q.queues = append(q.queues, queue{name: name})
	return &q.queues[len(q.queues)-1]
}

// Prepare implements base.Order.
func (q *Queues) Prepare(s *sim.Sim) {
	q.sim = s
	for i := range q.queues {
		q.queues[i].used, q.queues[i].am = sim.Res{}, sim.Res{}
	}
	for _, j := range s.Active() {
		qu := q.of(base.QueueOf(j))
		qu.used = qu.used.Add(j.Alloc.Sub(j.OppAlloc))
		if j.AM != nil && j.AM.State == sim.TaskRunning {
			qu.am = qu.am.Add(j.AM.Req)
		}
	}
}

func (q *Queues) ratio(s *sim.Sim, name string) float64 {
	return q.of(name).ratio(s)
}

func (qu *queue) ratio(s *sim.Sim) float64 {
	if qu.capacity <= 0 {
		return 1e18
	}
	return float64(qu.used.MemMB) / (qu.capacity * float64(s.Capacity().MemMB))
}

// Less implements base.Order.
func (q *Queues) Less(s *sim.Sim, a, b *sim.Job) bool {
	qa, qb := base.QueueOf(a), base.QueueOf(b)
	if qa != qb {
		ra, rb := q.ratio(s, qa), q.ratio(s, qb)
		if ra != rb {
			return ra < rb
		}
		return qa < qb
	}
	return a.ID < b.ID
}

// Allow implements base.Limit: max-capacity and the AM limit. The AM limit
// always lets a queue run one AM (as YARN does), so a queue cannot starve.
func (q *Queues) Allow(s *sim.Sim, t *sim.Task, _ *sim.Node) bool {
	qu := q.of(base.QueueOf(t.Job))
	c := s.Capacity()
	next := qu.used.Add(t.Req)
	mc := qu.maxCap
	if float64(next.MemMB) > mc*float64(c.MemMB)+0.5 || float64(next.VCores) > mc*float64(c.VCores)+0.5 {
		return false
	}
	if t.Kind == sim.KindAM && q.MaxAMPercent >= 0 && !qu.am.IsZero() {
		lim := q.MaxAMPercent * qu.capacity
		am := qu.am.Add(t.Req)
		if float64(am.MemMB) > lim*float64(c.MemMB) || float64(am.VCores) > lim*float64(c.VCores) {
			return false
		}
	}
	return true
}

// Launched keeps the per-queue usage current within a heartbeat.
func (q *Queues) Launched(s *sim.Sim, t *sim.Task) {
	qu := q.of(base.QueueOf(t.Job))
	qu.used = qu.used.Add(t.Req)
	if t.Kind == sim.KindAM {
		qu.am = qu.am.Add(t.Req)
	}
}

// NewQueues validates the spec's queues: capacities in [0, 1] summing to 1
// (or one "default" queue with everything), max-capacity at least capacity.
func NewQueues(sp base.Spec) (*Queues, error) {
	q := &Queues{}
	if len(sp.Queues) == 0 {
		q.queues = []queue{{name: base.DefaultQueue, capacity: 1, maxCap: 1, configured: true}}
		return q, nil
	}
	sum := 0.0
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
		q.queues = append(q.queues, queue{name: qu.Name, capacity: qu.Capacity, maxCap: mc, configured: true})
		sum += qu.Capacity
	}
	if sum < 0.999 || sum > 1.001 {
		return nil, fmt.Errorf("capacity: queue capacities sum to %.3f, want 1", sum)
	}
	return q, nil
}

// New builds a Capacity policy.
func New(sp base.Spec) (*sim.Policy, error) {
	q, err := NewQueues(sp)
	if err != nil {
		return nil, err
	}
	a := &base.Allocator{Order: q, Limits: []base.Limit{q}, Hooks: []base.Launched{q}, Reserve: true, CapacityLocality: true}
	p := &sim.Policy{Name: "capacity", Allocate: a, Params: &sim.Params{}}
	p.Params.Add(sim.Param{Name: "max_am_percent", Doc: "share of a queue's capacity its AMs may hold (one AM always allowed); -1 switches it off",
		Ref: "YARN CapacityScheduler maximum-am-resource-percent (default 0.1)", Min: -1, Max: 1, Default: 0.1, Value: &q.MaxAMPercent})
	p.Params.Add(sim.Param{Name: "resource_calculator", Doc: "how requests are compared with free resources: 0 memory only (DefaultResourceCalculator: a node's vCores may be over-committed), 1 every resource (DominantResourceCalculator); set before the run",
		Ref: "YARN CapacityScheduler yarn.scheduler.capacity.resource-calculator (default DefaultResourceCalculator)", Min: 0, Max: 1, Default: 0, Integer: true, Value: &q.Calculator})
	p.CalculatorParam = &q.Calculator
	a.Params(p.Params, 40)
	p.State = []sim.StateVar{{Name: "max_queue_load", Doc: "largest guaranteed memory used / capacity over the queues, at the last heartbeat",
		Get: q.maxLoad, Min: 0, Max: 100, Log: true}}
	return p, nil
}

func (q *Queues) maxLoad() float64 {
	if q.sim == nil {
		return 0
	}
	m := 0.0
	for i := range q.queues {
		if q.queues[i].configured {
			m = max(m, q.queues[i].ratio(q.sim))
		}
	}
	return min(m, 1e6)
}
