package sim

import "math"

// LogNormalDurations describes a stage's task durations drawn from a
// log-normal distribution (median MedianS seconds, log-space spread Sigma)
// without holding them: the draws are a SplitMix64 stream's from state
// Start, two words per draw, so task i's duration is computed when its task
// is built, the same as if all had been drawn up front (Rand.LogNormalMs).
// A trace of millions of tasks holds 32 bytes per stage instead of 8 per
// task.
type LogNormalDurations struct {
	Count          int
	MedianS, Sigma float64
	Start          uint64 // the stream's state before the first draw
}

// normalWords is what Rand.NormFloat64 takes from the stream per draw.
const normalWords = 2

// golden is SplitMix64's increment (Rand.Uint64).
const golden = 0x9e3779b97f4a7c15

// LogNormalMs draws one duration (ms, at least 1): MedianS x exp(Sigma x
// N(0,1)), rounded to a millisecond.
func (r *Rand) LogNormalMs(medianS, sigma float64) Ms {
	d := Ms(math.Round(medianS * math.Exp(sigma*r.NormFloat64()) * 1000))
	return max(d, 1)
}

// LogNormalDurations describes the next n draws of LogNormalMs and moves
// the stream past them, as drawing them would.
func (r *Rand) LogNormalDurations(n int, medianS, sigma float64) LogNormalDurations {
	d := LogNormalDurations{Count: n, MedianS: medianS, Sigma: sigma, Start: r.state}
	r.state += uint64(n) * normalWords * golden
	return d
}

// At is task i's duration.
func (d *LogNormalDurations) At(i int) Ms {
	r := Rand{state: d.Start + uint64(i)*normalWords*golden}
	return r.LogNormalMs(d.MedianS, d.Sigma)
}

// NumTasks is the stage's task count.
func (ss *StageSpec) NumTasks() int {
	if len(ss.DurationsMs) > 0 {
		return len(ss.DurationsMs)
	}
	return ss.Drawn.Count
}

// DurationMs is task i's nominal duration.
func (ss *StageSpec) DurationMs(i int) Ms {
	if len(ss.DurationsMs) > 0 {
		return ss.DurationsMs[i]
	}
	return ss.Drawn.At(i)
}

// Durations returns every task's nominal duration (a new slice when they
// are drawn: for tools and tests, not the engine's loops).
func (ss *StageSpec) Durations() []Ms {
	if len(ss.DurationsMs) > 0 || ss.Drawn.Count == 0 {
		return ss.DurationsMs
	}
	out := make([]Ms, ss.Drawn.Count)
	for i := range out {
		out[i] = ss.Drawn.At(i)
	}
	return out
}
