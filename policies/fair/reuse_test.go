package fair_test

import (
	"math"
	"reflect"
	"testing"

	"yarngym/env/scenario"
	"yarngym/env/sim"
	_ "yarngym/policies"
)

// A Fair policy given to a second run plays it as a fresh one would: what
// it keeps by job ID (the update's cached demands, delay scheduling's
// state) is another run's and must not leak into this one, whose job IDs
// are the same. The first run stops halfway, its jobs holding containers
// and cached demands.
func TestPolicyGivenToASecondRun(t *testing.T) {
	for _, name := range []string{"quick", "opera-mr"} {
		sc, err := scenario.Load(name, nil)
		if err != nil {
			t.Fatal(err)
		}
		run := func(seed uint64, p *sim.Policy, untilMs sim.Ms) (sim.Summary, []sim.Ms, *sim.Policy) {
			cfg, err := sc.Build(seed, "fair")
			if err != nil {
				t.Fatal(err)
			}
			if p != nil {
				cfg.Policy = p
			}
			s, err := sim.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			s.RunUntil(untilMs)
			sum := s.Summary()
			var ends []sim.Ms
			for _, j := range s.Jobs {
				ends = append(ends, j.FinishMs)
			}
			return sum, ends, cfg.Policy
		}
		full, _, _ := run(1, nil, math.MaxInt64)
		_, _, used := run(1, nil, full.EndMs/2)
		wantSum, wantEnds, _ := run(2, nil, math.MaxInt64)
		gotSum, gotEnds, _ := run(2, used, math.MaxInt64)
		if !reflect.DeepEqual(gotSum, wantSum) || !reflect.DeepEqual(gotEnds, wantEnds) {
			t.Errorf("%s: the policy's second run differs from a fresh policy's:\n got %+v\n    %v\nwant %+v\n    %v", name, gotSum, gotEnds, wantSum, wantEnds)
		}
	}
}
