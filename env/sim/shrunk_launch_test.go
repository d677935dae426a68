package sim_test

import (
	"math"
	"testing"

	"yarngym/env/sim"
	"yarngym/internal/simtest"
)

// shrinkAlloc launches every pending task of the first job shrunk to size.
type shrinkAlloc struct{ size sim.Res }

func (a shrinkAlloc) Allocate(h sim.Handle, n *sim.Node) {
	for _, j := range h.Active() {
		for t := h.NextTask(j, n, sim.OffRack); t != nil && a.size.Fits(n.Free()); t = h.NextTask(j, n, sim.OffRack) {
			if err := h.LaunchShrunk(t, n, a.size); err != nil {
				panic(err)
			}
		}
	}
}

// noLaunch launches nothing: the test drives the launches itself.
type noLaunch struct{}

func (noLaunch) Allocate(sim.Handle, *sim.Node) {}

// TestLaunchShrunk: a task launched shrunk holds the smaller allocation (the
// node's and the job's books agree, invariants hold at every event), its
// memory use is capped at the shrunk size, and its Spill phase runs at the
// memory fraction of its speed while its other phases are unaffected.
// Reference: iKayak Sec. 3.3, Alg. 3 (containers shrunk at initialisation).
func TestLaunchShrunk(t *testing.T) {
	prof := &sim.Profile{Name: "spilly", Phases: []sim.Phase{
		{Name: "map", Frac: 0.5, CPU: 0.5, Mem: 0.9},
		{Name: "spill", Frac: 0.5, CPU: 0.5, Mem: 0.9, Spill: true},
	}}
	cases := []struct {
		name    string
		size    sim.Res
		wantS   float64 // task run time
		wantMem float64 // memory use while running
	}{
		{"full size", res(2, 2048), 100, 0.9 * 2048},
		{"half memory", res(2, 1024), 50 + 50/0.5, 1024},
		{"quarter memory, 1 vCore", res(1, 512), 50 + 50/0.25, 512},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			j := job("j", 0, 1, res(2, 2048), 100, prof)
			j.Stages[0].Kind = sim.KindMap
			var peak float64
			var held sim.Res
			cfg := sim.Config{Nodes: []sim.NodeSpec{{Name: "n", Cap: res(4, 4096)}}, Jobs: []sim.JobSpec{j},
				Policy: &sim.Policy{Name: "shrink", Allocate: shrinkAlloc{c.size}}, Model: sim.Model{HeartbeatMs: 100}, KeepTasks: true}
			cfg.AfterEvent = simtest.Invariants(t, func(s *sim.Sim) {
				n := s.Nodes[0]
				peak = math.Max(peak, n.Demand.MemMB)
				if len(n.Containers) == 1 {
					held = n.Alloc
				}
			})
			s2, err := sim.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			s2.Run()
			tk := s2.AllTasks()[0]
			got := float64(tk.FinishMs-tk.StartMs) / 1000
			if math.Abs(got-c.wantS) > 0.01 {
				t.Errorf("run time %.3f s, want %.3f", got, c.wantS)
			}
			if held != c.size {
				t.Errorf("node held %v, want %v", held, c.size)
			}
			if math.Abs(peak-c.wantMem) > 1e-6 {
				t.Errorf("memory use %.1f MB, want %.1f", peak, c.wantMem)
			}
		})
	}
}

// TestLaunchShrunkRejects: sizes above the request, below one vCore or MB,
// and ApplicationMasters are refused without changing anything.
func TestLaunchShrunkRejects(t *testing.T) {
	j := job("j", 0, 1, res(2, 2048), 10, flat(1, 100, 0))
	j.AM = res(1, 512)
	s, err := sim.New(sim.Config{Nodes: []sim.NodeSpec{{Name: "n", Cap: res(8, 8192)}}, Jobs: []sim.JobSpec{j},
		Policy: &sim.Policy{Name: "none", Allocate: noLaunch{}}})
	if err != nil {
		t.Fatal(err)
	}
	s.RunUntil(1) // the job arrives and is admitted
	n := s.Nodes[0]
	am := s.Jobs[0].AM
	if err := s.LaunchShrunk(am, n, res(1, 256)); err == nil {
		t.Fatal("an AM was launched shrunk")
	}
	if err := s.Launch(am, n, sim.Guaranteed); err != nil {
		t.Fatal(err)
	}
	s.RunUntil(10_000) // the AM starts up and requests its task
	tk := s.Jobs[0].Stages[0].Tasks[0]
	for _, size := range []sim.Res{res(3, 1024), res(1, 4096), res(0, 1024), res(1, 0)} {
		if err := s.LaunchShrunk(tk, n, size); err == nil {
			t.Fatalf("size %v accepted for request %v", size, tk.Req)
		}
	}
	if n.Alloc != res(1, 512) || tk.State != sim.TaskPending {
		t.Fatalf("a refused launch changed the books: node %v, task %v", n.Alloc, tk.State)
	}
	if err := sim.CheckInvariants(s); err != nil {
		t.Fatal(err)
	}
}
