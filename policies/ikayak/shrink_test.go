package ikayak

import (
	"math"
	"testing"

	"yarngym/env/sim"
	"yarngym/policies/base"
)

// TestAccept: Alg. 3 by hand: all requested local maps are accepted when
// they fit; otherwise fewer are accepted, each shrunk to R_free / P, never
// below mu x R_demand.
// Reference: iKayak Sec. 3.3, Alg. 3.
func TestAccept(t *testing.T) {
	cases := []struct {
		name     string
		free, dm sim.Res
		p        int
		mu       float64
		wantK    int
		wantSize sim.Res
	}{
		{"all fit", res(8, 8192), res(1, 2048), 3, 0.8, 3, res(1, 2048)},
		{"memory-bound, shrunk", res(8, 6144), res(1, 2048), 10, 0.7, 4, res(1, 1536)}, // 6144/4 = 1536 >= 0.7 x 2048 = 1433.6; /5 = 1228 < it
		{"mu = 1: no shrinking", res(8, 6144), res(1, 2048), 10, 1, 3, res(1, 2048)},   // only full-size maps
		{"vCore-bound: at least one each", res(2, 16384), res(1, 1024), 5, 0.5, 2, res(1, 1024)},
		{"two-core maps shrunk to one", res(3, 6144), res(2, 2048), 2, 0.5, 2, res(1, 2048)}, // 3/2 = 1 vCore >= 0.5 x 2
		{"two-core maps, mu too high", res(3, 6144), res(2, 2048), 2, 0.6, 1, res(2, 2048)},  // 1 < 0.6 x 2: one at full size
		{"nothing fits even shrunk", res(1, 512), res(1, 2048), 4, 0.5, 0, sim.Res{}},
		{"one requested, shrunk", res(4, 1800), res(1, 2048), 1, 0.8, 1, res(1, 1800)}, // 1800 >= 1638.4
		{"one requested, too small", res(4, 1600), res(1, 2048), 1, 0.8, 0, sim.Res{}},
	}
	for _, c := range cases {
		k, size := Accept(c.free, c.dm, c.p, c.mu)
		if k != c.wantK || size != c.wantSize {
			t.Errorf("%s: accepted %d of size %v, want %d of %v", c.name, k, size, c.wantK, c.wantSize)
		}
	}
}

// TestAcceptNeverBelowMu: over random inputs, the accepted maps fit in the
// free resource together, each gets at least one vCore and at least mu of
// its demand in both dimensions and no more than its demand, and accepting
// one more would break the floor.
// Reference: iKayak Sec. 3.3, Alg. 3 (shrinking ratio mu).
func TestAcceptNeverBelowMu(t *testing.T) {
	rng := sim.NewRand(3)
	for i := 0; i < 20000; i++ {
		free := res(int64(rng.IntN(25)), int64(rng.IntN(32768)))
		dm := res(1+int64(rng.IntN(4)), 256+int64(rng.IntN(4096)))
		p := 1 + rng.IntN(30)
		mu := rng.Float64()
		k, size := Accept(free, dm, p, mu)
		if k == 0 {
			if per := res(free.VCores, free.MemMB); per.VCores >= 1 && float64(per.VCores) >= mu*float64(dm.VCores) && float64(per.MemMB) >= mu*float64(dm.MemMB) && per.MemMB >= 1 {
				t.Fatalf("free %v demand %v mu %.3f: nothing accepted though one fits at the floor", free, dm, mu)
			}
			continue
		}
		total := sim.Res{VCores: size.VCores * int64(k), MemMB: size.MemMB * int64(k)}
		switch {
		case k > p:
			t.Fatalf("accepted %d of %d requested", k, p)
		case !total.Fits(free):
			t.Fatalf("free %v: %d x %v do not fit", free, k, size)
		case size.VCores < 1 || !size.Fits(dm):
			t.Fatalf("size %v outside [1 vCore, demand %v]", size, dm)
		case float64(size.VCores) < mu*float64(dm.VCores)-1e-9 || float64(size.MemMB) < mu*float64(dm.MemMB)-1e-9:
			t.Fatalf("free %v demand %v mu %.3f: size %v below the floor", free, dm, mu, size)
		}
		if k < p {
			next := res(free.VCores/int64(k+1), free.MemMB/int64(k+1))
			if next.VCores >= 1 && float64(next.VCores) >= mu*float64(dm.VCores)-1e-9 && float64(next.MemMB) >= mu*float64(dm.MemMB)-1e-9 {
				t.Fatalf("free %v demand %v mu %.3f p %d: accepted %d, but %d fit at the floor", free, dm, mu, p, k, k+1)
			}
		}
	}
}

