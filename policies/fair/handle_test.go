package fair_test

import (
	"slices"
	"testing"

	"yarngym/env/sim"
	"yarngym/internal/fakehandle"
	"yarngym/policies/base"
	"yarngym/policies/fair"
)

func gb(n int64) sim.Res { return sim.Res{VCores: 1, MemMB: n * 1024} }

// job lays out a job of queue q holding running tasks of 1 GB on node n1
// (the node the test does not offer) and asking for asks more.
type job struct {
	name, queue   string
	running, asks int
	askMB         int64
	// opp of the running tasks hold opportunistic containers (OPERA's):
	// the job holds them, the node's guaranteed allocation does not.
	opp int
}

// heartbeat builds Fair over queues on two nodes of <8 vCores, 8 GB>, lays
// out the jobs, runs one update() and one heartbeat of n0, and returns what
// it did.
func heartbeat(t *testing.T, queues []base.Queue, params map[string]float64, jobs []job, blockMB int64) []string {
	t.Helper()
	p, err := fair.New(base.Spec{Queues: queues})
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range params {
		if err := p.Params.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	node := sim.Res{VCores: 8, MemMB: 8192}
	h := fakehandle.New(node, node).For(p)
	n0, n1 := h.Nodes()[0], h.Nodes()[1]
	if blockMB > 0 {
		x := h.AddJob(fakehandle.Job{Name: "x", Req: sim.Res{VCores: 1, MemMB: blockMB}, Tasks: 1})
		h.Run(x.Stages[0].Tasks[0], n0)
	}
	for _, jb := range jobs {
		req := gb(1)
		if jb.askMB > 0 {
			req.MemMB = jb.askMB
		}
		j := h.AddJob(fakehandle.Job{Name: jb.name, Queue: jb.queue, Req: req, Tasks: jb.running + jb.asks})
		for i, tk := range j.Stages[0].Tasks[:jb.running] {
			tk.Req = gb(1)
			kind := sim.Guaranteed
			if i < jb.opp {
				kind = sim.Opportunistic
			}
			h.RunAs(tk, n1, kind)
		}
	}
	for _, c := range p.Controls {
		c.Control(h)
	}
	p.Allocate.Allocate(h, n0)
	return h.Log
}

// TestFairHeartbeat: which job Fair serves on one heartbeat, on clusters laid
// out by hand (a fake handle, no simulation).
// Reference: Hadoop 3.3.6 FairSharePolicy.FairShareComparator (min share,
// then memory per weight, then name; jobs by memory held, then
// submission), FairScheduler.attemptScheduling (assignmultiple,
// dynamic.max.assign), FSAppAttempt.isReservable.
func TestFairHeartbeat(t *testing.T) {
	ab := []base.Queue{{Name: "a", Weight: 1}, {Name: "b", Weight: 1}}
	for _, c := range []struct {
		name    string
		queues  []base.Queue
		params  map[string]float64
		jobs    []job
		blockMB int64
		want    []string
	}{
		{name: "equal weights: the queue holding less memory first", queues: ab,
			jobs: []job{{name: "ja", queue: "a", running: 4, asks: 1}, {name: "jb", queue: "b", running: 2, asks: 1}},
			want: []string{"launch jb/s/2 on n0"}},
		{name: "memory held per unit of weight: 2 GB at weight 1 comes after 4 GB at weight 3",
			queues: []base.Queue{{Name: "a", Weight: 1}, {Name: "b", Weight: 3}},
			jobs:   []job{{name: "ja", queue: "a", running: 2, asks: 1}, {name: "jb", queue: "b", running: 4, asks: 1}},
			want:   []string{"launch jb/s/4 on n0"}},
		{name: "a queue below its min share first, though it holds more",
			queues: []base.Queue{{Name: "a", Weight: 1, MinMemMB: 8192}, {Name: "b", Weight: 1}},
			jobs:   []job{{name: "ja", queue: "a", running: 4, asks: 1}, {name: "jb", queue: "b", running: 1, asks: 1}},
			want:   []string{"launch ja/s/4 on n0"}},
		{name: "jobs of one queue: the one holding less first",
			jobs: []job{{name: "j1", running: 2, asks: 1}, {name: "j2", running: 1, asks: 1}},
			want: []string{"launch j2/s/1 on n0"}},
		{name: "opportunistic containers count as held: 1 GB guaranteed and 2 GB opportunistic come after 2 GB (OPERA Sec. III-E: 'actual occupied resources')",
			jobs: []job{{name: "j1", running: 3, opp: 2, asks: 1}, {name: "j2", running: 2, asks: 1}},
			want: []string{"launch j2/s/2 on n0"}},
		{name: "jobs of one queue holding as much: the first submitted first",
			jobs: []job{{name: "j1", running: 1, asks: 1}, {name: "j2", running: 1, asks: 1}},
			want: []string{"launch j1/s/1 on n0"}},
		{name: "assignmultiple with dynamic.max.assign: containers until they exceed half the node's free resources (4 vCores)",
			params: map[string]float64{"assignmultiple": 1},
			jobs:   []job{{name: "j", asks: 8}},
			want:   []string{"launch j/s/0 on n0", "launch j/s/1 on n0", "launch j/s/2 on n0", "launch j/s/3 on n0", "launch j/s/4 on n0"}},
		{name: "a starved job's request of 2 GB that does not fit reserves the node",
			jobs: []job{{name: "j", asks: 1, askMB: 2048}}, blockMB: 7168,
			want: []string{"reserve n0 for j/s/0"}},
		{name: "a request below the reservation threshold reserves nothing, and the next job is tried",
			params: map[string]float64{"reservation_threshold_mb": 4096},
			jobs:   []job{{name: "j", asks: 1, askMB: 2048}, {name: "k", asks: 1}}, blockMB: 7168,
			want: []string{"launch k/s/0 on n0"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := heartbeat(t, c.queues, c.params, c.jobs, c.blockMB); !slices.Equal(got, c.want) {
				t.Errorf("heartbeat did\n  %q\nwant\n  %q", got, c.want)
			}
		})
	}
}

// TestFairMaxRunningApps: a queue at its maxRunningApps admits no more jobs
// (they wait); another queue's jobs are admitted, and the queue's own once
// one of its jobs has ended.
// Reference: Hadoop 3.3.6 MaxRunningAppsEnforcer.canAppBeRunnable.
func TestFairMaxRunningApps(t *testing.T) {
	p, err := fair.New(base.Spec{Queues: []base.Queue{{Name: "a", Weight: 1, MaxRunningApps: 2}, {Name: "b", Weight: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Admission) != 1 {
		t.Fatalf("%d admitters, want the maxRunningApps one", len(p.Admission))
	}
	adm := p.Admission[0]
	h := fakehandle.New(sim.Res{VCores: 8, MemMB: 8192}).For(p)
	first := h.AddJob(fakehandle.Job{Name: "a1", Queue: "a", Req: gb(1), Tasks: 1})
	h.AddJob(fakehandle.Job{Name: "a2", Queue: "a", Req: gb(1), Tasks: 1})
	a3 := h.Submit(fakehandle.Job{Name: "a3", Queue: "a", Req: gb(1), Tasks: 1})
	b1 := h.Submit(fakehandle.Job{Name: "b1", Queue: "b", Req: gb(1), Tasks: 1})
	if adm.Admit(h, a3) {
		t.Error("a third job of queue a (maxRunningApps 2) admitted")
	}
	if !adm.Admit(h, b1) {
		t.Error("queue b's job held back by queue a's limit")
	}
	first.State = sim.JobDone
	if !adm.Admit(h, a3) {
		t.Error("a3 still held back once a1 has ended")
	}
}
