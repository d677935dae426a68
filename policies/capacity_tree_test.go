package policies_test

import (
	"strings"
	"testing"

	"yarngym/env/sim"
	"yarngym/policies"
	"yarngym/policies/base"
)

// TestCapacityHierarchy: a parent's max-capacity binds its children
// together (p at most half the cluster, its children p.a and p.b each
// allowed all of p), and each child's capacity is a share of its parent's:
// with c idle, p.a and p.b together hold half the cluster, not all of it;
// with the hierarchy flattened (p.a and p.b under root, max 1) they would
// take the whole cluster.
func TestCapacityHierarchy(t *testing.T) {
	nodes := []sim.NodeSpec{{Name: "n0", Cap: res(8, 8192)}, {Name: "n1", Cap: res(8, 8192)}}
	jobs := []sim.JobSpec{job("a", "p.a", 0, 200, res(1, 1024), 5), job("b", "p.b", 0, 200, res(1, 1024), 5)}
	for _, c := range []struct {
		name   string
		queues []base.Queue
		most   int // the most containers p.a and p.b hold together
	}{
		{"tree", []base.Queue{{Name: "p", Capacity: 0.5, MaxCapacity: 0.5}, {Name: "p.a", Capacity: 0.5, MaxCapacity: 1}, {Name: "p.b", Capacity: 0.5, MaxCapacity: 1}, {Name: "c", Capacity: 0.5, MaxCapacity: 1}}, 8},
		{"flattened", []base.Queue{{Name: "p.a", Capacity: 0.25, MaxCapacity: 1}, {Name: "p.b", Capacity: 0.25, MaxCapacity: 1}, {Name: "c", Capacity: 0.5, MaxCapacity: 1}}, 16},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.name == "flattened" {
				// p.a and p.b as names under root need a declared parent p;
				// flatten them by name instead.
				for i := range c.queues {
					c.queues[i].Name = strings.ReplaceAll(c.queues[i].Name, ".", "")
				}
				jobs[0].Queue, jobs[1].Queue = "pa", "pb"
				defer func() { jobs[0].Queue, jobs[1].Queue = "p.a", "p.b" }()
			}
			most := 0
			runWatch(t, sim.Config{Nodes: nodes, Jobs: jobs, Policy: newPolicy(t, "capacity", base.Spec{Queues: c.queues},
				map[string]float64{"locality_delay": 0, "user_limit_factor": 10})},
				func(s *sim.Sim) {
					n := s.Jobs[0].Running + s.Jobs[1].Running
					if n > c.most {
						t.Fatalf("t=%d: p.a and p.b run %d containers, want at most %d", s.Now(), n, c.most)
					}
					most = max(most, n)
				})
			if most != c.most {
				t.Errorf("p.a and p.b ran at most %d containers together, want %d", most, c.most)
			}
		})
	}
}

// TestCapacityTreeRefused: a child needs its parent declared, and each
// parent's children's capacities must add up to 1.
func TestCapacityTreeRefused(t *testing.T) {
	for _, c := range []struct {
		queues []base.Queue
		want   string
	}{
		{[]base.Queue{{Name: "p.a", Capacity: 1}}, `its parent "p" is not declared`},
		{[]base.Queue{{Name: "p", Capacity: 1}, {Name: "p.a", Capacity: 0.5}}, `queue "p"'s children sum to 0.500`},
		{[]base.Queue{{Name: "p", Capacity: 1}, {Name: "p..a", Capacity: 1}}, "empty"},
	} {
		_, err := policies.New("capacity", base.Spec{Queues: c.queues})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: got %v, want an error containing %q", c.queues, err, c.want)
		}
	}
}
