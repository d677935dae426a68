package base

import (
	"slices"

	"yarngym/env/sim"
)

// JobLimit is a Limit that can also tell, from the job alone, that it
// refuses every task job j may ask for now (DRESS's pool without room for
// the job's smallest request). The answer must be exact: true only where
// Allow would refuse each of the job's tasks on any node.
type JobLimit interface {
	Limit
	// PrepareRefusals readies RefusesJob for the run's state now; the
	// allocator calls it before the questions of one ranking (no launch
	// comes between them).
	PrepareRefusals(h sim.Handle)
	RefusesJob(j *sim.Job) bool
}

// refusedWhole reports whether a JobLimit refuses every task of job j
// where TaskFor's answer for a refused job on an offered node, nil, leaves
// nothing behind: with no delay scheduling, or under the CapacityScheduler's,
// which counts a missed opportunity only for a job whose maps it reaches
// (capacityAllowed) and otherwise refuses before counting
// (preCheckForNodeCandidateSet). assignOne then does not rank the job: the
// same answer at the cost of the limit's test, so that a heartbeat costs
// what the jobs the limits let through cost, not every job that asks (193
// jobs DRESS's empty pool holds back on an Alibaba hour,
// BenchmarkAlibabaDRESSStall). Fair's and the plain delay rules count an
// opportunity for a refused job too, so they take the long way.
func (a *Allocator) refusedWhole(j *sim.Job) bool {
	if !slices.ContainsFunc(a.jobLimits, func(l JobLimit) bool { return l.RefusesJob(j) }) {
		return false
	}
	if a.LocalityDelay <= 0 {
		return true
	}
	return a.CapacityLocality && (a.mapless(j) || mapsReached(j) == nil)
}

// prepareRefusals readies refusedWhole for h's run now (JobLimit).
func (a *Allocator) prepareRefusals(h sim.Handle) {
	a.perRun(h)
	for _, l := range a.jobLimits {
		l.PrepareRefusals(h)
	}
}
