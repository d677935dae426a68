package benchmarks

import (
	"testing"

	"yarngym/env/scenario"
	"yarngym/env/sim"
)

// benchRun times whole runs of a scenario under policy (empty: the
// scenario's own; building the run is not timed) and reports simulated
// events per second of wall time and simulated seconds per wall second.
func benchRun(b *testing.B, name, policy string) {
	sc, err := scenario.Load(name, nil)
	if err != nil {
		b.Fatal(err)
	}
	var events, simMs int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		cfg, err := sc.Build(uint64(i+1), policy)
		if err != nil {
			b.Fatal(err)
		}
		s, err := sim.New(cfg)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		sum := s.Run()
		events += sum.Events
		simMs += sum.EndMs
		if sum.JobsCompleted == 0 {
			b.Fatalf("%s under %s: no job completed", name, policy)
		}
	}
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(events)/sec, "events/s")
	b.ReportMetric(float64(simMs)/1000/sec, "sim-s/s")
	b.ReportMetric(float64(events)/float64(b.N), "events/run")
}

// BenchmarkSWIMDay: one simulated day of the SWIM FB-2009 trace (5,894
// jobs, ~190,000 tasks) on 600 nodes with 1 s heartbeats, under Fair.
// Run with -benchtime 1x: one iteration is a whole day.
func BenchmarkSWIMDay(b *testing.B) { benchRun(b, "swim-fb2009", "") }

// BenchmarkQuick: the small quick scenario (per-run overhead dominates).
func BenchmarkQuick(b *testing.B) { benchRun(b, "quick", "") }

// BenchmarkOperaMR: OPERA Sec. IV-B under Fair (2,878 tasks, 20 nodes).
func BenchmarkOperaMR(b *testing.B) { benchRun(b, "opera-mr", "") }
