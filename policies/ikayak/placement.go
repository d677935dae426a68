package ikayak

import (
	"cmp"
	"math"
	"slices"

	"yarngym/env/sim"
)

// Strategy chooses the node a pending Spark executor is placed on. It may
// return the node the executor already holds a reservation on, or nil (no
// node now: the executor is considered again later). It never returns a node
// reserved for another task, nor exclude.
type Strategy interface {
	Choose(h sim.Handle, t *sim.Task, exclude *sim.Node) *sim.Node
}

// NowChooser is a Strategy that can answer a narrower question cheaply: for
// a task holding no reservation, the node Choose would return if the task
// fits there now, nil if it would not fit there (or Choose returns none).
// The placer asks it when it only launches where a task fits now (the
// application's executors behind its head request).
type NowChooser interface {
	ChooseNow(h sim.Handle, t *sim.Task, exclude *sim.Node) *sim.Node
}

// amount is how many copies of req fit in r (the scarcer dimension): the
// scalar the paper's argmax over R_free (and R_free + R_map) ranks by.
// Assumed: the paper treats a node's resource as a scalar.
func amount(r, req sim.Res) float64 {
	v, m := math.Inf(1), math.Inf(1)
	if req.VCores > 0 {
		v = float64(r.VCores) / float64(req.VCores)
	}
	if req.MemMB > 0 {
		m = float64(r.MemMB) / float64(req.MemMB)
	}
	return math.Min(v, m)
}

func usable(n *sim.Node, t *sim.Task, exclude *sim.Node) bool {
	return n != exclude && t.Req.Fits(n.Spec.Cap) && (n.Reserved == nil || n.Reserved == t)
}

// Remainer predicts a running reducer's remaining time in seconds (the
// Predictor; tests use fixed values).
type Remainer interface {
	Remaining(h sim.Handle, t *sim.Task) float64
}

// Case is the Alg. 1 case a node falls in for an executor request.
type Case int

const (
	CaseFree   Case = 1 // R_free >= R_executor
	CaseMap    Case = 2 // R_free < R_executor <= R_free + R_map
	CaseReduce Case = 3 // R_free + R_map < R_executor: wait for reduce tasks (Alg. 2)
	CaseNone   Case = 4 // even every reducer finishing would not free enough
)

// Reservation is iKayak's reservation-aware executor placement.
//
// Reference: iKayak Sec. 3.1, Alg. 1 and Alg. 2. For an executor request
// R_executor every node n is evaluated for R_free^n (its unallocated
// resource), R_map^n (held by running map tasks, which "will release the
// occupied resource ... in a very short time") and its reduce tasks. Nodes
// with R_free >= R_executor come first, the one with the most free resource
// best; then nodes where R_free + R_map suffices, the one with the most
// free + map resource best; otherwise (Alg. 2) each node's reducers are
// sorted by predicted remaining time y_m^n and accumulated until their
// resource covers R_executor - (R_free + R_map); the node's waiting time is
// the largest remaining time accumulated, and the node with the minimum wait
// is chosen. The chosen node is reserved (Sim.Reserve) if the executor does
// not fit yet. An executor holding a reservation keeps it unless another
// node is now in a better case (placement is event-driven by resource
// changes, Sec. 4.1).
type Reservation struct {
	Pred Remainer
	// Susp, if set, adds a suspended reducer's remaining suspension to its
	// predicted remaining time.
	Susp *Suspender

	reds []reducerWait // scratch for Evaluate
}

// reducerWait is a reducer on the evaluated node: its predicted remaining
// time and its resource.
type reducerWait struct {
	rem   float64
	alloc sim.Res
	id    int32
}

// Evaluate returns node n's Alg. 1 case for executor t and its rank key
// within the case (lower is better): -amount(R_free) in case 1,
// -amount(R_free + R_map) in case 2, Wait^n in seconds in case 3.
func (r *Reservation) Evaluate(h sim.Handle, n *sim.Node, t *sim.Task) (Case, float64) {
	return r.evaluate(h, n, t, CaseReduce)
}

