package sim_test

import (
	"fmt"
	"testing"

	"yarngym/env/sim"
)

// TestReducerPreemptionWhileJobsEnd is the regression test of the
// MapReduce AM's reducer preemption (preemptReducers) walking s.active:
// killing a reducer brings its node up to now, which can end another job's
// last task there and remove that job from the active list mid-walk. Small
// clusters full of early reducers (slow start 0.05) with every duration a
// whole number of AM ticks make kills and job ends fall on the same
// instant. Each seed must run to its end with the invariants held after
// every event. Before the walk went over a copy, seed 507 panicked with a
// nil job (the test fails that way with the copy removed).
func TestReducerPreemptionWhileJobsEnd(t *testing.T) {
	m := sim.Model{HeartbeatMs: 1000, AMTickMs: 1000, ReducePreemptMs: 3000}
	kills := 0
	for seed := uint64(1); seed <= 1000; seed++ {
		r := sim.NewRand(seed)
		var jobs []sim.JobSpec
		for i := range 3 + r.IntN(5) {
			maps := make([]sim.Ms, 2+r.IntN(8))
			for k := range maps {
				maps[k] = sim.Ms(1+r.IntN(6)) * 1000
			}
			reduces := make([]sim.Ms, 2+r.IntN(6))
			for k := range reduces {
				reduces[k] = sim.Ms(1+r.IntN(4)) * 1000
			}
			jobs = append(jobs, sim.JobSpec{
				Name: fmt.Sprintf("j%d", i), SubmitMs: sim.Ms(r.IntN(6)) * 1000,
				Stages: []sim.StageSpec{
					{Name: "map", Kind: sim.KindMap, Req: res(1, 1024), Profile: flat(1, 512, 0), DurationsMs: maps},
					{Name: "reduce", Kind: sim.KindReduce, Req: res(1, 1024), Profile: flat(1, 512, 0), DurationsMs: reduces, SlowStart: 0.05},
				},
			})
		}
		nodes := make([]sim.NodeSpec, 1+r.IntN(2))
		for k := range nodes {
			nodes[k] = sim.NodeSpec{Name: fmt.Sprintf("n%d", k), Cap: res(int64(2+r.IntN(3)), 16384), Speed: 1}
		}
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			s := run(t, sim.Config{Nodes: nodes, Jobs: jobs, Model: m, Seed: seed})
			kills += int(s.Stats().ReducePreempted)
		})
	}
	if kills == 0 {
		t.Fatal("no reducer was preempted on any seed: the test no longer exercises preemptReducers")
	}
	t.Logf("%d reducers preempted", kills)
}
