package ikayak

import (
	"math"
	"testing"

	"yarngym/env/sim"
	"yarngym/policies/base"
)

// take is a layout entry: launch k pending tasks of job j's stage st.
type take struct{ j, st, k int }

// layout builds 4 nodes of <8 vCores, 16 GB> and launches, on each, the
// tasks its entries name (at its first heartbeat from 1 s), then returns the
// run at 2 s. Jobs: 0 MapReduce (80 maps and 28 reducers, <1, 2 GB>, long),
// 1 the Spark application placed (executors <4, 6 GB>), 2 another Spark
// application (executors <2, 4 GB>).
func layout(t *testing.T, per map[int][]take) *sim.Sim {
	t.Helper()
	nodes := make([]sim.NodeSpec, 4)
	for i := range nodes {
		nodes[i] = sim.NodeSpec{Name: "n", Cap: res(8, 16384)}
	}
	jobs := []sim.JobSpec{
		mrSpec("mr", 0, 80, 3000, 28, 3000, res(1, 2048), 0),
		sparkSpec("spark", 0, 4, 300, res(4, 6144)),
		sparkSpec("other", 0, 8, 300, res(2, 4096)),
	}
	lay := &script{pick: func(h sim.Handle, n *sim.Node) []*sim.Task {
		var out []*sim.Task
		for _, e := range per[int(n.ID)] {
			out = append(out, pending(h, e.j, e.st, e.k)...)
		}
		return out
	}}
	s, err := sim.New(sim.Config{Nodes: nodes, Jobs: jobs, Policy: &sim.Policy{Name: "layout", Allocate: lay}})
	if err != nil {
		t.Fatal(err)
	}
	s.RunUntil(2000)
	if err := sim.CheckInvariants(s); err != nil {
		t.Fatal(err)
	}
	return s
}

// fixed gives reducers remaining times by their launch order on each node.
type fixed map[int32][]float64

func (f fixed) Remaining(h sim.Handle, t *sim.Task) float64 {
	k := 0
	for _, c := range t.Node.Containers {
		if c == t {
			return f[t.Node.ID][k]
		}
		if c.Kind == sim.KindReduce {
			k++
		}
	}
	return math.Inf(1)
}

func executor(s *sim.Sim) *sim.Task { return s.Jobs[1].Stages[0].Tasks[0] }

// TestReservationPlacement: Alg. 1-2 on hand-built clusters: nodes with
// enough free resource first (the most free best), then nodes where free +
// map resource suffices (the most best), then the node whose reducers free
// enough soonest (Alg. 2's minimum Wait^n, not the single shortest reducer);
// nodes where even every reducer would not suffice, and nodes reserved for
// another task, are never chosen.
// Reference: iKayak Sec. 3.1, Alg. 1 and Alg. 2.
func TestReservationPlacement(t *testing.T) {
	const mr, red, other = 0, 1, 2
	maps := func(k int) take { return take{mr, 0, k} }
	reds := func(k int) take { return take{mr, red, k} }
	cases := []struct {
		name   string
		per    map[int][]take
		rem    fixed
		want   int
		cases  []Case    // per node
		keys   []float64 // per node (NaN: not checked)
		reserv int       // node reserved for another task first, -1 none
	}{
		{
			name: "free resource first, the most free best",
			per:  map[int][]take{0: {maps(2)}, 1: {}, 2: {maps(6)}, 3: {maps(3), reds(4)}},
			want: 1, cases: []Case{CaseFree, CaseFree, CaseMap, CaseMap},
			keys:   []float64{-1.5, -2, -2, -1}, // amounts: min(6/4, 12/6), min(8/4, 16/6), free+map min(8/4, 16/6), free+map min(4/4, 8/6)
			reserv: -1,
		},
		{
			name: "then free + map resource, the most best",
			per:  map[int][]take{0: {maps(7)}, 1: {maps(5), reds(2)}, 2: {reds(7)}, 3: {maps(4), reds(3)}},
			rem:  fixed{2: {1, 1, 1, 1, 1, 1, 1}},
			want: 0, cases: []Case{CaseMap, CaseMap, CaseReduce, CaseMap},
			keys:   []float64{-2, -1.5, 1, -1.25},
			reserv: -1,
		},
		{
			name: "then the minimum wait for reducers, not the shortest reducer",
			// Each node has <1, 2 GB> free: the executor needs 3 more vCores,
			// i.e. three reducers. Node 1 holds the single shortest reducer
			// (5 s) but its third ends at 1000 s; node 0's third at 30 s.
			// Node 3's reducer ends at once, but it is the only one there.
			per: map[int][]take{0: {reds(7)}, 1: {reds(7)}, 2: {reds(7)}, 3: {{other, 0, 3}, reds(1)}},
			rem: fixed{0: {10, 500, 20, 400, 30, 600, 700}, 1: {5, 15, 1000, 1000, 1000, 1000, 1000},
				2: {40, 40, 40, 40, 40, 40, 40}, 3: {1}},
			want: 0, cases: []Case{CaseReduce, CaseReduce, CaseReduce, CaseNone},
			keys:   []float64{30, 1000, 40, math.Inf(1)},
			reserv: -1,
		},
		{
			name:   "a node reserved for another task is skipped",
			per:    map[int][]take{0: {maps(2)}, 1: {}, 2: {maps(6)}, 3: {maps(3), reds(4)}},
			want:   0,
			cases:  []Case{CaseFree, CaseFree, CaseMap, CaseMap},
			keys:   []float64{-1.5, -2, -2, -1},
			reserv: 1,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := layout(t, c.per)
			r := &Reservation{Pred: c.rem}
			ex := executor(s)
			if c.reserv >= 0 {
				if err := s.Reserve(s.Nodes[c.reserv], s.Jobs[other].Stages[0].Tasks[7]); err != nil {
					t.Fatal(err)
				}
			}
			for i, n := range s.Nodes {
				cs, k := r.Evaluate(s.Handle(), n, ex)
				if cs != c.cases[i] || (!math.IsNaN(c.keys[i]) && !near(k, c.keys[i], 1e-9) && !(math.IsInf(k, 1) && math.IsInf(c.keys[i], 1))) {
					t.Errorf("node %d: case %d key %v, want case %d key %v", i, cs, k, c.cases[i], c.keys[i])
				}
			}
			if got := r.Choose(s.Handle(), ex, nil); got == nil || int(got.ID) != c.want {
				t.Fatalf("chose %v, want node %d", got, c.want)
			}
			// Excluding the best moves the choice on; the placer reserves it.
			if got := r.Choose(s.Handle(), ex, s.Nodes[c.want]); got != nil && int(got.ID) == c.want {
				t.Fatalf("chose the excluded node %d", c.want)
			}
		})
	}
}

