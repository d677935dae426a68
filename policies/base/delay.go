package base

import "yarngym/env/sim"

// delay is what delay scheduling keeps of one job: the scheduler's state,
// not the job's (Hadoop keeps it in the application attempt the scheduler
// holds: SchedulerApplicationAttempt's scheduling opportunities,
// FSAppAttempt's allowed locality level), so the allocator keeps it, not
// the engine's Job.
type delay struct {
	misses  int          // scheduling opportunities passed up waiting for locality
	allowed sim.Locality // FairLocality: the level the job's maps may take now
	// maps says whether the job has a map stage (0: not looked yet, 1: it
	// has, 2: it has none, so its maps are never reached: mapsReached is nil
	// for good). The job's stages do not change.
	maps uint8
}

// mapless reports whether job j has no map stage, so that delay scheduling
// never reaches its maps (mapsReached is nil whatever it asks for); in the
// run perRun last saw.
func (a *Allocator) mapless(j *sim.Job) bool {
	a.delays = ByJobID(a.delays, j.ID)
	dl := &a.delays[j.ID]
	if dl.maps == 0 {
		dl.maps = 2
		for _, st := range j.Stages {
			if st.Spec.Kind == sim.KindMap {
				dl.maps = 1
				break
			}
		}
	}
	return dl.maps == 2
}

// perRun resets what the allocator keeps for one run when h is another run
// than the last one it saw: a policy built once and given to several runs
// starts each afresh.
func (a *Allocator) perRun(h sim.Handle) {
	if a.run == h {
		return
	}
	a.run, a.maxAlloc, a.delays = h, sim.Res{}, a.delays[:0]
	a.jobLimits = a.jobLimits[:0] // the parts are in place once a run starts
	for _, l := range a.Limits {
		if jl, ok := l.(JobLimit); ok {
			a.jobLimits = append(a.jobLimits, jl)
		}
	}
	for _, m := range h.Nodes() {
		a.maxAlloc.MemMB = max(a.maxAlloc.MemMB, m.Spec.Cap.MemMB)
		a.maxAlloc.VCores = max(a.maxAlloc.VCores, m.Spec.Cap.VCores)
	}
}

// delayOf is job j's delay scheduling state in h's run.
func (a *Allocator) delayOf(h sim.Handle, j *sim.Job) *delay {
	a.perRun(h)
	a.delays = ByJobID(a.delays, j.ID)
	return &a.delays[j.ID]
}

// Misses is the scheduling opportunities job j has passed up waiting for
// a local node in h's run.
func (a *Allocator) Misses(h sim.Handle, j *sim.Job) int { return a.delayOf(h, j).misses }

// ResetMisses restarts job j's count of missed opportunities, as a
// node-local launch does: for mechanisms that launch outside TaskFor
// (iKayak's shrunk executors).
func (a *Allocator) ResetMisses(h sim.Handle, j *sim.Job) { a.delayOf(h, j).misses = 0 }
