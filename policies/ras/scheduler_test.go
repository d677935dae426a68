package ras

import (
	"testing"

	"yarngym/env/sim"
	"yarngym/env/workload"
	"yarngym/internal/simtest"
	"yarngym/policies/base"
)

// rasRun builds the RAS Gridmix workload (env/workload "ras", coarser blocks
// so that it runs fast) on 20 TaskTrackers under RAS.
func rasRun(t *testing.T, goals string, after func(*sim.Sim, *RAS)) *sim.Sim {
	t.Helper()
	g, ok := workload.Lookup("ras")
	if !ok {
		t.Fatal("no ras generator")
	}
	o := g.Options().(*workload.RASOptions)
	o.BlockMB, o.Goals = 512, goals
	jobs, err := g.Generate(o, sim.NewRand(7))
	if err != nil {
		t.Fatal(err)
	}
	var nodes []sim.NodeSpec
	for i := 0; i < 20; i++ {
		nodes = append(nodes, tasktracker("tt"))
	}
	pol, err := New(base.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	r := pol.Allocate.(*RAS)
	s, err := sim.New(sim.Config{Nodes: nodes, Jobs: jobs, Policy: pol, Seed: 7, Model: sim.Model{SwapExponent: 2},
		AfterEvent: simtest.Invariants(t, func(s *sim.Sim) {
			after(s, r)
		})})
	if err != nil {
		t.Fatal(err)
	}
	s.Run()
	return s
}

type slotKey struct {
	job    *sim.Job
	node   int
	reduce bool
}

// TestTaskSchedulerEnforcesPlan runs the Gridmix workload under RAS with the
// invariants checked after every event, and checks that (1) every plan fits
// each TaskTracker's CPU, memory and disk, except where tasks already running
// there exceed it and the plan adds nothing (Eq. 6; a reducer's switch to its
// reduce profile can do that); (2) the Task Scheduler never starts a task
// beyond its job's slots of that type on the node, nor one that takes the
// node's profile demand past its capacity; (3) every job completes.
// Reference: RAS Sec. 3.4, 3.5, Eq. 6.
func TestTaskSchedulerEnforcesPlan(t *testing.T) {
	cycles := 0
	prev := map[slotKey]int{}
	now := map[slotKey]int{}
	s := rasRun(t, "tight", func(s *sim.Sim, r *RAS) {
		p := r.plan
		if p == nil {
			return
		}
		if r.cycles != cycles {
			cycles = r.cycles
			checkPlan(t, s, p)
		}
		clear(now)
		for k, n := range s.Nodes {
			for _, tk := range n.Containers {
				now[slotKey{tk.Job, k, tk.Kind == sim.KindReduce}]++
			}
		}
		for key, c := range now {
			if c <= prev[key] {
				continue
			}
			i := -1
			for x, js := range p.Jobs {
				if js.j == key.job {
					i = x
				}
			}
			if i < 0 {
				t.Fatalf("t=%d: %s started a task with no slot in the plan", s.Now(), key.job.Spec.Name)
			}
			slots := p.Maps[i][key.node]
			if key.reduce {
				slots = p.Reds[i][key.node]
			}
			if c > slots {
				t.Fatalf("t=%d node %d: %s runs %d tasks (reduce %v) in %d planned slots", s.Now(), key.node, key.job.Spec.Name, c, key.reduce, slots)
			}
			n := s.Nodes[key.node]
			if d := r.nodeDemand(n); !d.Fits(Capacity(n)) {
				t.Fatalf("t=%d node %d: a launch took the profile demand to %+v, over %+v", s.Now(), key.node, d, Capacity(n))
			}
		}
		prev, now = now, prev
	})
	if sum := s.Summary(); sum.JobsCompleted != 9 {
		t.Fatalf("%d of 9 jobs completed", sum.JobsCompleted)
	}
	if cycles == 0 {
		t.Fatal("no control cycle ran")
	}
}

func checkPlan(t *testing.T, s *sim.Sim, p *Placement) {
	t.Helper()
	for k, n := range p.Nodes {
		if p.Demand(k).Fits(Capacity(n)) {
			continue
		}
		maps, reds := map[*sim.Job]int{}, map[*sim.Job]int{}
		for _, tk := range n.Containers {
			if tk.Kind == sim.KindReduce {
				reds[tk.Job]++
			} else {
				maps[tk.Job]++
			}
		}
		for i, js := range p.Jobs {
			if p.Maps[i][k] > maps[js.j] || p.Reds[i][k] > reds[js.j] {
				t.Fatalf("t=%d node %d: plan %+v exceeds capacity %+v and adds tasks of %s", s.Now(), k, p.Demand(k), Capacity(n), js.j.Spec.Name)
			}
		}
	}
}
