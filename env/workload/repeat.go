package workload

import "fmt"

// traceMaxRepeat bounds the repeat option of the trace loaders.
const traceMaxRepeat = 10000

// repeatPeriod is how far apart the copies of a repeated trace start: the
// span from its first to its last submission plus the mean gap between
// submissions, so that laid end to end the copies go on arriving at the
// trace's own rate (seconds, before time_scale). A trace of one job, or
// whose jobs all submit at once, has period 0: its copies submit together.
func repeatPeriod(firstS, lastS float64, jobs int) float64 {
	if jobs < 2 {
		return 0
	}
	span := lastS - firstS
	return span + span/float64(jobs-1)
}

func checkRepeat(n int) error {
	if n < 1 || n > traceMaxRepeat {
		return fmt.Errorf("repeat: must be in [1, %d], got %d", traceMaxRepeat, n)
	}
	return nil
}

// copyName names copy k of a trace's job: the original name for copy 0, so a
// trace read once keeps its names.
func copyName(name string, k int) string {
	if k == 0 {
		return name
	}
	return fmt.Sprintf("%s-copy%d", name, k)
}