// evaluate is Evaluate worked out no further than case depth: a node in a
// later case comes back as case depth+1 with key +Inf. Depth CaseFree skips
// the map-held resource, CaseMap the reducers' waits (Alg. 2).
func (r *Reservation) evaluate(h sim.Handle, n *sim.Node, t *sim.Task, depth Case) (Case, float64) {
	calc := h.CalcOn(n) // the scheduler's fit test (Capacity: memory only)
	free := n.Free()
	if calc.Fits(t.Req, free) {
		return CaseFree, -amount(free, t.Req)
	}
	if depth == CaseFree {
		return CaseMap, math.Inf(1)
	}
	var mapR sim.Res
	for _, c := range n.Containers {
		if c.Container == sim.Guaranteed && c.Kind == sim.KindMap {
			mapR = mapR.Add(c.Alloc)
		}
	}
	fm := free.Add(mapR)
	if calc.Fits(t.Req, fm) {
		return CaseMap, -amount(fm, t.Req)
	}
	if depth == CaseMap {
		return CaseReduce, math.Inf(1)
	}
	reds := r.reds[:0]
	for _, c := range n.Containers {
		if c.Container == sim.Guaranteed && c.Kind == sim.KindReduce {
			rem := r.Pred.Remaining(h, c)
			if r.Susp != nil {
				rem += r.Susp.Left(h, c)
			}
			reds = append(reds, reducerWait{rem, c.Alloc, c.ID})
		}
	}
	r.reds = reds
	need := t.Req.Sub(fm)
	need = sim.Res{VCores: max(need.VCores, 0), MemMB: max(need.MemMB, 0)}
	slices.SortFunc(reds, func(a, b reducerWait) int {
		if c := cmp.Compare(a.rem, b.rem); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	})
	var acc sim.Res
	for _, rd := range reds {
		acc = acc.Add(rd.alloc)
		if calc.Fits(need, acc) {
			return CaseReduce, rd.rem
		}
	}
	return CaseNone, math.Inf(1)
}

// Choose implements Strategy. The reducers' waits (Alg. 2, which asks the
// predictor of every reducer) are only worked out when no node is in case 1
// or 2, since any such node beats every case-3 node.
func (r *Reservation) Choose(h sim.Handle, t *sim.Task, exclude *sim.Node) *sim.Node {
	depth := CaseMap
	best, bestCase := r.choose(h, t, exclude, depth)
	if bestCase > CaseMap {
		depth = CaseReduce
		best, bestCase = r.choose(h, t, exclude, depth)
	}
	if cur := t.ReservedOn(); cur != nil {
		c, _ := r.evaluate(h, cur, t, depth)
		if c == CaseFree || bestCase >= c {
			return cur
		}
	}
	if bestCase == CaseNone {
		return nil
	}
	return best
}

// ChooseNow implements NowChooser: Choose's node for an executor without a
// reservation when the executor fits there now, else nil. A node in case 1
// beats every other case, so Choose's node fits now exactly when some usable
// node is in case 1, and it is then the best of those (the most free
// resource, the first in node order among equals): neither the map-held
// resource nor the reducers' waits (Alg. 2) need working out.
func (r *Reservation) ChooseNow(h sim.Handle, t *sim.Task, exclude *sim.Node) *sim.Node {
	if best, c := r.choose(h, t, exclude, CaseFree); c == CaseFree {
		return best
	}
	return nil
}

// choose is the usable node with the best (case, key), the first in node
// order among equals, each node evaluated no further than depth.
func (r *Reservation) choose(h sim.Handle, t *sim.Task, exclude *sim.Node, depth Case) (*sim.Node, Case) {
	var best *sim.Node
	bestCase, bestKey := CaseNone+1, math.Inf(1)
	for _, n := range h.Nodes() {
		if !usable(n, t, exclude) {
			continue
		}
		c, k := r.evaluate(h, n, t, depth)
		if c < bestCase || (c == bestCase && k < bestKey) {
			best, bestCase, bestKey = n, c, k
		}
	}
	return best, bestCase
}

// SpreadOut and NonSpreadOut are Spark's standalone executor placements
// (spark.deploy.spreadOut true / false), the baselines of iKayak Sec. 5.2.
//
// Reference: iKayak Sec. 3.1 ("Both of them have no capability to place
// executors in a resource reservation aware manner") and [9]. As Spark's
// master, they see a worker's resource as its capacity less the Spark
// executors on it, not the MapReduce containers YARN has placed there; a
// worker is usable when one more executor fits in that. SpreadOut puts the
// executor on the usable worker hosting the fewest executors of its
// application; NonSpreadOut on the one hosting the most (filling a worker
// before moving on); both break ties by the most free cores, then node
// order, as Spark sorts workers by free cores. The chosen node is reserved
// if the executor does not fit yet, and the executor waits for it.
type SpreadOut struct {
	Pack bool // NonSpreadOut
}

// Choose implements Strategy.
func (so *SpreadOut) Choose(h sim.Handle, t *sim.Task, exclude *sim.Node) *sim.Node {
	if cur := t.ReservedOn(); cur != nil {
		return cur
	}
	var best *sim.Node
	bestMine, bestFree := 0, int64(0)
	for _, n := range h.Nodes() {
		if !usable(n, t, exclude) {
			continue
		}
		sparkFree := n.Spec.Cap
		mine := 0
		for _, c := range n.Containers {
			if c.Kind == sim.KindExecutor {
				sparkFree = sparkFree.Sub(c.Alloc)
				if c.Job == t.Job {
					mine++
				}
			}
		}
		if !h.CalcOn(n).Fits(t.Req, sparkFree) {
			continue
		}
		better := best == nil
		if !better && mine != bestMine {
			better = (mine < bestMine) != so.Pack
		} else if !better {
			better = sparkFree.VCores > bestFree
		}
		if better {
			best, bestMine, bestFree = n, mine, sparkFree.VCores
		}
	}
	return best
}
