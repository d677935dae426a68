package workload

import (
	"fmt"
	"math"

	"yarngym/env/sim"
)

// RASOptions configures the Gridmix workload of RAS (Polo et al.).
//
// Reference: RAS Sec. 4.1, Table 1: nine jobs of three applications (Sort
// J1/J8/J9 on 90/19/6 GB submitted at 0/2,500/3,750 s; Combine J2/J6/J7 on
// 5/13/50 GB at 100/600/1,100 s; Select J3/J4/J5 on 10/25/5 GB at 200/350/500
// s), their lengths in isolation, and the Exp. 2 completion-time goals
// (absolute times from the workload's start). Table 2 gives each phase's CPU,
// IO and memory as a share of one TaskTracker (2 cores, 2 GB RAM). Combine
// and Select run "one single reduce task per job".
//
// RAS schedules slots, not memory: a task's request is one slot (a vCore of
// a node whose vCores are its slots) and a nominal slot_mem_mb, while its
// actual use is absolute (Table 2), so more slots per node means more
// contention for the node's 2 cores, disk and 2 GB.
//
// Assumed: 128 MB blocks (one map each); Sort runs 20 reduces (one per
// TaskTracker); a job's maps are sized so that, alone on the 20 nodes with 4
// map slots each (the best Fair setting) and the Table 2 contention, its
// map phase takes (1 - reduce share) of its Table 1 length in isolation;
// reduce shares of 20% (Sort) and 5% (Combine, Select); disk bandwidth is the
// node's DiskMBps, Table 2 IO shares are of 100 MB/s.
type RASOptions struct {
	Goals     string  `toml:"goals"`
	BlockMB   float64 `toml:"block_mb"`
	SlotMemMB int64   `toml:"slot_mem_mb"`
	RefSlots  int     `toml:"ref_slots"`
	Nodes     int     `toml:"nodes"`
	NodeCores float64 `toml:"node_cores"`
	NodeMemMB float64 `toml:"node_mem_mb"`
	DiskMBps  float64 `toml:"disk_mbps"`
	Sigma     float64 `toml:"sigma"`
	RelaxedBy float64 `toml:"relaxed_by"`
}

func rasDefaults() *RASOptions {
	return &RASOptions{Goals: "tight", BlockMB: 128, SlotMemMB: 1, RefSlots: 4, Nodes: 20, NodeCores: 2, NodeMemMB: 2048,
		DiskMBps: 100, Sigma: 0.15, RelaxedBy: 3}
}

type rasApp struct {
	name                string
	mapCPU, mapIO, mapM float64 // shares of a TaskTracker (Table 2)
	shuffleIO           float64
	redCPU, redIO, redM float64
	reduces             int
	reduceShare         float64
}

var rasApps = map[string]rasApp{
	"sort":    {"sort", 0.30, 0.45, 0.25, 0.0015, 0.20, 0.50, 0.60, 20, 0.20},
	"combine": {"combine", 0.25, 0.10, 0.10, 0.00015, 0.10, 0.10, 0.25, 1, 0.05},
	"select":  {"select", 0.15, 0.20, 0.10, 0.00015, 0.10, 0.10, 0.25, 1, 0.05},
}

// rasJobs is Table 1: label, app, input GB, submit s, length in isolation s,
// Exp. 2 goal (absolute s).
var rasJobs = []struct {
	label         string
	app           string
	inputGB       float64
	submitS, isoS float64
	goalS         float64
}{
	{"J1", "sort", 90, 0, 2500, 3000}, {"J2", "combine", 5, 100, 500, 850}, {"J3", "select", 10, 200, 400, 1250},
	{"J4", "select", 25, 350, 280, 1100}, {"J5", "select", 5, 500, 50, 950}, {"J6", "combine", 13, 600, 750, 2600},
	{"J7", "combine", 50, 1100, 2500, 6000}, {"J8", "sort", 19, 2500, 350, 3400}, {"J9", "sort", 6, 3750, 250, 4250},
}

func (o *RASOptions) profiles(a rasApp) (mapP, redP *sim.Profile) {
	mem := o.NodeMemMB
	io := o.DiskMBps
	mapP = &sim.Profile{Name: "ras-" + a.name + "-map", Absolute: true, Jitter: 0.1, Phases: []sim.Phase{
		{Name: "map", Frac: 1, CPU: a.mapCPU * o.NodeCores, Mem: a.mapM * mem, IOMBps: a.mapIO * io, Read: true}}}
	redP = &sim.Profile{Name: "ras-" + a.name + "-reduce", Absolute: true, Jitter: 0.1, Phases: []sim.Phase{
		// Sec. 3.4: a reducer in shuffle consumes memory and a little IO per map.
		{Name: "shuffle", Frac: 0.3, Mem: a.redM * mem, IOMBps: a.shuffleIO * io * 20, Shuffle: true},
		{Name: "reduce", Frac: 0.7, CPU: a.redCPU * o.NodeCores, Mem: a.redM * mem, IOMBps: a.redIO * io}}}
	return
}

func generateRAS(o *RASOptions, rng *sim.Rand) ([]sim.JobSpec, error) {
	if o.Goals != "tight" && o.Goals != "relaxed" && o.Goals != "none" {
		return nil, fmt.Errorf("goals: %q is not tight, relaxed or none", o.Goals)
	}
	for _, c := range []struct {
		key string
		v   float64
	}{{"block_mb", o.BlockMB}, {"slot_mem_mb", float64(o.SlotMemMB)}, {"ref_slots", float64(o.RefSlots)}, {"nodes", float64(o.Nodes)},
		{"node_cores", o.NodeCores}, {"node_mem_mb", o.NodeMemMB}, {"disk_mbps", o.DiskMBps}, {"relaxed_by", o.RelaxedBy}} {
		if err := checkPositive(c.key, c.v); err != nil {
			return nil, err
		}
	}
	slot := sim.Res{VCores: 1, MemMB: o.SlotMemMB}
	var jobs []sim.JobSpec
	for _, rj := range rasJobs {
		a := rasApps[rj.app]
		mapP, redP := o.profiles(a)
		maps := int(math.Ceil(rj.inputGB * 1024 / o.BlockMB))
		slots := float64(o.Nodes * o.RefSlots)
		waves := math.Ceil(float64(maps) / slots)
		// Contention with RefSlots maps per node: the scarcer of CPU and IO.
		conc := math.Min(float64(o.RefSlots), float64(maps)/float64(o.Nodes))
		slow := math.Max(1, math.Max(conc*a.mapCPU, conc*a.mapIO))
		mapS := rj.isoS * (1 - a.reduceShare) / waves / slow
		redS := rj.isoS * a.reduceShare
		j := mrJob(rng, rj.label+"-"+rj.app, rj.app, "", sim.Ms(rj.submitS*1000), sim.Res{VCores: 1, MemMB: o.SlotMemMB},
			maps, slot, mapS, a.reduces, slot, redS, o.Sigma, 0.05)
		j.Stages[0].Profile, j.Stages[1].Profile = mapP, redP
		switch o.Goals {
		case "tight":
			j.GoalMs = sim.Ms((rj.goalS - rj.submitS) * 1000)
		case "relaxed":
			j.GoalMs = sim.Ms((rj.goalS - rj.submitS) * o.RelaxedBy * 1000)
		}
		jobs = append(jobs, j)
	}
	return jobs, nil
}

func init() {
	register("ras", "RAS Sec. 4.1: the nine Gridmix Sort/Combine/Select jobs of Table 1 with Table 2 profiles and goals",
		rasDefaults, generateRAS)
}
