package sim_test

import (
	"strings"
	"testing"

	"yarngym/env/sim"
	"yarngym/internal/simtest"
)

// TestPerTaskProfiles: a stage's per-task profiles (a trace's measured
// curves) replace the stage profile for their task only, and set the
// task's usage while it runs; a nil entry keeps the stage's.
func TestPerTaskProfiles(t *testing.T) {
	j := job("j", 0, 3, res(1, 1000), 10, flat(0.5, 100, 0))
	j.Stages[0].Profiles = []*sim.Profile{flat(0.25, 300, 0), nil, {Name: "two", Absolute: true, Phases: []sim.Phase{
		{Name: "a", Frac: 0.5, CPU: 0.75, Mem: 200}, {Name: "b", Frac: 0.5, CPU: 0.1, Mem: 600}}}}
	type seen struct{ cpu, mem float64 }
	got := map[int32][]seen{}
	cfg := sim.Config{Nodes: []sim.NodeSpec{{Name: "n", Cap: res(4, 4000)}}, Jobs: []sim.JobSpec{j},
		Model: sim.Model{HeartbeatMs: 100}, Policy: fifoPolicy(t), KeepTasks: true,
		AfterEvent: simtest.Invariants(t, func(s *sim.Sim) {
			for _, tk := range s.AllTasks() {
				if tk.State == sim.TaskRunning {
					l := got[tk.ID]
					if u := (seen{tk.Use.CPU, tk.Use.MemMB}); len(l) == 0 || l[len(l)-1] != u {
						got[tk.ID] = append(l, u)
					}
				}
			}
		})}
	s, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if sum := s.Run(); sum.JobsCompleted != 1 {
		t.Fatalf("summary %+v", sum)
	}
	want := map[int32][]seen{0: {{0.25, 300}}, 1: {{0.5, 100}}, 2: {{0.75, 200}, {0.1, 600}}}
	for id, w := range want {
		g := got[id]
		if len(g) != len(w) {
			t.Errorf("task %d: usage %v, want %v", id, g, w)
			continue
		}
		for i := range w {
			if g[i] != w[i] {
				t.Errorf("task %d: usage %v, want %v", id, g, w)
			}
		}
	}
	if s.Task(2).Profile().Name != "two" || s.Task(1).Profile().Name != "t" {
		t.Errorf("profiles %q, %q", s.Task(2).Profile().Name, s.Task(1).Profile().Name)
	}
}

// TestHostHints: a map's host hint places its block on that node (node k
// of a trace is node k mod the node count), so delay scheduling keeps it
// preferred by locality; -1 draws replicas as usual; hints and profiles must match the task
// count.
func TestHostHints(t *testing.T) {
	nodes := []sim.NodeSpec{{Name: "a", Cap: res(4, 4000)}, {Name: "b", Cap: res(4, 4000)}, {Name: "c", Cap: res(4, 4000)}}
	j := job("j", 0, 3, res(1, 1000), 10, flat(0.5, 100, 0))
	j.Stages[0].Kind = sim.KindMap
	j.Stages[0].Hosts = []int32{2, 4, -1}
	s, err := sim.New(sim.Config{Nodes: nodes, Jobs: []sim.JobSpec{j}, Policy: fifoPolicy(t), Model: sim.Model{HeartbeatMs: 100}})
	if err != nil {
		t.Fatal(err)
	}
	s.RunUntil(1) // the job arrives: its tasks are built
	if r := s.Task(0).Replicas; len(r) != 1 || r[0] != 2 {
		t.Errorf("hint 2: replicas %v", r)
	}
	if r := s.Task(1).Replicas; len(r) != 1 || r[0] != 1 {
		t.Errorf("hint 4 on 3 nodes: replicas %v, want [1]", r)
	}
	if r := s.Task(2).Replicas; len(r) != 3 {
		t.Errorf("no hint: replicas %v, want 3 drawn", r)
	}
	run(t, sim.Config{Nodes: nodes, Jobs: []sim.JobSpec{j}})

	for _, c := range []struct {
		name string
		mod  func(*sim.StageSpec)
		want string
	}{
		{"hosts", func(st *sim.StageSpec) { st.Hosts = []int32{1} }, "1 host hints for 3 tasks"},
		{"profiles", func(st *sim.StageSpec) { st.Profiles = []*sim.Profile{nil, nil} }, "2 per-task profiles for 3 tasks"},
		{"bad profile", func(st *sim.StageSpec) {
			st.Profiles = []*sim.Profile{nil, {Name: "bad", Phases: []sim.Phase{{Name: "x", Frac: 0.5}}}, nil}
		}, "task 1: profile \"bad\" phase fractions sum to 0.500"},
	} {
		bad := job("j", 0, 3, res(1, 1000), 10, flat(0.5, 100, 0))
		c.mod(&bad.Stages[0])
		_, err := sim.New(sim.Config{Nodes: nodes, Jobs: []sim.JobSpec{bad}, Policy: fifoPolicy(t)})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}
