package benchmarks

import (
	"testing"

	"yarngym/benchmarks/suite"
	"yarngym/env/scenario"
	"yarngym/env/sim"
)

// BenchmarkPolicy times each stock and paper policy on its paper's
// scenarios: the (scenario, policy) pairs of the "papers" suite (variants
// with extra settings left out), as sub-benchmarks named scenario/policy.
// A paper policy that is not registered (yet) is skipped with a message.
//
//	go test ./benchmarks -run '^$' -bench Policy -benchtime 3x
func BenchmarkPolicy(b *testing.B) {
	s, _ := suite.Lookup("papers")
	run, skipped := s.Resolve()
	for _, p := range run {
		if len(p.Sets) > 0 {
			continue
		}
		b.Run(p.Scenario+"/"+p.Policy, func(b *testing.B) { benchPolicy(b, p.Scenario, p.Policy) })
	}
	for _, sk := range skipped {
		b.Run(sk.Scenario+"/"+sk.Policy, func(b *testing.B) { b.Skip(sk.Reason) })
	}
}

// benchPolicy is benchScenario with the scenario's policy replaced: it
// times whole runs (building them is not timed) and reports simulated
// events per wall second and simulated seconds per wall second.
func benchPolicy(b *testing.B, name, policy string) {
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
