package capacity

import (
	"math"
	"slices"

	"yarngym/env/sim"
	"yarngym/policies/base"
)

// Preemption is the CapacityScheduler's preemption monitor at its defaults
// (yarn.resourcemanager.scheduler.monitor.enable, policy
// ProportionalCapacityPreemptionPolicy): every monitoring interval it works
// out each queue's ideal share (its guarantee for a queue with demand below
// it, the rest to whoever still asks, at most its max-capacity), asks back
// from each queue over its ideal a fifth of the excess (natural termination
// factor), no more than a tenth of the cluster a round in all, and only from
// a queue more than 10 % over its guarantee; it picks the containers from
// the queue's newest application first, within it the stage asking at the
// numerically largest priority (the earliest: maps before reduces) first
// and its newest container first, its ApplicationMaster last; a container
// picked in a round is marked, and killed (its work lost) when picked again
// at least max_wait_before_kill after it was first marked (sim.Preempt: its
// job and queue free it at once, its node when the node manager reports
// it). Marked containers still count as used, so a round picks the same
// ones until they are killed; a mark not renewed for twice the wait is
// forgotten.
//
// Reference: Hadoop 3.3.6 ProportionalCapacityPreemptionPolicy,
// PreemptableResourceCalculator, AbstractPreemptableResourceCalculator
// (computeFixpointAllocation), TempQueuePerPartition (offer,
// assignPreemption), FifoCandidatesSelector,
// CapacitySchedulerPreemptionUtils (tryPreemptContainerAndDeductResToObtain),
// CapacityScheduler.markContainerForKillable; the spec with line numbers is
// oracle/PCPP.md. Where yarngym differs:
// leaf queues are taken as if directly under root (a hierarchy's parents
// are not distributed separately), queues are visited in configuration
// order (Hadoop: the hash order of their paths; it matters only through the
// round's shared budget), and an ApplicationMaster is never killed.
type Preemption struct {
	q *Queues
	// On is yarn.resourcemanager.scheduler.monitor.enable.
	On float64
	// IntervalMs, MaxWaitMs, PerRound, Deadzone and Natural are the
	// yarn.resourcemanager.monitor.capacity.preemption.* keys
	// monitoring_interval, max_wait_before_kill, total_preemption_per_round,
	// max_ignored_over_capacity and natural_termination_factor.
	IntervalMs, MaxWaitMs       float64
	PerRound, Deadzone, Natural float64
	marked                      map[*sim.Task]mark
}

// mark is when a container (a task's attempt) was first marked.
type mark struct {
	attempt int32
	at      sim.Ms
}

// params declares the monitor's parameters, named after Hadoop's keys.
func (p *Preemption) params(ps *sim.Params) {
	const pre = "Hadoop 3.3.6 yarn.resourcemanager.monitor.capacity.preemption."
	ps.Add(sim.Param{Name: "preemption", Doc: "1: the preemption monitor runs (ProportionalCapacityPreemptionPolicy); set before the run",
		Ref: "Hadoop 3.3.6 yarn.resourcemanager.scheduler.monitor.enable (default false)", Min: 0, Max: 1, Default: 0, Integer: true, Value: &p.On})
	ps.Add(sim.Param{Name: "preemption_interval_ms", Doc: "how often the monitor runs (ms); set before the run",
		Ref: pre + "monitoring_interval (default 3000)", Min: 1, Max: 3600000, Default: 3000, Integer: true, Value: &p.IntervalMs})
	ps.Add(sim.Param{Name: "preemption_max_wait_before_kill_ms", Doc: "how long after its first mark a container picked again is killed (ms)",
		Ref: pre + "max_wait_before_kill (default 15000)", Min: 0, Max: 3600000, Default: 15000, Integer: true, Value: &p.MaxWaitMs})
	ps.Add(sim.Param{Name: "preemption_total_per_round", Doc: "share of the cluster's memory a round may preempt in all",
		Ref: pre + "total_preemption_per_round (default 0.1)", Min: 0, Max: 1, Default: 0.1, Value: &p.PerRound})
	ps.Add(sim.Param{Name: "preemption_max_ignored_over_capacity", Doc: "a queue is preempted only when it holds more than (1 + this) x its guarantee",
		Ref: pre + "max_ignored_over_capacity (default 0.1)", Min: 0, Max: 10, Default: 0.1, Value: &p.Deadzone})
	ps.Add(sim.Param{Name: "preemption_natural_termination_factor", Doc: "share of a queue's excess over its ideal asked back per round",
		Ref: pre + "natural_termination_factor (default 0.2)", Min: 0, Max: 1, Default: 0.2, Value: &p.Natural})
}