// TestPlacerReservesChosenNode: when the executor fits nowhere, the placer
// reserves the node Alg. 1-2 chooses (not the heartbeating one); when it
// fits on the chosen node it launches there at once.
// Reference: iKayak Sec. 3.1 ("Place executor on the selected node").
func TestPlacerReservesChosenNode(t *testing.T) {
	s := layout(t, map[int][]take{0: {{0, 0, 7}}, 1: {{0, 1, 7}}, 2: {{0, 0, 4}, {0, 1, 3}}, 3: {{0, 1, 7}}})
	pol, a, err := capacityBase(base.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	_ = pol
	pl := NewPlacer(a, &Reservation{Pred: fixed{1: {9, 9, 9, 9, 9, 9, 9}, 2: {9, 9, 9}, 3: {9, 9, 9, 9, 9, 9, 9}}})
	ex := executor(s)
	// Node 3 heartbeats; the best is node 0 (free + maps suffice): reserved.
	if pl.place(s.Handle(), ex, s.Nodes[3], nil, true) {
		t.Fatal("the executor was sent to the heartbeating node")
	}
	if ex.ReservedOn() != s.Nodes[0] {
		t.Fatalf("reserved %v, want node 0", ex.ReservedOn())
	}
	// A second executor of the application, placed without a reservation
	// of its own, waits: it does not fit anywhere now.
	ex2 := s.Jobs[1].Stages[0].Tasks[1]
	if pl.place(s.Handle(), ex2, s.Nodes[3], s.Nodes[3], false) || ex2.ReservedOn() != nil || ex2.State != sim.TaskPending {
		t.Fatal("a second executor was placed or reserved")
	}
	if err := sim.CheckInvariants(s); err != nil {
		t.Fatal(err)
	}
}

// TestSpreadOut: Spark's placements on a hand-built cluster. They see a
// node's resource as its capacity less the Spark executors on it, ignoring
// the MapReduce containers: SpreadOut picks the usable node with the fewest
// executors of the application, NonSpreadOut the one with the most; ties go
// to the most Spark-free cores, then node order.
// Reference: iKayak Sec. 5.2, [9] (spark.deploy.spreadOut).
func TestSpreadOut(t *testing.T) {
	// Application "other" (<2, 4 GB> executors): 2 on node 0, 1 on node 1;
	// node 2 full of maps; node 3 holds a <4, 6 GB> executor of "spark".
	s := layout(t, map[int][]take{0: {{2, 0, 2}}, 1: {{2, 0, 1}}, 2: {{0, 0, 8}}, 3: {{1, 0, 1}}})
	ex := s.Jobs[2].Stages[0].Tasks[3]
	if got := (&SpreadOut{}).Choose(s.Handle(), ex, nil); got == nil || got.ID != 2 {
		t.Fatalf("SpreadOut chose %v, want node 2 (none of the application's executors, 8 Spark-free cores)", got)
	}
	if got := (&SpreadOut{Pack: true}).Choose(s.Handle(), ex, nil); got == nil || got.ID != 0 {
		t.Fatalf("NonSpreadOut chose %v, want node 0 (most of the application's executors, room for one more)", got)
	}
	if got := (&SpreadOut{}).Choose(s.Handle(), ex, s.Nodes[2]); got == nil || got.ID != 3 {
		t.Fatalf("SpreadOut without node 2 chose %v, want node 3", got)
	}
	// A <4, 6 GB> executor: node 0 has 8 - 4 = 4 Spark-free cores, 16 - 8 =
	// 8 GB: usable; NonSpreadOut for "spark" prefers node 3 (one of its own).
	if got := (&SpreadOut{Pack: true}).Choose(s.Handle(), s.Jobs[1].Stages[0].Tasks[1], nil); got == nil || got.ID != 3 {
		t.Fatalf("NonSpreadOut chose %v for spark, want node 3", got)
	}
	// Reserved executors keep their node.
	if err := s.Reserve(s.Nodes[1], ex); err != nil {
		t.Fatal(err)
	}
	if got := (&SpreadOut{}).Choose(s.Handle(), ex, nil); got != s.Nodes[1] {
		t.Fatalf("a reserved executor moved to %v", got)
	}
}
