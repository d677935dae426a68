package workload

import (
	"fmt"

	"yarngym/env/sim"
)

// Windows of a trace (the swim and alibaba loaders' window_s, window,
// windows_from and windows_to): the trace is cut into consecutive windows of
// window_s seconds of submissions, counted from time 0, and one is replayed,
// fixed (window >= 0) or drawn per seed (window = -1) among those from
// windows_from to windows_to that hold jobs, so that a scenario is a family
// of workloads whose parts share no window (env/task, Task.Splits).

// checkWindows checks the window options against each other and repeat.
func checkWindows(windowS float64, window, from, to, repeat int) error {
	if !(windowS >= 0 && windowS <= traceMaxSec) {
		return fmt.Errorf("window_s: must be in [0, %g] s (0: the whole trace), got %v", float64(traceMaxSec), windowS)
	}
	if window < -1 || (windowS == 0 && window != 0) {
		return fmt.Errorf("window: %d; want -1 (drawn per seed) or a window index >= 0, with window_s > 0", window)
	}
	if from != 0 || to != -1 {
		if window != -1 {
			return fmt.Errorf("windows_from, windows_to: %d, %d restrict the windows drawn per seed; they need window = -1, got %d", from, to, window)
		}
		if from < 0 || to < -1 || (to >= 0 && to < from) {
			return fmt.Errorf("windows_from, windows_to: %d, %d; want 0 <= windows_from <= windows_to (or windows_to = -1: the last window)", from, to)
		}
	}
	if repeat > 1 && windowS > 0 {
		return fmt.Errorf("repeat: %d copies and a window (window_s %v) exclude each other", repeat, windowS)
	}
	return nil
}

// checkWindowsIn checks the window indices against a trace whose last
// submission is at lastS (name is the file, for messages).
func checkWindowsIn(name string, lastS, windowS float64, window, from, to int) error {
	if windowS <= 0 {
		return nil
	}
	n := int(lastS/windowS) + 1
	if window >= n {
		return fmt.Errorf("%s: window %d: the trace has %d windows of %g s", name, window, n, windowS)
	}
	if from >= n || to >= n {
		return fmt.Errorf("%s: windows_from, windows_to: %d, %d: the trace has %d windows of %g s (0 to %d)", name, from, to, n, windowS, n-1)
	}
	return nil
}

// pickWindow returns the window to replay, [lo, hi) s of submissions:
// window itself when it is >= 0, else one drawn from rng among the windows
// from `from` to `to` (-1: the last) that hold one of submits (seconds, in
// order). It draws from rng only for window = -1.
func pickWindow(submits []float64, windowS float64, window, from, to int, rng *sim.Rand) (k int, lo, hi float64, err error) {
	k = window
	if k < 0 {
		var held []int
		for _, t := range submits {
			i := int(t / windowS)
			if i < from || (to >= 0 && i > to) {
				continue
			}
			if len(held) == 0 || held[len(held)-1] != i {
				held = append(held, i)
			}
		}
		if len(held) == 0 {
			return 0, 0, 0, fmt.Errorf("windows_from, windows_to: no window from %d to %d holds jobs", from, to)
		}
		k = held[rng.IntN(len(held))]
	}
	return k, float64(k) * windowS, float64(k+1) * windowS, nil
}