// ControlIntervalMs implements sim.Controller.
func (p *Preemption) ControlIntervalMs() sim.Ms { return sim.Ms(math.Round(p.IntervalMs)) }

// leafPlan is one queue's figures in a round (MB): PCPP's TempQueuePerPartition.
type leafPlan struct {
	i                       int
	used, g, max, pend, pdr int64
	ideal, toObtain         int64
}

// Control implements sim.Controller: one editSchedule.
func (p *Preemption) Control(h sim.Handle) {
	if p.On == 0 {
		return
	}
	if p.marked == nil {
		p.marked = map[*sim.Task]mark{}
	}
	q := p.q
	q.Prepare(h) // usage per queue, reservations included
	c := h.Capacity().MemMB
	allowed := int64(float64(c) * float64(float32(p.PerRound)))
	plans := p.plan(h, c)
	p.ideal(plans, c)
	p.toObtain(plans, allowed)
	now := h.Now()
	for _, t := range p.pick(h, plans, &allowed) {
		m, ok := p.marked[t]
		switch {
		case ok && m.attempt == t.Attempt && m.at+sim.Ms(p.MaxWaitMs) <= now:
			delete(p.marked, t)
			_ = h.Preempt(t) // pick returns running guaranteed containers of tasks only: cannot fail
		case ok && m.attempt == t.Attempt:
		default:
			p.marked[t] = mark{attempt: t.Attempt, at: now}
		}
	}
	for t, m := range p.marked {
		if m.at+2*sim.Ms(p.MaxWaitMs) < now {
			delete(p.marked, t)
		}
	}
}

// plan is each leaf queue's usage, guarantee, maximum and pending demand
// (PCPP.cloneQueues; LeafQueue.getTotalPendingResourcesConsideringUserLimit:
// activated jobs only, each job's pending normalized requests capped by the
// one user's headroom, in submission order).
func (p *Preemption) plan(h sim.Handle, c int64) []leafPlan {
	q := p.q
	parent := make([]bool, len(q.queues))
	for _, qu := range q.queues {
		if qu.parent >= 0 {
			parent[qu.parent] = true
		}
	}
	var plans []leafPlan
	for i, qu := range q.queues {
		if !qu.configured || parent[i] {
			continue
		}
		lp := leafPlan{i: i, used: qu.used.MemMB,
			g:   int64(float64(c) * float64(float32(qu.capacity))),
			max: int64(float64(c) * float64(float32(qu.maxCap)))}
		head := max(int64(q.userLimitMB(h, &q.queues[i]))-qu.used.MemMB, 0)
		headDR := head
		for _, j := range h.Active() {
			if base.QueueOf(j) != qu.name {
				continue
			}
			pend := pendingMB(h, j)
			take := min(head, pend)
			lp.pend += take
			head -= take
			pdr := max(pend-base.ReservedMB(h, j), 0)
			take = min(headDR, pdr)
			lp.pdr += take
			headDR -= take
		}
		plans = append(plans, lp)
	}
	return plans
}

// pendingMB is what job j asks the scheduler for now, normalized: its AM if
// that is not running yet, else its stages' outstanding requests once the
// AM has registered and sent them (sim.HasPending).
func pendingMB(h sim.Handle, j *sim.Job) int64 {
	if j.AM != nil && j.AM.State == sim.TaskPending {
		return h.Normalized(j.AM.Req).MemMB
	}
	if !h.HasPending(j) {
		return 0
	}
	var mb int64
	for _, st := range j.Stages {
		if k := st.Asking(); k > 0 {
			mb += h.Normalized(st.Spec.Req).MemMB * int64(k)
		}
	}
	return mb
}

