// Package fair is YARN's FairScheduler: queues and, inside a queue, jobs are
// ranked by their usage against their fair share (FairSharePolicy, memory as
// the shared resource), the share of a queue's fair share that AMs may hold is
// capped by maxAMShare, and a request that does not fit reserves the node.
package fair

import (
	"fmt"
	"slices"

	"yarngym/env/sim"
	"yarngym/policies/base"
)

// Order ranks queues by guaranteed memory per unit of weight, then jobs in a
// queue by guaranteed memory held, then by submission.
type Order struct {
	weight map[string]float64
	// stats holds the totals of each queue with active jobs (a scenario has
	// a handful of queues: a linear search beats hashing names for every
	// active job).
	stats  []queueStat
	queues []string // queues with active jobs, sorted
	sim    *sim.Sim
	fresh  bool // stats hold this ranking's totals
}

// queueStat is one queue's totals.
type queueStat struct {
	name  string
	usage float64 // guaranteed memory
	am    sim.Res // running AMs' requests
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

// usage is queue q's guaranteed memory (0 for a queue with no active job).
func (o *Order) usage(q string) float64 {
	for i := range o.stats {
		if o.stats[i].name == q {
			return o.stats[i].usage
		}
	}
	return 0
}

// NewOrder returns the Fair order for the spec's queues.
func NewOrder(sp base.Spec) *Order {
	o := &Order{weight: map[string]float64{}}
	for _, q := range sp.Queues {
		w := q.Weight
		if w <= 0 {
			w = 1
		}
		o.weight[q.Name] = w
	}
	return o
}

func (o *Order) w(q string) float64 {
	if w, ok := o.weight[q]; ok {
		return w
	}
	return 1
}

// Prepare implements base.Order. The per-queue totals are computed only
// when two queues are compared (with one queue, never).
func (o *Order) Prepare(s *sim.Sim) {
	o.sim = s
	o.fresh = false
}

// IdleNoop implements sim.IdleNoop: Prepare only marks the queue totals
// stale, and they are recomputed before any use.
func (o *Order) IdleNoop() bool { return true }

func (o *Order) queueUsage() {
	o.stats = o.stats[:0]
	o.queues = o.queues[:0]
	var st *queueStat
	for _, j := range o.sim.Active() {
		q := base.QueueOf(j)
		if st == nil || st.name != q {
			st = o.stat(q)
		}
		st.usage += float64(j.Alloc.MemMB - j.OppAlloc.MemMB)
		if j.AM != nil && j.AM.State == sim.TaskRunning {
			st.am = st.am.Add(j.AM.Req)
		}
	}
	for i := range o.stats {
		o.queues = append(o.queues, o.stats[i].name)
	}
	slices.Sort(o.queues)
	o.fresh = true
}

// Less implements base.Order.
func (o *Order) Less(_ *sim.Sim, a, b *sim.Job) bool {
	qa, qb := base.QueueOf(a), base.QueueOf(b)
	if qa != qb {
		if !o.fresh {
			o.queueUsage()
		}
		ra, rb := o.usage(qa)/o.w(qa), o.usage(qb)/o.w(qb)
		if ra != rb {
			return ra < rb
		}
		return qa < qb
	}
	ua, ub := a.Alloc.MemMB-a.OppAlloc.MemMB, b.Alloc.MemMB-b.OppAlloc.MemMB
	if ua != ub {
		return ua < ub
	}
	return a.ID < b.ID
}

// AMShare is FairScheduler's maxAMShare: the AMs running in a queue may hold
// at most MaxAMShare of the queue's fair share (the cluster split over the
// queues with running jobs by weight). A negative value switches it off
// (YARN: -1).
type AMShare struct {
	MaxAMShare float64
	order      *Order
}

// Allow implements base.Limit.
func (l *AMShare) Allow(s *sim.Sim, t *sim.Task, _ *sim.Node) bool {
	if t.Kind != sim.KindAM || l.MaxAMShare < 0 {
		return true
	}
	if !l.order.fresh {
		l.order.queueUsage()
	}
	q := base.QueueOf(t.Job)
	// Queues with running jobs share the cluster by weight; the weights are
	// summed in sorted queue order, so the float sum is the same every run.
	total := 0.0
	inShare := false
	for _, name := range l.order.queues {
		total += l.order.w(name)
		inShare = inShare || name == q
	}
	if !inShare {
		total += l.order.w(q)
	}
	share := l.order.w(q) / total * l.MaxAMShare
	c := s.Capacity()
	next := l.order.stat(q).am.Add(t.Req)
	return float64(next.MemMB) <= share*float64(c.MemMB) && float64(next.VCores) <= share*float64(c.VCores)
}

// Launched keeps the AM totals current within a heartbeat.
func (l *AMShare) Launched(_ *sim.Sim, t *sim.Task) {
	if t.Kind == sim.KindAM && l.order.fresh {
		q := base.QueueOf(t.Job)
		st := l.order.stat(q)
		st.am = st.am.Add(t.Req)
	}
}

// New builds a Fair policy.
func New(sp base.Spec) (*sim.Policy, error) {
	for _, q := range sp.Queues {
		if q.Weight < 0 {
			return nil, fmt.Errorf("fair: queue %q has negative weight", q.Name)
		}
	}
	o := NewOrder(sp)
	am := &AMShare{order: o}
	a := &base.Allocator{Order: o, Limits: []base.Limit{am}, Hooks: []base.Launched{am}, Reserve: true}
	p := &sim.Policy{Name: "fair", Allocate: a, Params: &sim.Params{}}
	p.Params.Add(sim.Param{Name: "max_am_share", Doc: "share of a queue's fair share its AMs may hold; -1 switches the limit off",
		Ref: "YARN FairScheduler maxAMShare (default 0.5)", Min: -1, Max: 1, Default: 0.5, Value: &am.MaxAMShare})
	a.Params(p.Params, 0)
	p.State = []sim.StateVar{{Name: "am_vcores_share", Doc: "vCores held by running AMs / cluster vCores (what maxAMShare bounds per queue)",
		Get: am.vcoresShare, Min: 0, Max: 1}}
	return p, nil
}

// vcoresShare is the running AMs' share of the cluster's vCores.
func (l *AMShare) vcoresShare() float64 {
	if l.order.sim == nil {
		return 0
	}
	s := l.order.sim
	var v int64
	for _, j := range s.Active() {
		if j.AM != nil && j.AM.State == sim.TaskRunning {
			v += j.AM.Req.VCores
		}
	}
	return float64(v) / float64(s.Capacity().VCores)
}
