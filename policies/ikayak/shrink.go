package ikayak

import "yarngym/env/sim"

// Shrinker is iKayak's locality-aware map task shrinking.
//
// Reference: iKayak Sec. 3.3, Alg. 3. When node M has free resource, the
// P_requested map tasks whose input block has a replica on M are all
// accepted if they fit; otherwise the number accepted is reduced step by step
// and each accepted task gets R_shrink = R_free / P_accepted, until R_shrink
// >= mu x R_demand, with the floor mu = N_local / (N_local + N_remote) the
// run's share of map tasks that read their input locally (1 before any map
// has finished: no shrinking). The accepted tasks are launched with the
// shrunk configuration (Sim.LaunchShrunk; a shrunk map keeps its data local
// but runs its spill phase at the memory fraction of its speed, Fig. 6).
//
// Resources are two-dimensional here: R_free / P is taken per dimension
// (integer vCores and MB), a shrunk container has at least one vCore, and
// R_shrink >= mu x R_demand must hold in both. Jobs are served in the
// scheduler's order, each with its own R_demand (Alg. 3 has one map size).
// The node is left alone while it is reserved (YARN's reservation).
type Shrinker struct {
	On float64 // parameter shrink (0/1)

	nLocal, nRemote int64
	Shrunk          int64 // map containers launched shrunk
	cand            []*sim.Task
}

// Mu is the shrinking floor N_local / (N_local + N_remote).
func (sh *Shrinker) Mu() float64 {
	if sh.nLocal+sh.nRemote == 0 {
		return 1
	}
	return float64(sh.nLocal) / float64(sh.nLocal+sh.nRemote)
}

// TaskEnded implements sim.TaskListener: finished maps count as local or
// remote accesses.
func (sh *Shrinker) TaskEnded(_ sim.Handle, t *sim.Task, o sim.Outcome) {
	if t.Kind != sim.KindMap || o != sim.Finished {
		return
	}
	if t.Locality == sim.NodeLocal {
		sh.nLocal++
	} else {
		sh.nRemote++
	}
}

// Accept is Alg. 3 for one node and one map size: how many of the p
// requested local maps to accept on free resource, and the configuration
// each gets. It returns 0 when not even one fits at mu x demand.
func Accept(free, demand sim.Res, p int, mu float64) (int, sim.Res) {
	const eps = 1e-9
	for ; p > 0; p-- {
		per := sim.Res{VCores: free.VCores / int64(p), MemMB: free.MemMB / int64(p)}
		if per.VCores >= 1 && float64(per.VCores) >= mu*float64(demand.VCores)-eps &&
			float64(per.MemMB) >= mu*float64(demand.MemMB)-eps && per.MemMB >= 1 {
			return p, sim.Res{VCores: min(per.VCores, demand.VCores), MemMB: min(per.MemMB, demand.MemMB)}
		}
	}
	return 0, sim.Res{}
}

// full reports whether n has no room for even the smallest shrunk map.
func full(n *sim.Node) bool {
	free := n.Free()
	return free.VCores < 1 || free.MemMB < 1
}

// Assign implements PreStep.
func (sh *Shrinker) Assign(h sim.Handle, n *sim.Node, pl *Placer) {
	if sh.On == 0 || n.Reserved != nil || full(n) {
		// A full node is the common case: do not rank the jobs for it (the
		// ranking's usage snapshot is taken again by the base loop).
		return
	}
	mu := sh.Mu()
	for _, j := range pl.Ranked(h) {
		if full(n) {
			return
		}
		ms := j.Stages[0]
		if ms.Spec.Kind != sim.KindMap || ms.Pending == 0 || !ms.Released {
			continue
		}
		sh.cand = sh.cand[:0]
		for _, t := range ms.Tasks {
			if t.State == sim.TaskPending && h.Requestable(t) && h.LocalityOf(t, n) == sim.NodeLocal {
				sh.cand = append(sh.cand, t)
			}
		}
		if len(sh.cand) == 0 {
			continue
		}
		k, size := Accept(n.Free(), ms.Spec.Req, len(sh.cand), mu)
		for _, t := range sh.cand[:k] {
			// The limits (queue max-capacity) see the size launched. A shrunk
			// container is the size iKayak's RM computes (Alg. 3 line 11:
			// R_free / P_accepted), not normalized to the scheduler's
			// increment.
			probe := *t
			probe.Req, probe.Sized = size, true
			if !h.CalcOn(n).Fits(size, n.Free()) || !pl.Allowed(h, &probe, n) {
				break
			}
			if err := pl.Launch(h, t, n, size); err != nil {
				panic(err)
			}
			pl.Base.ResetMisses(h, j) // a node-local launch, as in delay scheduling
			if size != t.Req {
				sh.Shrunk++
			}
		}
	}
}
