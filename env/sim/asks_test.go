package sim_test

import (
	"slices"
	"testing"

	"yarngym/env/sim"
	"yarngym/internal/simtest"
)

// mapsOnNode0 launches a job's AM on any node and one map container, only
// ever, on node 0.
type mapsOnNode0 struct{ given bool }

func (a *mapsOnNode0) Allocate(h sim.Handle, n *sim.Node) {
	for _, j := range h.Active() {
		if j.AM != nil && j.AM.State == sim.TaskPending {
			if err := h.Launch(j.AM, n, sim.Guaranteed); err == nil {
				return
			}
		}
		if n.ID != 0 || a.given {
			continue
		}
		for _, t := range j.Stages[0].Tasks {
			if h.Requestable(t) && h.FitsFree(t.Req, n) && h.Launch(t, n, sim.Guaranteed) == nil {
				a.given = true
				return
			}
		}
	}
}

// TestLocationAsksTable: the scheduler's request table for a MapReduce map
// stage (LocalityAppPlacementAllocator): three maps on hosts 0, 1 and 3
// (racks 0, 0, 1) name 3 hosts, 2 racks and any node, 6 locations. A
// node-local container on host 0 brings its count to 0 and removes the
// entry (decResourceRequest): 5. The AM's next allocate() sends host 0's
// count, 0, which puts the entry back (updatePendingAsk keeps a 0-count
// entry): 6 again.
func TestLocationAsksTable(t *testing.T) {
	nodes := make([]sim.NodeSpec, 6)
	for i := range nodes {
		nodes[i] = sim.NodeSpec{Name: "n", Rack: i / 3, Cap: res(4, 8192)}
	}
	j := job("m", 0, 3, res(1, 1024), 30, flat(1, 100, 0))
	j.Stages[0].Kind = sim.KindMap
	j.Stages[0].Hosts = []int32{0, 1, 3} // each map's one replica
	j.AM = res(1, 1024)
	var seen []int
	cfg := sim.Config{Nodes: nodes, Jobs: []sim.JobSpec{j}, Seed: 1,
		Policy: &sim.Policy{Name: "t", Allocate: &mapsOnNode0{}, Params: &sim.Params{}},
		Model:  sim.Model{HeartbeatMs: 1000, AMHeartbeatMs: 1000, AMStartupMs: 2000},
		AfterEvent: simtest.Invariants(t, func(s *sim.Sim) {
			if s.Jobs[0].State != sim.JobAdmitted {
				return
			}
			k, ok := s.LocationAsks(s.Jobs[0].Stages[0])
			if !ok {
				t.Fatal("a map stage of a job with an AM does not ask by location")
			}
			if len(seen) == 0 || seen[len(seen)-1] != k {
				seen = append(seen, k)
			}
		})}
	s, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.RunUntil(20000)
	if want := []int{0, 6, 5, 6}; !slices.Equal(seen, want) {
		t.Errorf("locations in the table over time %v, want %v", seen, want)
	}
}

// TestSimultaneousArrivals: jobs submitted at the same instant all arrive
// before a node heartbeat of that instant, which sees them all (the
// heartbeat at 1 s starts both AMs).
func TestSimultaneousArrivals(t *testing.T) {
	a := job("a", 1, 1, res(1, 100), 5, flat(0.5, 10, 0))
	b := job("b", 1, 1, res(1, 100), 5, flat(0.5, 10, 0))
	a.AM, b.AM = res(1, 100), res(1, 100)
	s := run(t, sim.Config{Nodes: []sim.NodeSpec{{Name: "n", Cap: res(4, 4000)}}, Jobs: []sim.JobSpec{a, b},
		Model: sim.Model{HeartbeatMs: 1000, AMStartupMs: 2000, AMHeartbeatMs: -1}})
	if x, y := s.Jobs[0].AM.StartMs, s.Jobs[1].AM.StartMs; x != 1000 || y != 1000 {
		t.Errorf("AMs started at %d and %d ms, want both at the heartbeat at 1000", x, y)
	}
}

// typedOnNode1 launches a job's AM on node 5 and one map container, only
// ever, on node 1, typed at level (LaunchTyped).
type typedOnNode1 struct {
	level sim.Locality
	given *sim.Task
}

func (a *typedOnNode1) Allocate(h sim.Handle, n *sim.Node) {
	for _, j := range h.Active() {
		if j.AM != nil && j.AM.State == sim.TaskPending {
			if n.ID == 5 {
				_ = h.Launch(j.AM, n, sim.Guaranteed)
			}
			return
		}
		if n.ID != 1 || a.given != nil {
			continue
		}
		for _, t := range j.Stages[0].Tasks {
			if h.Requestable(t) && h.FitsFree(t.Req, n) && h.LaunchTyped(t, n, sim.Guaranteed, a.level) == nil {
				a.given = t
				return
			}
		}
	}
}

// TestTypedContainer: a container's locality type decides which of the
// request table's counts go down (LocalityAppPlacementAllocator.allocate).
// Two maps on hosts 0 and 3 (racks 0 and 1) name 2 hosts, 2 racks and any
// node: 5 locations. Node 1 holds no replica but is on rack 0, whose count
// is 1: a container there typed rack-local (its counts' own level) brings
// rack 0's count to 0 and removes the entry (4 locations); typed
// off-switch (the CapacityScheduler's off-switch path, taken before its
// rack-local delay has passed) it takes only the any-node count down, and
// rack 0 stays (5). GivenLevel reports the type.
func TestTypedContainer(t *testing.T) {
	for _, c := range []struct {
		level     sim.Locality
		given     sim.Locality
		locations int
	}{
		{sim.NodeLocal, sim.RackLocal, 4}, // a more local type is taken as the counts' level
		{sim.RackLocal, sim.RackLocal, 4},
		{sim.OffRack, sim.OffRack, 5},
	} {
		nodes := make([]sim.NodeSpec, 6)
		for i := range nodes {
			nodes[i] = sim.NodeSpec{Name: "n", Rack: i / 3, Cap: res(4, 8192)}
		}
		j := job("m", 0, 2, res(1, 1024), 30, flat(1, 100, 0))
		j.Stages[0].Kind = sim.KindMap
		j.Stages[0].Hosts = []int32{0, 3} // each map's one replica
		j.AM = res(1, 1024)
		alloc := &typedOnNode1{level: c.level}
		locations := -1
		cfg := sim.Config{Nodes: nodes, Jobs: []sim.JobSpec{j}, Seed: 1,
			Policy: &sim.Policy{Name: "t", Allocate: alloc, Params: &sim.Params{}},
			Model:  sim.Model{HeartbeatMs: 1000, AMHeartbeatMs: 1000, AMStartupMs: 2000},
			AfterEvent: simtest.Invariants(t, func(s *sim.Sim) {
				if alloc.given != nil && locations < 0 {
					locations, _ = s.LocationAsks(s.Jobs[0].Stages[0])
				}
			})}
		s, err := sim.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		s.RunUntil(20000)
		if alloc.given == nil {
			t.Fatalf("typed %v: no map was given a container on node 1", c.level)
		}
		if got := s.GivenLevel(alloc.given); got != c.given {
			t.Errorf("typed %v: GivenLevel %v, want %v", c.level, got, c.given)
		}
		if locations != c.locations {
			t.Errorf("typed %v: %d locations in the table after the container, want %d", c.level, locations, c.locations)
		}
	}
}
