package workload

import (
	"fmt"
	"math"

	"yarngym/env/sim"
)

// A Rumen attempt's measured usage (clockSplits, cpuUsages, physMemKbytes)
// as the task's own absolute usage profile.

// minSplitFrac is the shortest a measured phase may be, as a fraction of
// the attempt: shorter splits merge with their neighbours.
const minSplitFrac = 1.0 / 24

// maxMeasuredCores bounds a measured phase's CPU (cores): a sanity limit on
// what a task's own JVM can use, far above the ~0.6-1.2 cores of the SLS
// sample's maps after merging.
const maxMeasuredCores = 16

// measuredProfile builds an absolute profile from an attempt's curves, nil
// (the engine's default) when it has none. A reduce's splits in its first
// third of progress form its shuffle, merged only among themselves.
func measuredProfile(kind string, clock, cpu, memKB []jsonInt) (*sim.Profile, error) {
	if len(clock) == 0 && len(cpu) == 0 && len(memKB) == 0 {
		return nil, nil
	}
	n := len(clock)
	if n == 0 || len(cpu) != n || len(memKB) != n {
		return nil, fmt.Errorf("clockSplits, cpuUsages and physMemKbytes have %d, %d and %d values, want the same number", len(clock), len(cpu), len(memKB))
	}
	total := 0.0
	for i := range clock {
		if clock[i] < 0 || cpu[i] < 0 || memKB[i] < 0 || float64(clock[i]) > traceMaxMs || float64(cpu[i]) > 1e15 || float64(memKB[i]) > 1e15 {
			return nil, fmt.Errorf("split %d: negative or huge value (clock %d ms, cpu %d ms, memory %d KB)", i, clock[i], cpu[i], memKB[i])
		}
		total += float64(clock[i])
	}
	if total <= 0 {
		return nil, nil // no time recorded: nothing to shape
	}
	shuffleEnd := 0
	if kind == "reduce" {
		shuffleEnd = (n + 2) / 3
	}
	// Group consecutive splits until a group lasts minSplitFrac of the
	// attempt; a short last group of a part joins the group before it.
	type grp struct {
		clk, cpu, mem float64
		cnt           int
		shuffle       bool
	}
	var groups []grp
	part := func(lo, hi int, shuffle bool) {
		first := len(groups)
		var g grp
		for i := lo; i < hi; i++ {
			g.clk += float64(clock[i])
			g.cpu += float64(cpu[i])
			g.mem += float64(memKB[i])
			g.cnt++
			if g.clk >= minSplitFrac*total {
				g.shuffle = shuffle
				groups = append(groups, g)
				g = grp{}
			}
		}
		if g.cnt == 0 {
			return
		}
		if len(groups) > first {
			last := &groups[len(groups)-1]
			last.clk, last.cpu, last.mem, last.cnt = last.clk+g.clk, last.cpu+g.cpu, last.mem+g.mem, last.cnt+g.cnt
			return
		}
		g.shuffle = shuffle
		groups = append(groups, g)
	}
	part(0, shuffleEnd, true)
	part(shuffleEnd, n, false)
	prof := &sim.Profile{Name: "rumen-" + kind, Absolute: true}
	for _, g := range groups {
		if g.clk <= 0 {
			continue
		}
		ph := sim.Phase{Name: fmt.Sprintf("split%d", len(prof.Phases)), Frac: g.clk / total, CPU: math.Min(g.cpu/g.clk, maxMeasuredCores),
			Mem: g.mem / float64(g.cnt) / 1024, Shuffle: g.shuffle}
		if g.shuffle {
			ph.Name = fmt.Sprintf("shuffle%d", len(prof.Phases))
		}
		prof.Phases = append(prof.Phases, ph)
	}
	if len(prof.Phases) == 0 {
		return nil, nil
	}
	// Renormalise the fractions against rounding.
	sum := 0.0
	for _, ph := range prof.Phases {
		sum += ph.Frac
	}
	for i := range prof.Phases {
		prof.Phases[i].Frac /= sum
	}
	if err := prof.Validate(); err != nil {
		return nil, err
	}
	return prof, nil
}
