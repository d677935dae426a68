package ras

import "yarngym/env/sim"

// Demand is what one job slot uses of a TaskTracker: CPU in cores, memory in
// MB, disk I/O in MB/s.
//
// Reference: RAS Sec. 3.1: "The resource usage profile for a job j consists
// of a set of average resource demands ... one value associated for each
// task type and phase (map, reduce in shuffle phase, and reduce in reduce
// phase, including the final sort)"; Sec. 3.6, Table 2.
type Demand struct {
	CPU, MemMB, IOMBps float64
}

func (d Demand) add(o Demand) Demand {
	return Demand{d.CPU + o.CPU, d.MemMB + o.MemMB, d.IOMBps + o.IOMBps}
}

func (d Demand) sub(o Demand) Demand {
	return Demand{d.CPU - o.CPU, d.MemMB - o.MemMB, d.IOMBps - o.IOMBps}
}

// Capacity is a TaskTracker's capacity Omega_tt (Sec. 3.1: "disk bandwidth,
// memory, and CPU capacities for each TaskTracker"): its physical cores, its
// memory and its disk bandwidth (0: disk not constrained).
func Capacity(n *sim.Node) Demand {
	return Demand{CPU: n.Spec.Cores, MemMB: float64(n.Spec.Cap.MemMB), IOMBps: n.Spec.DiskMBps}
}

// eps absorbs float dust when demands add up to exactly the capacity.
const eps = 1e-9

// Fits reports whether d fits in c in every resource (IO unchecked when the
// capacity has no disk bandwidth).
func (d Demand) Fits(c Demand) bool {
	return d.CPU <= c.CPU+eps && d.MemMB <= c.MemMB+eps && (c.IOMBps <= 0 || d.IOMBps <= c.IOMBps+eps)
}

// JobProfile is a job's resource demand profile as RAS's offline profiler
// would provide it (Sec. 3.6): one demand per task type and phase.
type JobProfile struct {
	Map     Demand // a map task
	Shuffle Demand // a reducer in its shuffle sub-phase, while maps run
	Reduce  Demand // a reducer in its reduce sub-phase (final sort included)
}

// phaseDemand is the Frac-weighted average demand of a profile's phases
// that pass keep ("average resource demands", Sec. 3.1), for a task with
// request req.
func phaseDemand(p *sim.Profile, req sim.Res, keep func(sim.Phase) bool) Demand {
	var d Demand
	w := 0.0
	for _, ph := range p.Phases {
		if ph.Wall || !keep(ph) {
			continue
		}
		f := ph.Frac
		if f <= 0 {
			continue
		}
		cpu, mem := ph.CPU, ph.Mem
		if !p.Absolute {
			cpu = min(cpu*float64(req.VCores), float64(req.VCores))
			mem = min(mem, 1) * float64(req.MemMB)
		}
		d = d.add(Demand{cpu * f, mem * f, ph.IOMBps * f})
		w += f
	}
	if w > 0 {
		d = Demand{d.CPU / w, d.MemMB / w, d.IOMBps / w}
	}
	return d
}

// StageDemand reads a stage's profile: the average over its non-shuffle
// phases and over its shuffle phases.
func StageDemand(st *sim.StageSpec) (work, shuffle Demand) {
	work = phaseDemand(st.Profile, st.Req, func(ph sim.Phase) bool { return !ph.Shuffle })
	shuffle = phaseDemand(st.Profile, st.Req, func(ph sim.Phase) bool { return ph.Shuffle })
	return
}

// ProfileOf builds job j's profile from its stage profiles: maps are the
// tasks of its first non-reduce stage, reducers those of its first reduce
// stage. A stage with no shuffle phase has the shuffle demand of its
// reduce phase.
func ProfileOf(j *sim.Job) JobProfile {
	var p JobProfile
	mapDone, redDone := false, false
	for _, st := range j.Stages {
		work, shuffle := StageDemand(st.Spec)
		switch {
		case st.Spec.Kind == sim.KindReduce && !redDone:
			p.Reduce, p.Shuffle, redDone = work, shuffle, true
			if !hasShuffle(st.Spec.Profile) {
				p.Shuffle = work
			}
		case st.Spec.Kind != sim.KindReduce && !mapDone:
			p.Map, mapDone = work, true
		}
	}
	return p
}

func hasShuffle(p *sim.Profile) bool {
	for _, ph := range p.Phases {
		if ph.Shuffle {
			return true
		}
	}
	return false
}

// amDemand is what a running ApplicationMaster uses (YARN scenarios only;
// Hadoop 1 has none).
func amDemand(t *sim.Task) Demand {
	return phaseDemand(sim.AMProfile, t.Req, func(sim.Phase) bool { return true })
}
