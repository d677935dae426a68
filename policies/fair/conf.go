package fair

import (
	"math"

	"yarngym/env/sim"
	"yarngym/policies/base"
)

// conf is the allocation file's settings of each declared queue
// (fair-scheduler.xml: weight, minResources, maxResources, maxRunningApps);
// a queue not declared has weight 1, no min share, no max share and no cap
// on running applications (AllocationConfiguration's defaults).
type conf map[string]base.Queue

func newConf(sp base.Spec) conf {
	c := conf{}
	for _, q := range sp.Queues {
		c[q.Name] = q
	}
	return c
}

// weight is the queue's weight (an undeclared or unset weight is 1).
func (c conf) weight(q string) float64 {
	if w := c[q].Weight; w > 0 {
		return w
	}
	return 1
}

// minShare is the queue's minResources.
func (c conf) minShare(q string) sim.Res {
	d := c[q]
	return sim.Res{MemMB: d.MinMemMB, VCores: d.MinVCores}
}

// maxShare is FSQueue.getMaxShare: maxResources (unbounded where unset),
// raised to minResources where that is larger.
func (c conf) maxShare(q string) sim.Res {
	d := c[q]
	m := sim.Res{MemMB: d.MaxMemMB, VCores: d.MaxVCores}
	if m.MemMB <= 0 {
		m.MemMB = math.MaxInt64
	}
	if m.VCores <= 0 {
		m.VCores = math.MaxInt64
	}
	return sim.Res{MemMB: max(m.MemMB, d.MinMemMB), VCores: max(m.VCores, d.MinVCores)}
}

// bounded reports whether any queue has a max share (maxResources).
func (c conf) bounded() bool {
	for _, q := range c {
		if q.MaxMemMB > 0 || q.MaxVCores > 0 {
			return true
		}
	}
	return false
}

// maxRunning is the queue's maxRunningApps (0: unbounded).
func (c conf) maxRunning(q string) int { return c[q].MaxRunningApps }
