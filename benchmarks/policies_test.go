package benchmarks

import (
	"testing"

	"yarngym/benchmarks/suite"
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
		b.Run(p.Scenario+"/"+p.Policy, func(b *testing.B) { benchRun(b, p.Scenario, p.Policy) })
	}
	for _, sk := range skipped {
		b.Run(sk.Scenario+"/"+sk.Policy, func(b *testing.B) { b.Skip(sk.Reason) })
	}
}
