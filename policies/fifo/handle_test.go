package fifo_test

import (
	"slices"
	"testing"

	"yarngym/env/sim"
	"yarngym/internal/fakehandle"
	"yarngym/policies/base"
	"yarngym/policies/fifo"
)

func mb(m int64) sim.Res { return sim.Res{VCores: 1, MemMB: m} }

// policy builds FIFO with the given parameters set.
func policy(t *testing.T, params map[string]float64) *sim.Policy {
	t.Helper()
	p, err := fifo.New(base.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range params {
		if err := p.Params.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// TestFIFOHeartbeat: one heartbeat of a node under FIFO, on a cluster laid
// out by hand (a fake handle, no simulation): what the allocator launches
// or reserves, in order.
// Reference: DRESS Sec. I (FCFS); Hadoop 3.3.6 FifoScheduler.assignContainers
// (backfill: a job whose request does not fit is passed over).
func TestFIFOHeartbeat(t *testing.T) {
	for _, c := range []struct {
		name   string
		params map[string]float64
		// blockMB is held on the node by a job asking for nothing more.
		blockMB      int64
		aMB, bMB     int64
		aTasks, bTas int
		want         []string
	}{
		{name: "jobs served in submission order until the node is full", aMB: 1024, bMB: 1024, aTasks: 2, bTas: 3,
			// b's third task is the head then, and does not fit: strict
			// FCFS keeps the node for it.
			want: []string{"launch a/s/0 on n0", "launch a/s/1 on n0", "launch b/s/0 on n0", "launch b/s/1 on n0", "reserve n0 for b/s/2"}},
		{name: "the head's request does not fit: the node is reserved for it, nobody jumps the queue",
			blockMB: 3072, aMB: 2048, bMB: 1024, aTasks: 1, bTas: 1,
			want: []string{"reserve n0 for a/s/0"}},
		{name: "backfill passes over the head (YARN FifoScheduler)", params: map[string]float64{"backfill": 1},
			blockMB: 3072, aMB: 2048, bMB: 1024, aTasks: 1, bTas: 1,
			want: []string{"launch b/s/0 on n0"}},
		{name: "a full node launches and reserves nothing", blockMB: 4096, aMB: 1024, bMB: 1024, aTasks: 1, bTas: 1,
			want: []string{"reserve n0 for a/s/0"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := policy(t, c.params)
			h := fakehandle.New(sim.Res{VCores: 8, MemMB: 4096}).For(p)
			if c.blockMB > 0 {
				x := h.AddJob(fakehandle.Job{Name: "x", Req: mb(c.blockMB), Tasks: 1})
				h.Run(x.Stages[0].Tasks[0], h.Nodes()[0])
			}
			h.AddJob(fakehandle.Job{Name: "a", Req: mb(c.aMB), Tasks: c.aTasks})
			h.AddJob(fakehandle.Job{Name: "b", Req: mb(c.bMB), Tasks: c.bTas})
			p.Allocate.Allocate(h, h.Nodes()[0])
			if !slices.Equal(h.Log, c.want) {
				t.Errorf("heartbeat did\n  %q\nwant\n  %q", h.Log, c.want)
			}
		})
	}
}

// TestFIFOReservedNodeServesItsRequestAlone: a node reserved for the head's
// request launches nothing else while the request does not fit, and the
// reserved request first once it does.
func TestFIFOReservedNodeServesItsRequestAlone(t *testing.T) {
	p := policy(t, nil)
	h := fakehandle.New(sim.Res{VCores: 8, MemMB: 4096}).For(p)
	x := h.AddJob(fakehandle.Job{Name: "x", Req: mb(3072), Tasks: 1})
	n := h.Nodes()[0]
	h.Run(x.Stages[0].Tasks[0], n)
	h.AddJob(fakehandle.Job{Name: "a", Req: mb(2048), Tasks: 1})
	h.AddJob(fakehandle.Job{Name: "b", Req: mb(1024), Tasks: 2})
	for range 3 {
		p.Allocate.Allocate(h, n)
	}
	if want := []string{"reserve n0 for a/s/0"}; !slices.Equal(h.Log, want) {
		t.Fatalf("three heartbeats with the head not fitting did %q, want %q", h.Log, want)
	}
	h.Reset()
	h.Finish(x.Stages[0].Tasks[0])
	p.Allocate.Allocate(h, n)
	if want := []string{"launch a/s/0 on n0", "launch b/s/0 on n0", "launch b/s/1 on n0"}; !slices.Equal(h.Log, want) {
		t.Errorf("once the reserved request fits the heartbeat did %q, want %q", h.Log, want)
	}
	if n.Reserved != nil {
		t.Errorf("the node is still reserved for %v", n.Reserved)
	}
}

// TestFIFODelayScheduling: with locality_delay d, a job whose map has its
// block on another node passes up that node's offers: node-local only for
// its first d missed opportunities, rack-local up to 2d, then any node.
// The fake has no racks, so the map launches at the offer after 2d misses.
// Reference: Zaharia et al., delay scheduling; YARN node-locality-delay.
func TestFIFODelayScheduling(t *testing.T) {
	const d = 3
	p := policy(t, map[string]float64{"locality_delay": d})
	h := fakehandle.New(sim.Res{VCores: 8, MemMB: 4096}, sim.Res{VCores: 8, MemMB: 4096}).For(p)
	j := h.AddJob(fakehandle.Job{Name: "a", Kind: sim.KindMap, Req: mb(1024), Tasks: 1})
	j.Stages[0].Tasks[0].Replicas = []int32{1}
	a := p.Allocate.(*base.Allocator)
	n0 := h.Nodes()[0]
	for i := 1; i <= 2*d; i++ {
		p.Allocate.Allocate(h, n0)
		if len(h.Log) != 0 || a.Misses(h, j) != i {
			t.Fatalf("offer %d of n0: did %q with %d missed opportunities, want nothing and %d", i, h.Log, a.Misses(h, j), i)
		}
	}
	p.Allocate.Allocate(h, n0)
	if want := []string{"launch a/s/0 on n0"}; !slices.Equal(h.Log, want) {
		t.Errorf("offer %d of n0 did %q, want %q", 2*d+1, h.Log, want)
	}
	// A node-local offer is taken at once, and resets the count.
	h.Reset()
	k := h.AddJob(fakehandle.Job{Name: "b", Kind: sim.KindMap, Req: mb(1024), Tasks: 1})
	k.Stages[0].Tasks[0].Replicas = []int32{1}
	p.Allocate.Allocate(h, n0)
	p.Allocate.Allocate(h, h.Nodes()[1])
	if want := []string{"launch b/s/0 on n1"}; !slices.Equal(h.Log, want) || a.Misses(h, k) != 0 {
		t.Errorf("a miss then a node-local offer did %q with %d misses left, want %q and 0", h.Log, a.Misses(h, k), want)
	}
}
