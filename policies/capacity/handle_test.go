package capacity_test

import (
	"slices"
	"testing"

	"yarngym/env/sim"
	"yarngym/internal/fakehandle"
	"yarngym/policies/base"
	"yarngym/policies/capacity"
)

func gb(n int64) sim.Res { return sim.Res{VCores: 1, MemMB: n * 1024} }

// job lays out a job of queue q holding running containers of 1 GB on the
// nodes after n0 (the one the test offers) and asking for asks more.
type job struct {
	name, queue   string
	running, asks int
	askMB         int64
	local         bool  // its asks are maps with their block on n0
	runVC         int64 // vCores of each running container (0: 1)
}

// cluster builds Capacity over queues on three nodes of <8 vCores, 8 GB>
// and lays out the jobs.
func cluster(t *testing.T, queues []base.Queue, params map[string]float64, jobs []job) (*sim.Policy, *fakehandle.Cluster) {
	t.Helper()
	p, err := capacity.New(base.Spec{Queues: queues})
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range params {
		if err := p.Params.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	node := sim.Res{VCores: 8, MemMB: 8192}
	h := fakehandle.New(node, node, node).For(p)
	on := 1
	for _, jb := range jobs {
		req := gb(1)
		if jb.askMB > 0 {
			req.MemMB = jb.askMB
		}
		kind := sim.KindGeneric
		if jb.local {
			kind = sim.KindMap
		}
		j := h.AddJob(fakehandle.Job{Name: jb.name, Queue: jb.queue, Kind: kind, Req: req, Tasks: jb.running + jb.asks})
		for i, tk := range j.Stages[0].Tasks {
			if i < jb.running {
				tk.Req = gb(1)
				if jb.runVC > 0 {
					tk.Req.VCores = jb.runVC
				}
				if !h.FitsFree(tk.Req, h.Nodes()[on]) {
					on++
				}
				h.Run(tk, h.Nodes()[on])
			} else if jb.local {
				tk.Replicas = []int32{0}
			}
		}
	}
	return p, h
}

// TestCapacityHeartbeat: what Capacity assigns on one heartbeat of n0, on
// clusters laid out by hand (a fake handle, no simulation).
// Reference: Hadoop 3.3.6 ParentQueue (children by used over guaranteed
// capacity), LeafQueue (applications first in, first out; canAssignToUser:
// a user is refused once it holds more than its limit),
// CapacityScheduler.allocateContainersToNode (one off-switch assignment per
// heartbeat, per-node-heartbeat.maximum-offswitch-assignments).
func TestCapacityHeartbeat(t *testing.T) {
	third := []base.Queue{{Name: "a", Capacity: 1.0 / 3, MaxCapacity: 1}, {Name: "b", Capacity: 2.0 / 3, MaxCapacity: 1}}
	for _, c := range []struct {
		name   string
		queues []base.Queue
		params map[string]float64
		jobs   []job
		want   []string
	}{
		{name: "the queue least used for its capacity first: 4 GB of 16 before 3 GB of 8", queues: third,
			jobs: []job{{name: "ja", queue: "a", running: 3, asks: 1}, {name: "jb", queue: "b", running: 4, asks: 1}},
			want: []string{"launch jb/s/4 on n0"}},
		{name: "jobs of a queue first in, first out, whatever they hold",
			jobs: []job{{name: "j1", running: 4, asks: 1}, {name: "j2", asks: 1}},
			want: []string{"launch j1/s/4 on n0"}},
		{name: "a user at its limit (the queue's 8 GB) still gets a container", queues: third,
			jobs: []job{{name: "ja", queue: "a", running: 8, asks: 1}},
			want: []string{"launch ja/s/8 on n0"}},
		{name: "a user over its limit gets none", queues: third,
			jobs: []job{{name: "ja", queue: "a", running: 9, asks: 1}},
			want: nil},
		{name: "user_limit_factor 2 lets it grow towards max-capacity", queues: third,
			params: map[string]float64{"user_limit_factor": 2},
			jobs:   []job{{name: "ja", queue: "a", running: 9, asks: 1}},
			want:   []string{"launch ja/s/9 on n0"}},
		{name: "memory only: a user holding 12 of the queue's 8 vCores but 4 of its 8 GB is under its limit", queues: third,
			jobs: []job{{name: "ja", queue: "a", running: 4, asks: 1, runVC: 3}},
			want: []string{"launch ja/s/4 on n0"}},
		{name: "dominant resource: the same user is over its limit (12 of 8 vCores)", queues: third,
			params: map[string]float64{"resource_calculator": 1},
			jobs:   []job{{name: "ja", queue: "a", running: 4, asks: 1, runVC: 3}},
			want:   nil},
		{name: "dominant resource: a user at 6 of 8 vCores and 2 of 8 GB still gets one", queues: third,
			params: map[string]float64{"resource_calculator": 1},
			jobs:   []job{{name: "ja", queue: "a", running: 2, asks: 1, runVC: 3}},
			want:   []string{"launch ja/s/2 on n0"}},
		{name: "off-switch requests: one container per heartbeat",
			jobs: []job{{name: "j", asks: 3}},
			want: []string{"launch j/s/0 on n0"}},
		{name: "node-local maps: several containers per heartbeat",
			jobs: []job{{name: "j", asks: 3, local: true}},
			want: []string{"launch j/s/0 on n0", "launch j/s/1 on n0", "launch j/s/2 on n0"}},
		{name: "the head's request does not fit: the node is reserved for it",
			jobs: []job{{name: "j", asks: 1, askMB: 9216}},
			want: []string{"reserve n0 for j/s/0"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, h := cluster(t, c.queues, c.params, c.jobs)
			p.Allocate.Allocate(h, h.Nodes()[0])
			if !slices.Equal(h.Log, c.want) {
				t.Errorf("heartbeat did\n  %q\nwant\n  %q", h.Log, c.want)
			}
		})
	}
}

// TestCapacityAMLimit: a job is activated only while its queue's activated
// jobs' AMs plus its own fit maximum-am-resource-percent of the queue's
// capacity, rounded up to the minimum allocation (10% of 24 GB: 3 GB); a
// queue with no activated job takes one whatever its AM.
// Reference: Hadoop 3.3.6 LeafQueue.activateApplications,
// calculateAndGetAMResourceLimitPerPartition.
func TestCapacityAMLimit(t *testing.T) {
	for _, c := range []struct {
		name   string
		active int   // activated jobs with a running 1 GB AM
		amMB   int64 // the waiting job's AM
		want   bool
	}{
		{"an empty queue takes any AM", 0, 8192, true},
		{"2 GB of AMs and 1 GB more fit 3 GB", 2, 1024, true},
		{"3 GB of AMs and 1 GB more do not", 3, 1024, false},
		{"2 GB of AMs and 2 GB more do not", 2, 2048, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, h := cluster(t, nil, nil, nil)
			for i := range c.active {
				j := h.AddJob(fakehandle.Job{Name: "running", AM: gb(1), Req: gb(1), Tasks: 1})
				h.Run(j.AM, h.Nodes()[1+i%2])
			}
			w := h.Submit(fakehandle.Job{Name: "w", AM: sim.Res{VCores: 1, MemMB: c.amMB}, Req: gb(1), Tasks: 1})
			if got := p.Admission[0].Admit(h, w); got != c.want {
				t.Errorf("admitted %v, want %v", got, c.want)
			}
		})
	}
}
