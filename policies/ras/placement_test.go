package ras

import (
	"math"
	"testing"

	"yarngym/env/sim"
	"yarngym/policies/base"
)

// tasktracker is a RAS TaskTracker: 2 cores, 2 GB, 100 MB/s of disk, slots
// that never bind (RAS sizes them).
func tasktracker(name string) sim.NodeSpec {
	return sim.NodeSpec{Name: name, Cap: sim.Res{VCores: 32, MemMB: 2048}, Cores: 2, DiskMBps: 100, ReduceSlots: 32}
}

// absolute is a one-phase absolute profile (cores, MB, MB/s).
func absolute(cpu, mem, io float64) *sim.Profile {
	return &sim.Profile{Name: "p", Absolute: true, Phases: []sim.Phase{{Name: "run", Frac: 1, CPU: cpu, Mem: mem, IOMBps: io}}}
}

// mrSpec is a job of maps (one map slot each) and reducers (a reduce slot
// each, released at once) with the given profiles and a lax goal.
func mrSpec(name string, maps, reds int, mapP, redP *sim.Profile) sim.JobSpec {
	j := sim.JobSpec{Name: name, SubmitMs: 0, GoalMs: 1e9}
	d := func(n int) []sim.Ms {
		out := make([]sim.Ms, n)
		for i := range out {
			out[i] = 100 * sim.MsPerS
		}
		return out
	}
	j.Stages = append(j.Stages, sim.StageSpec{Name: "map", Kind: sim.KindMap, Req: sim.Res{VCores: 1, MemMB: 1}, Profile: mapP, DurationsMs: d(maps)})
	if reds > 0 {
		j.Stages = append(j.Stages, sim.StageSpec{Name: "reduce", Kind: sim.KindReduce, Profile: redP, DurationsMs: d(reds)})
	}
	return j
}

