package ras

import (
	"slices"

	"yarngym/env/sim"
)

// Placement is the placement matrix P = P^M + P^R of one control cycle:
// P^M[j][tt] map slots and P^R[j][tt] reduce slots of job j on TaskTracker
// tt, each slot bound to its job (a "job slot").
//
// Reference: RAS Sec. 3.1 (job slots, placement matrices P, P^M, P^R).
type Placement struct {
	Jobs  []*jobState
	Nodes []*sim.Node
	Maps  [][]int // [job][node]
	Reds  [][]int

	sAlloc, rAlloc []int
	demand         []Demand  // per node: the plan's profile demand
	req            []sim.Res // per node: the plan's container requests
	reds           []int     // per node: reducers planned
	mapReq, redReq []sim.Res // per job: one slot's container request
}

// newPlacement starts a cycle's placement from the tasks running now: what
// is placed is what runs (the Job Status Updater's view, Sec. 3.5: "any
// divergence between the placement matrix produced by the algorithm and the
// actual placement of tasks ... is noticed and considered in the following
// control cycle"). Running ApplicationMasters (YARN scenarios) are a fixed
// load.
func newPlacement(nodes []*sim.Node, jobs []*jobState, index map[*sim.Job]int) *Placement {
	p := &Placement{Jobs: jobs, Nodes: nodes, Maps: make([][]int, len(jobs)), Reds: make([][]int, len(jobs)),
		sAlloc: make([]int, len(jobs)), rAlloc: make([]int, len(jobs)), demand: make([]Demand, len(nodes)),
		req: make([]sim.Res, len(nodes)), reds: make([]int, len(nodes)), mapReq: make([]sim.Res, len(jobs)), redReq: make([]sim.Res, len(jobs))}
	for i, js := range jobs {
		p.Maps[i] = make([]int, len(nodes))
		p.Reds[i] = make([]int, len(nodes))
		for _, st := range js.j.Stages {
			if st.Spec.Kind == sim.KindReduce {
				p.redReq[i] = st.Spec.Req
			} else if p.mapReq[i].IsZero() {
				p.mapReq[i] = st.Spec.Req
			}
		}
	}
	for k, n := range nodes {
		for _, t := range n.Containers {
			if t.Kind == sim.KindAM {
				p.demand[k] = p.demand[k].add(amDemand(t))
				p.req[k] = p.req[k].Add(t.Alloc)
				continue
			}
			i, ok := index[t.Job]
			if !ok {
				continue
			}
			p.add(i, k, t.Kind == sim.KindReduce, 1)
		}
	}
	return p
}

// add places (delta > 0) or removes (delta < 0) |delta| slots of job i on
// node k.
func (p *Placement) add(i, k int, reduce bool, delta int) {
	js := p.Jobs[i]
	d, r := js.prof.Map, p.mapReq[i]
	if reduce {
		d, r = js.reducerDemand(), p.redReq[i]
		p.Reds[i][k] += delta
		p.rAlloc[i] += delta
		p.reds[k] += delta
	} else {
		p.Maps[i][k] += delta
		p.sAlloc[i] += delta
	}
	f := float64(delta)
	p.demand[k] = p.demand[k].add(Demand{d.CPU * f, d.MemMB * f, d.IOMBps * f})
	p.req[k] = p.req[k].Add(sim.Res{VCores: r.VCores * int64(delta), MemMB: r.MemMB * int64(delta)})
}

// Demand returns the plan's profile demand on node k.
func (p *Placement) Demand(k int) Demand { return p.demand[k] }

// U is job i's utility under the plan (Eq. 1).
func (p *Placement) U(i int) float64 { return p.Jobs[i].utilityOf(p.sAlloc[i], p.rAlloc[i]) }

// SAlloc and RAlloc are s_alloc and r_alloc of job i (Sec. 3.3).
func (p *Placement) SAlloc(i int) int { return p.sAlloc[i] }
func (p *Placement) RAlloc(i int) int { return p.rAlloc[i] }

// room is room_for_new_job_slot of Alg. 1: whether one more slot of job i's
// task type fits node k with the plan's demand, in every resource of the
// job's profile; the slot's container request must fit too (YARN nodes),
// and a reducer needs a reduce slot on a typed TaskTracker.
func (p *Placement) room(i, k int, reduce bool) bool {
	n := p.Nodes[k]
	js := p.Jobs[i]
	d, r := js.prof.Map, p.mapReq[i]
	if reduce {
		d, r = js.reducerDemand(), p.redReq[i]
		if n.Spec.ReduceSlots > 0 && p.reds[k] >= n.Spec.ReduceSlots {
			return false
		}
	}
	if !p.req[k].Add(r).Fits(n.Spec.Cap) {
		return false
	}
	return p.demand[k].add(d).Fits(Capacity(n))
}

// wantsMap reports whether job i has maps not yet given a slot.
func (p *Placement) wantsMap(i int) bool { return p.sAlloc[i] < p.Jobs[i].sWant }

