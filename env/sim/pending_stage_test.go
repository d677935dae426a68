package sim_test

import (
	"testing"

	"yarngym/env/sim"
)

// idle is an allocator that launches nothing.
type idle struct{}

func (idle) Allocate(sim.Handle, *sim.Node) {}

// TestNextTaskInStage: NextTask offers the later stage first; NextTaskInStage
// reaches an earlier stage's task, and nothing for a stage out of range.
func TestNextTaskInStage(t *testing.T) {
	j := job("a", 0, 2, res(1, 100), 10, flat(0.5, 10, 0))
	j.Stages = append(j.Stages, sim.StageSpec{Name: "second", Kind: sim.KindGeneric, Req: res(1, 100),
		Profile: flat(0.5, 10, 0), DurationsMs: []sim.Ms{1000}})
	s, err := sim.New(sim.Config{Nodes: []sim.NodeSpec{{Name: "n", Cap: res(4, 1000)}},
		Jobs: []sim.JobSpec{j}, Policy: &sim.Policy{Name: "idle", Allocate: idle{}}})
	if err != nil {
		t.Fatal(err)
	}
	s.RunUntil(1)
	jb, n := s.Jobs[0], s.Nodes[0]
	if got := s.NextTask(jb, n, sim.OffRack); got == nil || got.Stage.Index != 1 {
		t.Fatalf("NextTask = %v, want the second stage's task", got)
	}
	if got := s.NextTaskInStage(jb, 0, n, sim.OffRack); got == nil || got.Stage.Index != 0 || got.Index != 0 {
		t.Fatalf("NextTaskInStage(0) = %v, want task 0 of the first stage", got)
	}
	if got := s.NextTaskInStage(jb, 2, n, sim.OffRack); got != nil {
		t.Fatalf("NextTaskInStage(2) = %v, want nil", got)
	}
}
