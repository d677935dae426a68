package env

import (
	"math"

	"yarngym/env/sim"
)

// observe writes the current observation (see the package doc for the
// features) into obs, which has length ObsDim.
func (e *Env) observe(obs []float32) {
	s := e.s
	g, opp, cpuUsed, memUsed := s.Totals()
	v := func(i int, x float64) {
		// Clamp to the declared bounds; NaN becomes 0 (then clamped).
		if x != x {
			x = 0
		}
		obs[i] = float32(math.Min(math.Max(x, e.lo[i]), e.hi[i]))
	}
	now := float64(s.Now())
	h := float64(e.horizonMs)
	n := e.led.n
	reservedV := float64(g.VCores + opp.VCores)
	reservedM := float64(g.MemMB + opp.MemMB)

	v(fTimeFrac, now/h)
	lastArrival := 0.0
	if k := e.led.next; k > 0 {
		lastArrival = float64(s.Jobs[k-1].Spec.SubmitMs)
	}
	v(fSinceArrival, (now-lastArrival)/h)
	v(fArrived, float64(e.led.next)/n)
	v(fDone, float64(e.completed)/n)
	v(fWaiting, float64(len(s.Waiting()))/n)
	v(fRunning, float64(len(s.Active()))/n)
	v(fVCoresG, float64(g.VCores)/e.capV)
	v(fVCoresO, float64(opp.VCores)/e.capV)
	v(fCPUUsed, cpuUsed/e.capV)
	v(fMemReserved, reservedM/e.capMem)
	v(fMemUsed, memUsed/e.capMem)
	v(fCPUGap, (reservedV-cpuUsed)/e.capV)
	v(fMemGap, (reservedM-memUsed)/e.capMem)

	var pending [5]int64 // am, map, reduce, executor, other
	var amV int64
	for _, j := range s.Active() {
		if j.AM != nil && j.AM.State == sim.TaskRunning {
			amV += j.AM.Alloc.VCores
		}
		if _, k := s.PendingDemand(j); k == 0 {
			continue
		}
		if j.AM != nil && j.AM.State == sim.TaskPending {
			pending[0] += j.AM.Req.VCores
			continue
		}
		for _, st := range j.Stages {
			k := st.Asking() // what the job asks for now, as PendingDemand
			if k == 0 {
				continue
			}
			c := 4
			switch st.Spec.Kind {
			case sim.KindAM:
				c = 0
			case sim.KindMap:
				c = 1
			case sim.KindReduce:
				c = 2
			case sim.KindExecutor:
				c = 3
			}
			pending[c] += st.Spec.Req.VCores * int64(k)
		}
	}
	v(fAMVCores, float64(amV)/e.capV)
	for c, p := range pending {
		v(fPendingAM+c, math.Log1p(float64(p)/e.capV))
	}
	v(fKillRate, math.Log1p(float64(e.lastKilled)/float64(e.nNodes)))
	v(fWasteRate, math.Log1p(float64(e.lastWastedMs)/(e.capV*float64(e.intervalMs))))
	v(fCompletedRate, float64(e.lastCompleted)/n)
	v(fSwapFrac, e.lastSwap)

	i := numBase
	for k, sv := range s.Policy().State {
		v(i, e.stateScale[k].scale(sv.Get()))
		i++
	}
	for k, p := range e.ctrl {
		x := 0.0
		if r := e.ctrlMax[k] - e.ctrlMin[k]; r > 0 {
			x = (*p.Value - e.ctrlMin[k]) / r
		}
		v(i, x)
		i++
	}
}

// stateScale maps a policy state variable onto [0, 1] by its declared
// range (sim.StateVar): x / per, then linearly or log1p-scaled.
type stateScale struct {
	per, min, span float64
	log, perJob    bool
}

func newStateScale(sv sim.StateVar, capV, capMem float64, nodes int) stateScale {
	per := 1.0
	switch sv.Per {
	case sim.PerVCore:
		per = capV
	case sim.PerMemMB:
		per = capMem
	case sim.PerNode:
		per = float64(nodes)
	}
	// PerJob's count is the episode's (Env.ResetInto sets per).
	sc := stateScale{per: per, min: sv.Min, span: sv.Max - sv.Min, log: sv.Log, perJob: sv.Per == sim.PerJob}
	if sc.log {
		sc.span = math.Log1p(sc.span)
	}
	return sc
}

func (sc stateScale) scale(x float64) float64 {
	x /= sc.per
	if sc.log {
		return math.Log1p(max(x-sc.min, 0)) / sc.span
	}
	return (x - sc.min) / sc.span
}