// placeReducers is Alg. 1 lines 1-8: for each job, TaskTrackers sorted by
// the reducers placed on them (all jobs', then this job's), one reducer on
// each that has room, while the job has reducers left to place. Reducers
// are checked against the reducers (and AMs) already placed, not against
// maps: they are "placed first" and maps make way (trim).
//
// Reference: RAS Sec. 3.4 ("Reduce tasks are placed first to allow them to
// be evenly distributed across TaskTrackers ... avoiding collocating any two
// reduce tasks. If this is not feasible ... it then gives preference to
// avoiding collocating reduce tasks from the same job").
func (p *Placement) placeReducers() {
	// Room against reducers only: set the maps aside, then restore them.
	saved := p.setMapsAside()
	order := make([]int, len(p.Nodes))
	for i, js := range p.Jobs {
		left := js.rWant - p.rAlloc[i]
		if left <= 0 {
			continue
		}
		for k := range order {
			order[k] = k
		}
		slices.SortStableFunc(order, func(a, b int) int {
			if p.reds[a] != p.reds[b] {
				return p.reds[a] - p.reds[b]
			}
			return p.Reds[i][a] - p.Reds[i][b]
		})
		for _, k := range order {
			if left > 0 && p.room(i, k, true) {
				p.add(i, k, true, 1)
				left--
			}
		}
	}
	p.restoreMaps(saved)
}

func (p *Placement) setMapsAside() [][]int {
	saved := make([][]int, len(p.Jobs))
	for i := range p.Jobs {
		saved[i] = slices.Clone(p.Maps[i])
		for k, c := range saved[i] {
			if c > 0 {
				p.add(i, k, false, -c)
			}
		}
	}
	return saved
}

func (p *Placement) restoreMaps(saved [][]int) {
	for i := range p.Jobs {
		for k, c := range saved[i] {
			if c > 0 {
				p.add(i, k, false, c)
			}
		}
	}
}

// trim takes map slots off nodes whose plan exceeds their capacity (new
// reducers, reducers switched to their reduce profile), from the job with
// the highest utility first, so that the plan fits every node (Eq. 6). The
// running maps it drops finish; the Task Scheduler does not replace them.
func (p *Placement) trim() {
	for k, n := range p.Nodes {
		c := Capacity(n)
		for !p.demand[k].Fits(c) || !p.req[k].Fits(n.Spec.Cap) {
			out := p.maxU(func(i int) bool { return p.Maps[i][k] > 0 })
			if out < 0 {
				break // reducers and AMs alone: nothing the plan can move
			}
			p.add(out, k, false, -1)
		}
	}
}

// minU returns the job with the lowest utility among those ok accepts (ties:
// the earliest), or -1.
func (p *Placement) minU(ok func(int) bool) int {
	best, bu := -1, 0.0
	for i := range p.Jobs {
		if !ok(i) {
			continue
		}
		if u := p.U(i); best < 0 || u < bu {
			best, bu = i, u
		}
	}
	return best
}

// maxU returns the job with the highest utility among those ok accepts
// (ties: the latest), or -1.
func (p *Placement) maxU(ok func(int) bool) int {
	best, bu := -1, 0.0
	for i := range p.Jobs {
		if !ok(i) {
			continue
		}
		if u := p.U(i); best < 0 || u >= bu {
			best, bu = i, u
		}
	}
	return best
}

// placeMaps is Alg. 1 lines 9-25: rounds over the TaskTrackers; on each,
// map slots are taken from the job with the highest utility while its
// utility stays at least the lowest utility of a job that wants more maps
// (the job to receive), then the lowest-utility job that fits gets a slot,
// again and again, until no job fits ("it greedily places as many tasks as
// resources allow"). Rounds stop at maxRounds or when a round leaves the
// plan unchanged.
//
// Reference: RAS Sec. 3.4, Alg. 1, Eq. 4-6 ("maximizing the lowest utility
// value in the system ... a task gets de-allocated only if the utility of
// its corresponding job remains higher than the lowest utility of any other
// job in the system").
func (p *Placement) placeMaps(maxRounds int) {
	before := make([]int, len(p.Jobs))
	for round := 0; round < maxRounds; round++ {
		changed := false
		for k := range p.Nodes {
			for i := range p.Jobs {
				before[i] = p.Maps[i][k]
			}
			p.rebalance(k)
			for i := range p.Jobs {
				if p.Maps[i][k] != before[i] {
					changed = true
				}
			}
		}
		if !changed {
			return
		}
	}
}

// rebalance is one TaskTracker's step of a round (Alg. 1 lines 11-23).
//
// Removal (lines 13-19): a map slot is taken from the job with the highest
// utility on the node as long as, without it, that job's utility stays at
// least the lowest utility of any other job that wants maps; the last
// removal that breaks this is undone. The job compared against is the
// lowest-utility job wanting maps whether or not it fits yet: one removal
// may not free enough for it (a Sort map needs more CPU than a Combine map
// frees), and Sec. 3.4 states the rule against "the lowest utility of any
// other job in the system". Fill (lines 20-23): the lowest-utility job that
// fits gets the next slot until none fits; what the removals freed goes back
// to whoever fits best by utility.
func (p *Placement) rebalance(k int) {
	wants := func(i int) bool { return p.wantsMap(i) }
	for {
		out := p.maxU(func(i int) bool { return p.Maps[i][k] > 0 })
		if out < 0 {
			break
		}
		in := p.minU(func(i int) bool { return i != out && wants(i) })
		if in < 0 {
			break
		}
		uIn := p.U(in) // U(job_in, P_old): job_in is not job_out
		p.add(out, k, false, -1)
		// until U(job_out, P) < U(job_in, P_old); two jobs with no map
		// at all (-Inf) are not traded either.
		if uOut := p.U(out); uOut < uIn || uOut == uIn && uIn < -1e300 {
			p.add(out, k, false, 1) // P <- P_old
			break
		}
	}
	for {
		in := p.minU(func(i int) bool { return wants(i) && p.room(i, k, false) })
		if in < 0 {
			return
		}
		p.add(in, k, false, 1)
	}
}
