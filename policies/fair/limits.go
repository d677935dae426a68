package fair

import (
	"strings"

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

// OnJobEvents implements sim.JobEventAdmitter: runnability changes on app
// add and removal only (MaxRunningAppsEnforcer.canAppBeRunnable,
// updateRunnabilityOnAppRemoval).
func (m *maxRunning) OnJobEvents() bool { return true }

// Admit implements sim.Admitter: the job's queue and each of its parents
// must have room (MaxRunningAppsEnforcer.canAppBeRunnable).
func (m *maxRunning) Admit(h sim.Handle, j *sim.Job) bool {
	ok := true
	ancestry(base.QueueOf(j), func(a string) bool {
		limit := m.conf.maxRunning(a)
		if limit <= 0 {
			return true
		}
		n := 0
		for _, jobs := range [2][]*sim.Job{h.Active(), h.Finishing()} {
			for _, o := range jobs {
				if q := base.QueueOf(o); q == a || strings.HasPrefix(q, a+".") {
					n++
				}
			}
		}
		ok = n < limit
		return ok
	})
	return ok
}

// maxShare is the FairScheduler's maxResources: a queue is offered a node
// only while what it holds fits its max share, and a request only if it
// fits too, in the queue and in each of its parents
// (FSQueue.assignContainerPreCheck, fitsInMaxShare, called from
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
func (m *maxShare) Allow(h sim.Handle, t *sim.Task, _ *sim.Node) bool {
	if !m.fresh {
		m.used = queueUsage(h, m.used)
		m.fresh = true
	}
	req := h.Normalized(t.Req)
	ok := true
	ancestry(base.QueueOf(t.Job), func(a string) bool {
		ok = m.used[a].Add(req).Fits(m.conf.maxShare(a))
		return ok
	})
	return ok
}

// Launched keeps the totals current within a heartbeat.
func (m *maxShare) Launched(_ sim.Handle, t *sim.Task) {
	if m.fresh {
		ancestry(base.QueueOf(t.Job), func(a string) bool {
			m.used[a] = m.used[a].Add(t.Alloc)
			return true
		})
	}
}

// queueUsage fills into (cleared) each queue's guaranteed resources: what
// its jobs hold, those ended but not yet removed included (FSQueue's
// resource usage), a parent's being its children's.
func queueUsage(h sim.Handle, into map[string]sim.Res) map[string]sim.Res {
	if into == nil {
		into = map[string]sim.Res{}
	}
	clear(into)
	for _, jobs := range [2][]*sim.Job{h.Active(), h.Finishing()} {
		for _, j := range jobs {
			u := j.Alloc.Sub(j.OppAlloc)
			ancestry(base.QueueOf(j), func(a string) bool {
				into[a] = into[a].Add(u)
				return true
			})
		}
	}
	return into
}
