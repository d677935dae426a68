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
	reservedV := float64(g.VCores + opp.VCores)
	reservedM := float64(g.MemMB + opp.MemMB)
	v(fTimeH, float64(s.Now())/3.6e6)
	v(fVCoresG, float64(g.VCores)/e.capV)
	v(fVCoresO, float64(opp.VCores)/e.capV)
	v(fCPUUsed, cpuUsed/e.capV)
	v(fMemReserved, reservedM/e.capMem)
	v(fMemUsed, memUsed/e.capMem)
	v(fCPUGap, (reservedV-cpuUsed)/e.capV)
	v(fMemGap, (reservedM-memUsed)/e.capMem)

	var pending [5]int64 // am, map, reduce, executor, other
	ams := 0
	for _, j := range s.Active() {
		if j.AM != nil && j.AM.State == sim.TaskRunning {
			ams++
		}
		if _, k := s.PendingDemand(j); k == 0 {
			continue
		}
		if j.AM != nil && j.AM.State == sim.TaskPending {
			pending[0] += j.AM.Req.VCores
			continue
		}
		for _, st := range j.Stages {
			if !st.Released || st.Pending == 0 {
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
			pending[c] += st.Spec.Req.VCores * int64(st.Pending)
		}
	}
	for c, p := range pending {
		v(fPendingAM+c, float64(p)/e.capV)
	}
	v(fJobsWaiting, float64(len(s.Waiting())))
	v(fJobsRunning, float64(len(s.Active())))
	v(fAMsRunning, float64(ams))
	v(fTasksKilled, float64(e.lastKilled))
	v(fWastedS, float64(e.lastWastedMs)/1000)
	v(fJobsCompleted, float64(e.lastCompleted))
	v(fSwapFrac, e.lastSwap)

	i := numBase
	for _, sv := range s.Policy().State {
		v(i, sv.Get())
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
