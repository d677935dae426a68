package fair

import (
	"fmt"
	"math"
	"strings"

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

// The queue hierarchy: a queue's name is its path below root, its levels
// joined by dots ("eng.prod" is queue prod of parent queue eng, Hadoop's
// root.eng.prod). A parent need not be declared (it then has the defaults).

// parentOf is the queue's parent ("" for a queue directly under root).
func parentOf(q string) string {
	if i := strings.LastIndexByte(q, '.'); i >= 0 {
		return q[:i]
	}
	return ""
}

// ancestry calls f with q and then each of its parents up to the one
// directly under root, stopping when f returns false.
func ancestry(q string, f func(a string) bool) {
	for a := q; a != ""; a = parentOf(a) {
		if !f(a) {
			return
		}
	}
}

// siblings returns, for queues a and b in different places, the two
// children of their lowest common ancestor that hold them (a and b
// themselves when they share a parent): where the FairScheduler's
// recursive assignment compares them.
func siblings(a, b string) (string, string) {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	i := 0
	for i < len(pa)-1 && i < len(pb)-1 && pa[i] == pb[i] {
		i++
	}
	return strings.Join(pa[:i+1], "."), strings.Join(pb[:i+1], ".")
}

// depth is the queue's level below root (1 for a queue directly under it).
func depth(q string) int { return strings.Count(q, ".") + 1 }

// checkNames refuses queue names with an empty level ("a..b", ".a").
func checkNames(sp base.Spec) error {
	for _, q := range sp.Queues {
		for _, part := range strings.Split(q.Name, ".") {
			if part == "" {
				return fmt.Errorf("fair: queue %q: a level of its path is empty (a child queue is PARENT.CHILD)", q.Name)
			}
		}
	}
	return nil
}

// capped reports whether q or any of its parents has maxRunningApps.
func (c conf) capped(q string) bool {
	found := false
	ancestry(q, func(a string) bool {
		found = c.maxRunning(a) > 0
		return !found
	})
	return found
}
