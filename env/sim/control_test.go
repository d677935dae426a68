package sim_test

import (
	"testing"

	"yarngym/env/sim"
)

// cycles is a controller that records when its control cycles run.
type cycles struct {
	intervalMs sim.Ms
	at         []sim.Ms
}

func (c *cycles) ControlIntervalMs() sim.Ms { return c.intervalMs }
func (c *cycles) Control(h sim.Handle)      { c.at = append(c.at, h.Now()) }

// runCycles runs one 100 s job under FIFO with two controllers (30 s and 7 s)
// and returns the cycle times each saw.
func runCycles(t *testing.T, seed uint64, align bool) [2][]sim.Ms {
	t.Helper()
	p := fifoPolicy(t)
	a, b := &cycles{intervalMs: 30000}, &cycles{intervalMs: 7000}
	p.Controls = append(p.Controls, a, b)
	run(t, sim.Config{Policy: p, Seed: seed, AlignControl: align,
		Nodes: []sim.NodeSpec{{Name: "n", Cap: res(4, 4096)}},
		Jobs:  []sim.JobSpec{job("j", 0, 1, res(1, 1024), 100, flat(1, 1024, 0))}})
	return [2][]sim.Ms{a.at, b.at}
}

// TestControlPhase: a control cycle's first run is uniform in (0, T] and
// drawn from the run's seed (the controller's clock starts with the
// ResourceManager, not with the workload), then it repeats every T; the
// same seed gives the same phases; AlignControl starts every cycle at T.
func TestControlPhase(t *testing.T) {
	intervals := [2]sim.Ms{30000, 7000}
	firsts := [2]map[sim.Ms]bool{{}, {}}
	for seed := uint64(1); seed <= 20; seed++ {
		got := runCycles(t, seed, false)
		again := runCycles(t, seed, false)
		for i, at := range got {
			if len(at) < 3 {
				t.Fatalf("seed %d controller %d: %d cycles in a 100 s run", seed, i, len(at))
			}
			if at[0] <= 0 || at[0] > intervals[i] {
				t.Errorf("seed %d controller %d: first cycle at %d ms, want in (0, %d]", seed, i, at[0], intervals[i])
			}
			for k := 1; k < len(at); k++ {
				if at[k]-at[k-1] != intervals[i] {
					t.Errorf("seed %d controller %d: cycles at %d and %d ms, want %d apart", seed, i, at[k-1], at[k], intervals[i])
				}
			}
			if again[i][0] != at[0] {
				t.Errorf("seed %d controller %d: first cycle at %d, then %d ms in the same run", seed, i, at[0], again[i][0])
			}
			firsts[i][at[0]] = true
		}
		if got[0][0] == got[1][0] {
			t.Errorf("seed %d: both controllers start at %d ms", seed, got[0][0])
		}
		for i, at := range runCycles(t, seed, true) {
			if at[0] != intervals[i] {
				t.Errorf("seed %d controller %d aligned: first cycle at %d ms, want %d", seed, i, at[0], intervals[i])
			}
		}
	}
	for i, f := range firsts {
		if len(f) < 15 {
			t.Errorf("controller %d: %d distinct first cycles over 20 seeds, want phases that vary with the seed", i, len(f))
		}
	}
}
