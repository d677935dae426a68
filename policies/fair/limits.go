package fair

import (
	"yarngym/env/sim"
	"yarngym/policies/base"
)

// maxRunning is the FairScheduler's maxRunningApps (MaxRunningAppsEnforcer):
// a submitted job is runnable only while its queue has fewer runnable jobs
// than the cap (jobs ended but not yet removed count until their removal);
// the others wait, taking no share and launching nothing, and become
// runnable in submission order as jobs are removed
// (updateRunnabilityOnAppRemoval). A job held back does not hold back other
// queues' jobs. In yarngym a runnable job is an admitted one.
type maxRunning struct{ conf conf }

// Passes implements sim.PassingAdmitter.
func (m *maxRunning) Passes() bool { return true }

// Admit implements sim.Admitter.
func (m *maxRunning) Admit(s *sim.Sim, j *sim.Job) bool {
	q := base.QueueOf(j)
	limit := m.conf.maxRunning(q)
	if limit <= 0 {
		return true
	}
	n := 0
	for _, jobs := range [2][]*sim.Job{s.Active(), s.Finishing()} {
		for _, o := range jobs {
			if base.QueueOf(o) == q {
				n++
			}
		}
	}
	return n < limit
}

// maxShare is the FairScheduler's maxResources: a queue is offered a node
// only while what it holds fits its max share, and a request only if it
// fits too (FSQueue.assignContainerPreCheck, fitsInMaxShare, called from
// FSAppAttempt.hasContainerForNode), memory and vCores alike
// (Resources.fitsIn, whatever the policy). A request that does not fit is
// passed over, not reserved for.
type maxShare struct {
	conf conf
	// used holds each bounded queue's guaranteed resources, taken once per
	// ranking (stale) and kept current through Launched.
	used  map[string]sim.Res
	fresh bool
}

func (m *maxShare) stale() { m.fresh = false }

// Allow implements base.Limit.
func (m *maxShare) Allow(s *sim.Sim, t *sim.Task, _ *sim.Node) bool {
	q := base.QueueOf(t.Job)
	limit := m.conf.maxShare(q)
	if !m.fresh {
		m.used = queueUsage(s, m.used)
		m.fresh = true
	}
	return m.used[q].Add(s.Normalized(t.Req)).Fits(limit)
}

// Launched keeps the totals current within a heartbeat.
func (m *maxShare) Launched(_ *sim.Sim, t *sim.Task) {
	if m.fresh {
		q := base.QueueOf(t.Job)
		m.used[q] = m.used[q].Add(t.Alloc)
	}
}

// queueUsage fills into (cleared) each queue's guaranteed resources: what
// its jobs hold, those ended but not yet removed included (FSQueue's
// resource usage).
func queueUsage(s *sim.Sim, into map[string]sim.Res) map[string]sim.Res {
	if into == nil {
		into = map[string]sim.Res{}
	}
	clear(into)
	for _, jobs := range [2][]*sim.Job{s.Active(), s.Finishing()} {
		for _, j := range jobs {
			q := base.QueueOf(j)
			into[q] = into[q].Add(j.Alloc.Sub(j.OppAlloc))
		}
	}
	return into
}