// TestMu: mu = N_local / (N_local + N_remote) over finished maps, 1 before
// any.
// Reference: iKayak Sec. 3.3.
func TestMu(t *testing.T) {
	sh := &Shrinker{}
	if sh.Mu() != 1 {
		t.Fatalf("mu before any map: %v, want 1", sh.Mu())
	}
	j := &sim.Job{}
	for i, loc := range []sim.Locality{sim.NodeLocal, sim.NodeLocal, sim.RackLocal, sim.NodeLocal, sim.OffRack} {
		sh.TaskEnded(nil, &sim.Task{ID: int32(i), Job: j, Kind: sim.KindMap, Locality: loc}, sim.Finished)
	}
	sh.TaskEnded(nil, &sim.Task{Job: j, Kind: sim.KindMap, Locality: sim.OffRack}, sim.Killed)      // killed: not counted
	sh.TaskEnded(nil, &sim.Task{Job: j, Kind: sim.KindReduce, Locality: sim.OffRack}, sim.Finished) // not a map
	if got := sh.Mu(); !near(got, 3.0/5, 1e-12) {
		t.Fatalf("mu %v, want 3 / 5", got)
	}
}

// TestShrinkingThroughEngine: with mu = 0.7, a node with 6 GB free and ten
// local 2 GB maps waiting runs four of them shrunk to 1.5 GB (each at least
// mu of its request), where YARN would run three; the last two, which fit,
// run at full size; every map runs local, no container ever holds less than
// mu of its request, and the shrunk maps' spill phase is slower.
// Reference: iKayak Sec. 3.3, Alg. 3; Fig. 11(b).
func TestShrinkingThroughEngine(t *testing.T) {
	pol, a, err := capacityBase(base.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	sh := &Shrinker{On: 1, nLocal: 7, nRemote: 3}
	pl := NewPlacer(a, &Reservation{Pred: NewPredictor()})
	pl.Pre = []PreStep{sh}
	pol.Allocate = pl
	// One node: every replica is local. 8 vCores, 6 GB.
	nodes := []sim.NodeSpec{{Name: "n", Cap: res(8, 6144)}}
	jobs := []sim.JobSpec{mrSpec("mr", 0, 10, 60, 0, 0, res(1, 2048), 0)}
	peak := 0
	s := run(t, sim.Config{Nodes: nodes, Jobs: jobs, Policy: pol}, func(s *sim.Sim) {
		n := s.Nodes[0]
		peak = max(peak, len(n.Containers))
		for _, tk := range n.Containers {
			if float64(tk.Alloc.MemMB) < 0.7*float64(tk.Req.MemMB)-1e-9 || tk.Alloc.VCores < 1 {
				t.Fatalf("t=%d %s holds %v, below mu of %v", s.Now(), tk, tk.Alloc, tk.Req)
			}
		}
	})
	if peak != 4 {
		t.Fatalf("at most %d maps ran at once, want 4 shrunk to 1536 MB", peak)
	}
	if sh.Shrunk != 8 {
		t.Fatalf("%d maps launched shrunk, want 8 (two waves of 4; the last 2 fit at full size)", sh.Shrunk)
	}
	for _, tk := range s.AllTasks() {
		if tk.Locality != sim.NodeLocal {
			t.Fatalf("%s ran %v", tk, tk.Locality)
		}
		// 60 s nominal; shrunk, the spill phase (15%) runs at 1536 / 2048
		// speed: 51 + 9 / 0.75 = 63 s (no contention: 4 x 0.8 CPU on 8 cores).
		want := 60.0
		if tk.Alloc.MemMB == 1536 {
			want = 63
		} else if tk.Alloc.MemMB != 2048 {
			t.Fatalf("%s held %v", tk, tk.Alloc)
		}
		if d := float64(tk.FinishMs-tk.StartMs) / 1000; math.Abs(d-want) > 0.01 {
			t.Fatalf("%s held %v and ran %.3f s, want %.0f s", tk, tk.Alloc, d, want)
		}
	}
}
