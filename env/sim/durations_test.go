package sim

import "testing"

// Drawn durations are the draws themselves: task i's duration is the i-th
// LogNormalMs of the stream, and the stream goes on after them as if they
// had been drawn (the generators' later draws do not move).
func TestLogNormalDurationsAreTheDraws(t *testing.T) {
	for _, c := range []struct {
		seed           uint64
		n              int
		medianS, sigma float64
	}{{1, 1, 10, 0.5}, {2, 37, 60, 1.2}, {3, 500, 0.0004, 2}, {4, 9, 30, 0}, {5, 0, 5, 1}} {
		eager, lazy := NewRand(c.seed), NewRand(c.seed)
		d := lazy.LogNormalDurations(c.n, c.medianS, c.sigma)
		ss := StageSpec{Drawn: d}
		if ss.NumTasks() != c.n {
			t.Fatalf("%+v: %d tasks", c, ss.NumTasks())
		}
		all := ss.Durations()
		for i := range c.n {
			want := eager.LogNormalMs(c.medianS, c.sigma)
			if got := ss.DurationMs(i); got != want || all[i] != want {
				t.Fatalf("%+v: task %d lasts %d ms (Durations %d), drawing gives %d", c, i, got, all[i], want)
			}
		}
		if a, b := eager.Uint64(), lazy.Uint64(); a != b {
			t.Errorf("%+v: the stream after the drawn durations differs from drawing them", c)
		}
	}
}
