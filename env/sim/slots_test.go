package sim_test

import (
	"strings"
	"testing"

	"yarngym/env/sim"
)

// mrTyped is a job of maps (1 vCore) and reducers requesting no vCores, for
// typed-slot TaskTrackers.
func mrTyped(maps, reduces int, durS float64) sim.JobSpec {
	j := job("mr", 0, maps, res(1, 1), durS, flat(0.1, 10, 0))
	j.Stages[0].Kind = sim.KindMap
	d := make([]sim.Ms, reduces)
	for i := range d {
		d[i] = sim.Ms(durS * 1000)
	}
	j.Stages = append(j.Stages, sim.StageSpec{Name: "r", Kind: sim.KindReduce, Req: res(0, 0), Profile: flat(0.1, 10, 0), DurationsMs: d})
	return j
}

// watch is a node monitor recording the most maps and reducers seen on a
// node at once, and how many reducers launched at one instant.
type watch struct {
	maxMaps, maxReds int
}

func (w *watch) Monitor(h sim.Handle, n *sim.Node) {
	m := 0
	for _, t := range n.Containers {
		if t.Kind == sim.KindMap {
			m++
		}
	}
	w.maxMaps = max(w.maxMaps, m)
	w.maxReds = max(w.maxReds, n.Reducers())
}

// TestTypedSlots: on a Hadoop 1 TaskTracker (RAS Sec. 2, typed slots) maps
// are bounded by the vCores (map slots) and reducers by the reduce slots,
// independently; reducers hold no map slot; one reducer starts per
// heartbeat.
// Reference: RAS Sec. 2 ("'Slots' are bound to a particular type of task").
func TestTypedSlots(t *testing.T) {
	w := &watch{}
	p := fifoPolicy(t)
	p.Monitors = []sim.NodeMonitor{w}
	s := run(t, sim.Config{Nodes: []sim.NodeSpec{{Name: "tt", Cap: res(2, 1000), ReduceSlots: 2}}, Policy: p,
		Jobs: []sim.JobSpec{mrTyped(2, 3, 10)}, Model: sim.Model{HeartbeatMs: 1000}})
	if s.Summary().JobsCompleted != 1 {
		t.Fatal("job did not complete")
	}
	if w.maxMaps != 2 || w.maxReds != 2 {
		t.Fatalf("at most %d maps and %d reducers at once; want 2 map slots and 2 reduce slots both used", w.maxMaps, w.maxReds)
	}
	// Slow-start 0: at the first heartbeat (t=0) two maps and one reducer
	// start (one reducer per heartbeat), the second reducer at t=1 s. (With
	// more maps than map slots the node would be reserved for the next map
	// and take no reducer until a map slot frees: YARN's reservation.)
	var redStarts []sim.Ms
	for _, tk := range s.AllTasks() {
		if tk.Kind == sim.KindReduce {
			redStarts = append(redStarts, tk.FirstStartMs)
		}
	}
	if redStarts[0] != 0 || redStarts[1] != 1000 {
		t.Fatalf("reducers started at %v ms; want 0 and 1000 (one per heartbeat)", redStarts)
	}
	for _, tk := range s.AllTasks() {
		if tk.Kind == sim.KindMap && tk.FirstStartMs != 0 {
			t.Fatalf("map %d started at %d ms: reducers must not take map slots", tk.Index, tk.FirstStartMs)
		}
	}
}

// TestTypedSlotsValidation: a reducer may request no vCores only when every
// node has reduce slots, and Launch refuses a reducer when they are full.
func TestTypedSlotsValidation(t *testing.T) {
	_, err := sim.New(sim.Config{Nodes: []sim.NodeSpec{{Name: "n", Cap: res(2, 1000)}}, Policy: fifoPolicy(t),
		Jobs: []sim.JobSpec{mrTyped(1, 1, 1)}})
	if err == nil || !strings.Contains(err.Error(), "typed-slot") {
		t.Fatalf("0-vCore reducers on YARN nodes: got %v, want an error", err)
	}
	var launchErr error
	m := &scripted{atMs: 0, fn: func(h sim.Handle, n *sim.Node) {
		reds := h.Jobs()[0].Stages[1].Tasks
		if err := h.Launch(reds[0], n, sim.Guaranteed); err != nil {
			t.Fatal(err)
		}
		launchErr = h.Launch(reds[1], n, sim.Guaranteed)
	}}
	run(t, sim.Config{Nodes: []sim.NodeSpec{{Name: "tt", Cap: res(1, 1000), ReduceSlots: 1}}, Policy: withMonitor(t, m),
		Jobs: []sim.JobSpec{mrTyped(1, 2, 1)}, Model: sim.Model{HeartbeatMs: 1000}})
	if launchErr == nil || !strings.Contains(launchErr.Error(), "reduce slots") {
		t.Fatalf("second reducer in one reduce slot: got %v, want an error", launchErr)
	}
}

// TestTypedSlotsNoReservation: a TaskTracker's slots of a type are all
// alike, so Hadoop 1 never holds one for a particular task: Reserve refuses
// a typed-slot node (a YARN allocator then simply tries again next
// heartbeat, and a free reduce slot stays usable).
// Reference: RAS Sec. 2 (typed slots, "fungible across jobs").
func TestTypedSlotsNoReservation(t *testing.T) {
	var err error
	m := &scripted{atMs: 0, fn: func(h sim.Handle, n *sim.Node) {
		err = h.Reserve(n, h.Jobs()[0].Stages[0].Tasks[0])
	}}
	run(t, sim.Config{Nodes: []sim.NodeSpec{{Name: "tt", Cap: res(1, 1000), ReduceSlots: 1}}, Policy: withMonitor(t, m),
		Jobs: []sim.JobSpec{mrTyped(2, 1, 1)}, Model: sim.Model{HeartbeatMs: 1000}})
	if err == nil || !strings.Contains(err.Error(), "typed-slot") {
		t.Fatalf("reserving a TaskTracker: got %v, want an error", err)
	}
}
