package dress

import (
	"math"
	"testing"

	"yarngym/env/sim"
)

// naiveCounts is Alg. 2's counts for phase p by a scan of its members: the
// tasks still running and those that finished in (from, now], with the
// earliest such finish (the reference Phase.counts keeps incrementally).
func naiveCounts(p *Phase, from, now sim.Ms) (running, ct int, first sim.Ms) {
	first = math.MaxInt64
	for _, m := range p.members {
		switch {
		case !m.ended && !m.carried:
			running++
		case m.finish > from && m.finish <= now:
			ct++
			first = min(first, m.finish)
		}
	}
	return running, ct, first
}

// TestCountsAgainstScan drives trackers through random starts, finishes,
// kills and rebinds (phases open, close, release and trail), and before
// every check compares each phase still checked with a scan of its
// members, from time 0 (where a window reaches below 0) on.
func TestCountsAgainstScan(t *testing.T) {
	for seed := uint64(1); seed <= 30; seed++ {
		r := sim.NewRand(seed)
		cfg := &Detect{PW: sim.Ms(1000 * (1 + r.IntN(20))), Ts: float64(r.IntN(4)), Te: float64(r.IntN(4))}
		tr := NewTracker(cfg)
		var running []int32
		next := int32(0)
		now := sim.Ms(0)
		checked := 0
		for step := 0; step < 3000; step++ {
			now += sim.Ms(r.IntN(1500))
			switch k := r.IntN(10); {
			case k < 4: // a burst of starts
				for range 1 + r.IntN(6) {
					tr.Started(next, 1+float64(r.IntN(3)), now)
					running = append(running, next)
					next++
				}
			case k < 8 && len(running) > 0: // a finish or a kill
				i := r.IntN(len(running))
				tr.Ended(running[i], r.IntN(8) > 0, now)
				running = append(running[:i], running[i+1:]...)
			case k == 8 && len(running) > 0: // rebind: renamed, or left without running
				i := r.IntN(len(running))
				if r.IntN(2) == 0 {
					tr.Rebound([]int32{running[i]}, []int32{next}, now, func(int32) float64 { return 1 })
					running[i] = next
					next++
				} else {
					tr.Rebound([]int32{running[i]}, []int32{-1}, now, func(int32) float64 { return 1 })
					running = append(running[:i], running[i+1:]...)
				}
			}
			from := now - cfg.PW
			for _, p := range tr.phases {
				if p.Trailed || p.done {
					continue
				}
				wr, wc, wf := naiveCounts(p, from, now)
				gr, gc, gf := p.counts(from)
				if gr != wr || gc != wc || gf != wf {
					t.Fatalf("seed %d step %d at %d: counts (running %d, in window %d, first %d), a scan of the members (%d, %d, %d)", seed, step, now, gr, gc, gf, wr, wc, wf)
				}
				checked++
			}
			tr.Check(now)
		}
		if checked == 0 || len(tr.phases) < 2 {
			t.Fatalf("seed %d: %d phases, %d checks: the test exercised nothing", seed, len(tr.phases), checked)
		}
	}
}