// ideal is AbstractPreemptableResourceCalculator.computeFixpointAllocation
// over the leaves: each starts at its usage (its guarantee if over it), and
// what is left goes, pass by pass, to the queues furthest below their
// guarantee in proportion to the guarantees of those still asking, each
// taking at most what TempQueuePerPartition.offer accepts.
func (p *Preemption) ideal(plans []leafPlan, c int64) {
	unassigned := c
	var need []int
	for k := range plans {
		lp := &plans[k]
		lp.ideal = lp.used
		if lp.used > lp.g {
			lp.ideal = lp.g
		}
		unassigned -= lp.ideal
		if lp.ideal < lp.used+lp.pend {
			need = append(need, k)
		}
	}
	pct := func(k int) float64 {
		if plans[k].g <= 0 {
			return math.MaxInt32
		}
		return float64(float32(plans[k].ideal) / float32(plans[k].g))
	}
	for len(need) > 0 && unassigned > 0 {
		var active int64
		for _, k := range need {
			active += plans[k].g
		}
		low := math.Inf(1)
		for _, k := range need {
			low = math.Min(low, pct(k))
		}
		var under, rest []int
		for _, k := range need {
			if pct(k) == low {
				under = append(under, k)
			} else {
				rest = append(rest, k)
			}
		}
		need = rest
		dup := unassigned
		for _, k := range under {
			if unassigned <= 0 {
				break
			}
			lp := &plans[k]
			norm := float32(0)
			if active > 0 {
				norm = float32(lp.g) / float32(active)
			}
			avail := min(int64(float64(dup)*float64(norm)+0.5), unassigned)
			acc := min(max(lp.max-lp.ideal, 0), avail, lp.used+lp.pdr-lp.ideal, max(max(lp.used, lp.g)-lp.ideal, 0))
			acc = min(max(acc, 0), avail)
			lp.ideal += acc
			if acc > 0 {
				need = append(need, k)
			}
			unassigned = max(unassigned-acc, 0)
		}
	}
}

// toObtain is what each queue is asked to give back this round
// (assignPreemption with the round's scaling, then
// PreemptableResourceCalculator's dead zone and natural termination).
func (p *Preemption) toObtain(plans []leafPlan, allowed int64) {
	var tot int64
	for _, lp := range plans {
		tot += max(lp.used-lp.ideal, 0)
	}
	sf := float32(1)
	if tot > allowed {
		sf = float32(allowed) / float32(tot)
	}
	for k := range plans {
		lp := &plans[k]
		minQ := max(min(lp.used+lp.pend, lp.g), lp.ideal)
		var tbp int64
		if lp.used > minQ {
			tbp = int64(float64(lp.used-minQ) * float64(sf))
		}
		lp.toObtain = 0
		if lp.used > int64(float64(lp.g)*(1+p.Deadzone)) && tbp > 0 {
			lp.toObtain = int64(float64(tbp)*p.Natural + 0.5)
		}
	}
}

// pick is FifoCandidatesSelector: per queue, its jobs newest first; a
// job's reservations are given up at once and count; then its running
// containers, latest stage first and newest first, while the queue still
// has something to give and the container fits what is left of the
// round's budget. ApplicationMasters would come last, and only while a
// queue's hold more than a tenth of its guarantee
// (FifoCandidatesSelector.preemptAMContainers): yarngym never kills one.
func (p *Preemption) pick(h sim.Handle, plans []leafPlan, allowed *int64) []*sim.Task {
	var out []*sim.Task
	for k := range plans {
		lp := &plans[k]
		if lp.toObtain <= 0 {
			continue
		}
		take := func(mb int64) bool {
			if lp.toObtain > 0 && mb <= *allowed {
				lp.toObtain -= mb
				*allowed -= mb
				return true
			}
			return false
		}
		name := p.q.queues[lp.i].name
		var jobs []*sim.Job
		for _, j := range h.Active() {
			if base.QueueOf(j) == name {
				jobs = append(jobs, j)
			}
		}
		slices.SortFunc(jobs, func(a, b *sim.Job) int { return int(b.ID - a.ID) })
		for _, j := range jobs {
			if lp.toObtain <= 0 {
				break
			}
			for _, n := range h.ReservedNodes() {
				if lp.toObtain <= 0 {
					break
				}
				if n.Reserved.Job == j {
					take(h.Normalized(n.Reserved.Req).MemMB)
					h.Unreserve(n) // KILL_RESERVED_CONTAINER: at once, whatever take said
				}
			}
			var live []*sim.Task
			for _, st := range j.Stages {
				for _, t := range st.Tasks {
					if t.State == sim.TaskRunning && t.Container == sim.Guaranteed {
						live = append(live, t)
					}
				}
			}
			// Hadoop's priorities: an earlier stage asks at a numerically
			// larger priority, which goes first; then the newest container.
			slices.SortFunc(live, func(a, b *sim.Task) int {
				if a.Stage.Index != b.Stage.Index {
					return a.Stage.Index - b.Stage.Index
				}
				return int(b.LaunchSeq - a.LaunchSeq)
			})
			for _, t := range live {
				if lp.toObtain <= 0 {
					break
				}
				if take(t.Alloc.MemMB) {
					out = append(out, t)
				}
			}
		}
	}
	return out
}
