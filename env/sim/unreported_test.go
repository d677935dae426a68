package sim

import (
	"slices"
	"testing"
)

// anyNode launches every requestable task, AMs first, on the node that
// heartbeats, while it fits.
type anyNode struct{}

func (anyNode) Allocate(h Handle, n *Node) {
	for _, j := range h.Active() {
		if j.AM != nil && j.AM.State == TaskPending && h.FitsFree(j.AM.Req, n) {
			_ = h.Launch(j.AM, n, Guaranteed)
		}
		for _, st := range j.Stages {
			for _, t := range st.Tasks {
				if h.Requestable(t) && h.FitsFree(t.Req, n) {
					_ = h.Launch(t, n, Guaranteed)
				}
			}
		}
	}
}

// TestUnreportedUntilAllocate: a map whose process ends stays among its
// AM's assigned containers (RMContainerAllocator's assignedRequests, which
// scheduleReduces' resource limit counts) until an allocate() response
// reports it: through its node's next heartbeat, which frees it, to the
// AM's next heartbeat after that.
func TestUnreportedUntilAllocate(t *testing.T) {
	prof := &Profile{Name: "t", Absolute: true, Phases: []Phase{{Name: "run", Frac: 1, CPU: 1, Mem: 100}}}
	job := JobSpec{Name: "mr", AM: Res{VCores: 1, MemMB: 1024}, Stages: []StageSpec{
		{Name: "m", Kind: KindMap, Req: Res{VCores: 1, MemMB: 1024}, Profile: prof, DurationsMs: []Ms{1500}},
		{Name: "r", Kind: KindReduce, Req: Res{VCores: 1, MemMB: 1024}, Profile: prof, DurationsMs: []Ms{1000}, SlowStart: 1},
	}}
	type state struct {
		at                     Ms
		unreported, freedSince int
	}
	var seen []state
	var ended, freed, told Ms = -1, -1, -1
	cfg := Config{Nodes: []NodeSpec{{Name: "n", Cap: Res{VCores: 8, MemMB: 8192}}}, Jobs: []JobSpec{job}, Seed: 1,
		Policy: &Policy{Name: "t", Allocate: anyNode{}, Params: &Params{}},
		Model:  Model{HeartbeatMs: 1000, AMHeartbeatMs: 1000, AMStartupMs: 2000},
		AfterEvent: func(s *Sim) {
			if err := CheckInvariants(s); err != nil {
				t.Fatal(err)
			}
			st := s.Jobs[0].Stages[0]
			k := state{s.Now(), st.unreported, st.freedSince}
			if len(seen) == 0 || seen[len(seen)-1].unreported != k.unreported || seen[len(seen)-1].freedSince != k.freedSince {
				seen = append(seen, k)
			}
		}}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.Run()
	var got [][2]int
	for _, k := range seen {
		got = append(got, [2]int{k.unreported, k.freedSince})
		switch {
		case k.unreported == 1 && k.freedSince == 0:
			ended = k.at
		case k.freedSince == 1:
			freed = k.at
		case k.unreported == 0 && ended >= 0 && told < 0:
			told = k.at
		}
	}
	if want := [][2]int{{0, 0}, {1, 0}, {1, 1}, {0, 0}}; !slices.Equal(got, want) {
		t.Fatalf("map stage (unreported, freed since) over time %v, want %v", got, want)
	}
	m := s.Jobs[0].Stages[0].Tasks[0]
	if ended != m.FinishMs || freed <= ended || told <= freed {
		t.Errorf("map ended at %d ms, its container was freed at %d and reported at %d: want end < freed < reported", m.FinishMs, freed, told)
	}
}
