package fair

import (
	"math"
	"slices"

	"yarngym/env/sim"
	"yarngym/policies/base"
)

// Update is the FairScheduler's update(), run every
// yarn.scheduler.fair.update-interval-ms (500 ms) on its own thread: it
// caches each job's demand (what it holds plus what it asks for) and
// recomputes the instantaneous fair shares, memory only (FairSharePolicy):
// the queues with jobs split the cluster by weight, and a queue's jobs
// (those ended but not yet removed included) split its share equally (ComputeFairShares; no queue or job has a min or
// max share here). Between updates the scheduler sees demand as cached
// while usage is live, so a job offers itself for a container only while its
// cached demand differs from what it holds: a new job, or new asks (a
// MapReduce job's reducers after slow start), wait for the next update
// (FSLeafQueue.fetchAppsWithDemand, FSAppAttempt.getPendingDemand).
//
// Reference: Hadoop 3.3.6 FairScheduler.update, FSAppAttempt.updateDemand,
// FSLeafQueue.updateDemand, ComputeFairShares.computeShares.
type Update struct {
	IntervalMs float64
	weight     map[string]float64

	demand map[*sim.Job]sim.Res // cached at the last update
	// shareMB is each queue's instantaneous fair share (memory), jobShare
	// each job's, as of the last update.
	shareMB  map[string]float64
	jobShare map[*sim.Job]float64
	queues   []string // scratch
}

func newUpdate(sp base.Spec) *Update {
	u := &Update{weight: map[string]float64{}, demand: map[*sim.Job]sim.Res{}, shareMB: map[string]float64{}, jobShare: map[*sim.Job]float64{}}
	for _, q := range sp.Queues {
		w := q.Weight
		if w <= 0 {
			w = 1
		}
		u.weight[q.Name] = w
	}
	return u
}

func (u *Update) w(q string) float64 {
	if w, ok := u.weight[q]; ok {
		return w
	}
	return 1
}

// ControlIntervalMs implements sim.Controller.
func (u *Update) ControlIntervalMs() sim.Ms { return sim.Ms(math.Round(u.IntervalMs)) }

// Control implements sim.Controller: one update().
func (u *Update) Control(s *sim.Sim) {
	clear(u.demand)
	clear(u.shareMB)
	clear(u.jobShare)
	u.queues = u.queues[:0]
	jobsIn := map[string]int{}
	// An ended job's application stays in its queue, and shares it, until
	// its AM container is reported complete (sim.Finishing).
	for _, jobs := range [2][]*sim.Job{s.Active(), s.Finishing()} {
		for _, j := range jobs {
			u.demand[j] = demand(s, j)
			q := base.QueueOf(j)
			if jobsIn[q] == 0 {
				u.queues = append(u.queues, q)
			}
			jobsIn[q]++
		}
	}
	// Active queues split the cluster's memory by weight (summed in sorted
	// order: the same float sum every run).
	slices.Sort(u.queues)
	total := 0.0
	for _, q := range u.queues {
		total += u.w(q)
	}
	mem := float64(s.Capacity().MemMB)
	for _, q := range u.queues {
		u.shareMB[q] = math.Floor(mem * u.w(q) / total)
	}
	for _, j := range s.Active() {
		q := base.QueueOf(j)
		u.jobShare[j] = math.Floor(u.shareMB[q] / float64(jobsIn[q]))
	}
}

// demand is what job j holds plus the normalized requests it asks for now.
func demand(s *sim.Sim, j *sim.Job) sim.Res {
	d := j.Alloc.Sub(j.OppAlloc)
	if j.AM != nil && j.AM.State == sim.TaskPending {
		return d.Add(s.Normalized(j.AM.Req))
	}
	if !s.HasPending(j) {
		return d
	}
	for _, st := range j.Stages {
		if k := st.Asking(); k > 0 {
			r := s.Normalized(st.Spec.Req)
			d = d.Add(sim.Res{VCores: r.VCores * int64(k), MemMB: r.MemMB * int64(k)})
		}
	}
	return d
}

// Offers reports whether job j offers itself for a container: its demand as
// of the last update differs from what it holds now (base.Allocator's
// Considers).
func (u *Update) Offers(_ *sim.Sim, j *sim.Job) bool {
	return u.demand[j] != j.Alloc.Sub(j.OppAlloc)
}

// QueueShareMB is queue q's instantaneous fair share (memory) as of the
// last update; a queue that had no job then has none.
func (u *Update) QueueShareMB(q string) float64 { return u.shareMB[q] }

// JobShareMB is job j's instantaneous fair share (memory) as of the last
// update.
func (u *Update) JobShareMB(j *sim.Job) float64 { return u.jobShare[j] }

// JobFinished implements sim.JobListener: a finished job leaves the cache.
func (u *Update) JobFinished(_ *sim.Sim, j *sim.Job) {
	delete(u.demand, j)
	delete(u.jobShare, j)
}

// JobArrived implements sim.JobListener.
func (u *Update) JobArrived(*sim.Sim, *sim.Job) {}
