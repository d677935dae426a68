package sim_test

import (
	"testing"

	"yarngym/env/sim"
	"yarngym/policies/base"
	"yarngym/policies/fifo"
)

func TestToySmoke(t *testing.T) {
	p, _ := fifo.New(base.Spec{})
	job := func(name string, at, r, l int64) sim.JobSpec {
		return sim.JobSpec{Name: name, SubmitMs: at * 1000, Stages: []sim.StageSpec{{Name: "s", Kind: sim.KindGeneric,
			Req: sim.Res{VCores: r, MemMB: r * 1024}, Profile: sim.FlatProfile, DurationsMs: []int64{l * 1000}}}}
	}
	s, err := sim.New(sim.Config{Nodes: []sim.NodeSpec{{Name: "n", Cap: sim.Res{VCores: 6, MemMB: 6144}}},
		Jobs: []sim.JobSpec{job("1", 0, 3, 10), job("2", 1, 4, 20), job("3", 2, 3, 10), job("4", 3, 3, 10)}, Policy: p,
		AfterEvent: func(s *sim.Sim) {
			if err := sim.CheckInvariants(s); err != nil {
				t.Fatal(err)
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	sum := s.Run()
	t.Logf("%+v", sum)
}
