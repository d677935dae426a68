package env

import (
	"fmt"
	"testing"
)

// BenchmarkEnvStep steps one Env on "quick" in 60 s intervals, resetting
// (with the next seed) when an episode ends; resets are part of the cost.
func BenchmarkEnvStep(b *testing.B) {
	e, err := New(Config{Scenario: "quick"})
	if err != nil {
		b.Fatal(err)
	}
	obs := make([]float32, e.ObsDim())
	seed := uint64(1)
	if _, err := e.ResetInto(seed, obs); err != nil {
		b.Fatal(err)
	}
	var events, prev int64
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_, term, trunc, info, err := e.StepInto(nil, obs)
		if err != nil {
			b.Fatal(err)
		}
		events += info.Events - prev
		prev = info.Events
		if term || trunc {
			seed++
			if _, err := e.ResetInto(seed, obs); err != nil {
				b.Fatal(err)
			}
			prev = 0
		}
	}
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(b.N)/sec, "steps/s")
	b.ReportMetric(float64(events)/sec, "events/s")
}

// BenchmarkBatchStep steps a Batch of N Envs on "quick" (60 s intervals,
// same-step autoreset) on GOMAXPROCS workers, and on one for comparison.
// One op is one batch step, i.e. N env steps.
func BenchmarkBatchStep(b *testing.B) {
	for _, c := range []struct{ n, k int }{{8, 0}, {64, 0}, {64, 1}} {
		b.Run(fmt.Sprintf("N=%d/K=%d", c.n, c.k), func(b *testing.B) {
			bt, err := NewBatch(Config{Scenario: "quick"}, c.n, c.k)
			if err != nil {
				b.Fatal(err)
			}
			defer bt.Close()
			n, od := c.n, bt.ObsDim()
			seeds := make([]uint64, n)
			for i := range seeds {
				seeds[i] = uint64(i + 1)
			}
			obs, fin := make([]float32, n*od), make([]float32, n*od)
			rew, term, trunc := make([]float64, n), make([]bool, n), make([]bool, n)
			if err := bt.Reset(seeds, nil, obs); err != nil {
				b.Fatal(err)
			}
			prev := make([]int64, n)
			var events int64
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := bt.Step(nil, obs, rew, term, trunc, fin); err != nil {
					b.Fatal(err)
				}
				for j, in := range bt.Infos() {
					events += in.Events - prev[j]
					prev[j] = in.Events
					if term[j] || trunc[j] {
						prev[j] = 0
					}
				}
			}
			sec := b.Elapsed().Seconds()
			b.ReportMetric(float64(b.N*n)/sec, "steps/s")
			b.ReportMetric(float64(events)/sec, "events/s")
		})
	}
}
