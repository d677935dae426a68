package capacity_test

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"yarngym/env/sim"
	"yarngym/internal/fakehandle"
	"yarngym/policies/base"
	"yarngym/policies/capacity"
)

// TestKeysRankLikeLess: the ranking by Queues.Keys is the stable sort by
// Queues.Less (the reference the allocator used before keys), on random
// hierarchies, usages, job orders and both resource calculators; where a
// job sits in a parent of another job's queue, Keys declines.
func TestKeysRankLikeLess(t *testing.T) {
	configs := [][]base.Queue{
		nil, // one default queue
		{{Name: "a", Capacity: 0.3}, {Name: "b", Capacity: 0.7}},
		{{Name: "a", Capacity: 0.2}, {Name: "b", Capacity: 0.2}, {Name: "c", Capacity: 0.6}},
		{{Name: "a", Capacity: 0.5}, {Name: "b", Capacity: 0.5},
			{Name: "a.x", Capacity: 0.5}, {Name: "a.y", Capacity: 0.5},
			{Name: "b.x", Capacity: 0.25}, {Name: "b.y", Capacity: 0.75}},
		{{Name: "p", Capacity: 1}, {Name: "p.q", Capacity: 0.4}, {Name: "p.r", Capacity: 0.6},
			{Name: "p.q.s", Capacity: 0.5}, {Name: "p.q.t", Capacity: 0.5}},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	ranked, declined := 0, 0
	for ci, qs := range configs {
		var leaves, parents []string
		for _, q := range qs {
			isParent := false
			for _, o := range qs {
				if len(o.Name) > len(q.Name) && o.Name[:len(q.Name)+1] == q.Name+"." {
					isParent = true
				}
			}
			if isParent {
				parents = append(parents, q.Name)
			} else {
				leaves = append(leaves, q.Name)
			}
		}
		if len(qs) == 0 {
			leaves = []string{""}
		}
		for trial := range 60 {
			for _, calc := range []float64{0, 1} {
				name := fmt.Sprintf("config%d/trial%d/calculator%v", ci, trial, calc)
				inParent := len(parents) > 0 && trial%4 == 3
				q, h, jobs := keysCluster(t, qs, calc, leaves, parents, inParent, rng)
				q.Prepare(h)
				want := slices.Clone(jobs)
				slices.SortStableFunc(want, func(x, y *sim.Job) int {
					switch {
					case q.Less(h, x, y):
						return -1
					case q.Less(h, y, x):
						return 1
					}
					return 0
				})
				keys := make([]uint64, len(jobs))
				if !q.Keys(h, jobs, keys) {
					if !inParent {
						t.Fatalf("%s: Keys declined with every job in a leaf queue", name)
					}
					declined++
					continue
				}
				got := make([]int, len(jobs))
				for i := range got {
					got[i] = i
				}
				slices.SortFunc(got, func(a, b int) int { return cmp.Compare(keys[a], keys[b]) })
				for i, k := range got {
					if jobs[k] != want[i] {
						t.Fatalf("%s: rank %d is job %d by Keys, job %d by Less", name, i, jobs[k].ID, want[i].ID)
					}
				}
				ranked++
			}
		}
	}
	if ranked == 0 || declined == 0 {
		t.Fatalf("ranked %d rankings, declined %d: both cases must be exercised", ranked, declined)
	}
}

// keysCluster lays out 2-12 jobs in random queues (and, with inParent, one
// in a parent queue), each holding 0-5 running containers of random size on
// a large cluster, and returns the policy's queues, the handle and the jobs
// in a shuffled order.
func keysCluster(t *testing.T, qs []base.Queue, calc float64, leaves, parents []string, inParent bool, rng *rand.Rand) (*capacity.Queues, *fakehandle.Cluster, []*sim.Job) {
	t.Helper()
	q, err := capacity.NewQueues(base.Spec{Queues: qs})
	if err != nil {
		t.Fatal(err)
	}
	q.Calculator = calc
	node := sim.Res{VCores: 64, MemMB: 64 * 1024}
	h := fakehandle.New(node, node, node, node)
	n := 2 + rng.IntN(11)
	for i := range n {
		queue := leaves[rng.IntN(len(leaves))]
		if inParent && i == 0 {
			queue = parents[rng.IntN(len(parents))]
		}
		running := rng.IntN(6)
		j := h.AddJob(fakehandle.Job{Name: fmt.Sprint("j", i), Queue: queue, Req: gb(1), Tasks: running + 1})
		for k := range running {
			tk := j.Stages[0].Tasks[k]
			tk.Req = sim.Res{VCores: 1 + int64(rng.IntN(8)), MemMB: 1024 * (1 + int64(rng.IntN(4)))}
			for _, nd := range h.Nodes() {
				if h.FitsFree(tk.Req, nd) {
					h.Run(tk, nd)
					break
				}
			}
		}
	}
	jobs := slices.Clone(h.Active())
	rng.Shuffle(len(jobs), func(a, b int) { jobs[a], jobs[b] = jobs[b], jobs[a] })
	return q, h, jobs
}