// admitted builds a run of jobs on nodes under RAS and advances it to just
// after the submissions, before any placement: every job is admitted and its
// stages requested, nothing runs.
func admitted(t *testing.T, nodes []sim.NodeSpec, jobs ...sim.JobSpec) (*sim.Sim, *RAS) {
	t.Helper()
	pol, err := New(base.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.New(sim.Config{Nodes: nodes, Jobs: jobs, Policy: pol, Model: sim.Model{HeartbeatMs: 1000}})
	if err != nil {
		t.Fatal(err)
	}
	s.RunUntil(1)
	return s, pol.Allocate.(*RAS)
}

// lax gives every job an observed map length of 1 s, so that with its lax
// goal s_req = 1 and u^M = (s_alloc - 1)/(s_pend - 1) (Sec. 4.2: "extremely
// lax completion time goals").
func planOf(s *sim.Sim, r *RAS) *Placement {
	var jobs []*jobState
	index := map[*sim.Job]int{}
	for _, j := range s.Active() {
		js := r.state(j)
		js.mapsDone, js.mapMsSum = 1, 1000
		js.refresh(s.Now(), true)
		index[j] = len(jobs)
		jobs = append(jobs, js)
	}
	return newPlacement(s.Nodes, jobs, index)
}

// TestPlaceMapsGreedyFill: on one TaskTracker, the lowest-utility job that
// fits gets each next slot until no job fits (Alg. 1 lines 20-23). Job A
// (0.5 cores, 10 MB/s, 205 MB: Combine-like) and B (0.6 cores, 45 MB/s, 512
// MB: Sort-like), both with 100 maps: A (tie at -Inf, first), B, A (B at 0
// is lower but A's 1/99 is next... ), by hand: A1 B1 A2 -> 1.6 cores; then
// B needs 2.2 > 2 cores and A 2.1: nothing fits.
// Reference: RAS Sec. 3.4, Alg. 1.
func TestPlaceMapsGreedyFill(t *testing.T) {
	s, r := admitted(t, []sim.NodeSpec{tasktracker("tt")},
		mrSpec("A", 100, 0, absolute(0.5, 205, 10), nil), mrSpec("B", 100, 0, absolute(0.6, 512, 45), nil))
	p := planOf(s, r)
	p.placeMaps(5)
	if p.Maps[0][0] != 2 || p.Maps[1][0] != 1 {
		t.Fatalf("plan A=%d B=%d, want A=2 B=1", p.Maps[0][0], p.Maps[1][0])
	}
	d := p.Demand(0)
	if math.Abs(d.CPU-1.6) > 1e-9 || math.Abs(d.IOMBps-65) > 1e-9 || math.Abs(d.MemMB-922) > 1e-9 {
		t.Fatalf("plan demand %+v, want 1.6 cores, 65 MB/s, 922 MB", d)
	}
	for i := range p.Jobs {
		if p.room(i, 0, false) {
			t.Fatalf("job %d still fits: the fill must go on until nothing fits", i)
		}
	}
}

// TestPlaceMapsMoveFromHighToLow: a node whose four slots (2 cores, 0.5 each)
// all hold job H (5 maps left: u = (4-1)/(5-1) = 0.75) and a new job L (9
// maps, none placed: u = -Inf). Slots are taken from H while its utility
// stays at least L's, then handed out lowest first: H 2 (u = 0.25) and L 2
// (u = 1/8), the max-min optimum (H3/L1 or H1/L3 leave a job at 0).
// Reference: RAS Sec. 3.4, Alg. 1 lines 11-23, Eq. 4.
func TestPlaceMapsMoveFromHighToLow(t *testing.T) {
	s, r := admitted(t, []sim.NodeSpec{tasktracker("tt")},
		mrSpec("H", 5, 0, absolute(0.5, 10, 1), nil), mrSpec("L", 9, 0, absolute(0.5, 10, 1), nil))
	p := planOf(s, r)
	p.add(0, 0, false, 4)
	if u := p.U(0); u != 0.75 {
		t.Fatalf("u_H = %v, want 0.75", u)
	}
	p.placeMaps(5)
	if p.Maps[0][0] != 2 || p.Maps[1][0] != 2 {
		t.Fatalf("plan H=%d L=%d, want 2 and 2", p.Maps[0][0], p.Maps[1][0])
	}
	if p.U(0) != 0.25 || p.U(1) != 0.125 {
		t.Fatalf("utilities %v / %v, want 0.25 / 0.125", p.U(0), p.U(1))
	}
}

// TestPlaceReducersSpread: reducers go to the TaskTrackers with the fewest
// reducers, then the fewest of the same job: job A's 4 reducers on 4 nodes
// take one each; on 2 nodes, A's 2 and B's 2 give each node one of each.
// Reference: RAS Sec. 3.4, Alg. 1 lines 1-8.
func TestPlaceReducersSpread(t *testing.T) {
	red := absolute(0.1, 100, 1)
	nodes := []sim.NodeSpec{tasktracker("a"), tasktracker("b"), tasktracker("c"), tasktracker("d")}
	s, r := admitted(t, nodes, mrSpec("A", 8, 4, absolute(0.5, 10, 1), red))
	p := planOf(s, r)
	p.placeReducers()
	for k := range nodes {
		if p.Reds[0][k] != 1 {
			t.Fatalf("node %d holds %d of A's reducers, want 1 each: %v", k, p.Reds[0][k], p.Reds[0])
		}
	}
	s, r = admitted(t, nodes[:2], mrSpec("A", 8, 2, absolute(0.5, 10, 1), red), mrSpec("B", 8, 2, absolute(0.5, 10, 1), red))
	p = planOf(s, r)
	p.placeReducers()
	for k := 0; k < 2; k++ {
		if p.Reds[0][k] != 1 || p.Reds[1][k] != 1 {
			t.Fatalf("node %d: A %d, B %d reducers; want one of each", k, p.Reds[0][k], p.Reds[1][k])
		}
	}
}

// TestPlacementFitsCapacity: after reducers, trim and map rounds, no node's
// plan exceeds its CPU, memory or disk, and reducers that do not fit a node
// are not placed there (a reducer of 1,500 MB: one per 2 GB node).
// Reference: RAS Sec. 3.4, Eq. 6.
func TestPlacementFitsCapacity(t *testing.T) {
	nodes := []sim.NodeSpec{tasktracker("a"), tasktracker("b"), tasktracker("c")}
	s, r := admitted(t, nodes,
		mrSpec("sort", 200, 5, absolute(0.6, 512, 45), absolute(0.4, 1500, 50)),
		mrSpec("combine", 200, 1, absolute(0.5, 205, 10), absolute(0.2, 512, 10)),
		mrSpec("select", 200, 1, absolute(0.3, 205, 20), absolute(0.2, 512, 10)))
	p := planOf(s, r)
	p.placeReducers()
	p.trim()
	p.placeMaps(5)
	for k, n := range p.Nodes {
		if !p.Demand(k).Fits(Capacity(n)) {
			t.Fatalf("node %d: plan %+v exceeds capacity %+v", k, p.Demand(k), Capacity(n))
		}
		for i := range p.Jobs {
			if p.room(i, k, false) && p.wantsMap(i) {
				t.Fatalf("node %d: job %d still fits after the rounds", k, i)
			}
		}
	}
	if got := p.RAlloc(0); got != 3 {
		t.Fatalf("sort's reducers placed: %d, want 3 (one per node: a second 1,500 MB one does not fit 2 GB)", got)
	}
}

// TestShuffleIOIsPlanned: a reducer in its shuffle sub-phase draws Table 2's
// shuffle I/O (0.15 % of the disk per map placed, up to parallelCopies = 5
// maps: 0.75 MB/s of 100) while its job has maps left, and the plan counts
// it against the TaskTracker's disk (Eq. 6). Two Sort maps (45 % each) and
// a Combine map (10 %) fill the disk exactly, so with a Sort reducer
// shuffling on the node the Combine map no longer fits; without it, it
// does. (This is how, in the Exp. 1 runs, every TaskTracker holding one of
// J1's 20 shuffling reducers loses the 2 Sort + 1 Combine mix.)
// Reference: RAS Sec. 3.4 ("when reduce tasks are placed first, they start
// running in shuffle phase, so that their demand of resources is directly
// proportional to the number of map tasks placed for the same job"), Table 2
// (shuffle I/O), Eq. 6, Alg. 1 (room_for_new_job_slot).
func TestShuffleIOIsPlanned(t *testing.T) {
	sortRed := &sim.Profile{Name: "sort-reduce", Absolute: true, Phases: []sim.Phase{
		{Name: "shuffle", Frac: 0.3, IOMBps: 0.75, Shuffle: true},
		{Name: "reduce", Frac: 0.7, CPU: 0.4, Mem: 1228.8, IOMBps: 50}}}
	s, r := admitted(t, []sim.NodeSpec{tasktracker("tt")},
		mrSpec("sort", 10, 1, absolute(0.6, 512, 45), sortRed), mrSpec("combine", 10, 0, absolute(0.5, 204.8, 10), nil))
	p := planOf(s, r)
	p.placeReducers()
	if p.RAlloc(0) != 1 {
		t.Fatalf("sort's reducer not placed: %d", p.RAlloc(0))
	}
	p.add(0, 0, false, 2)
	if d := p.Demand(0); math.Abs(d.IOMBps-90.75) > 1e-9 || d.MemMB != 1024 {
		t.Fatalf("plan %+v: want 2 x 45 + 0.75 MB/s (shuffle I/O, no memory) and 2 x 512 MB", d)
	}
	if p.room(1, 0, false) {
		t.Fatal("a Combine map (10 MB/s) fits 9.25 MB/s of disk left")
	}
	p.add(0, 0, true, -1) // without the shuffling reducer
	if !p.room(1, 0, false) {
		t.Fatalf("plan %+v: a Combine map should fill the disk exactly", p.Demand(0))
	}
}
