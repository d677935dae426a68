package sim

import "math"

// NextTask returns the job's next pending, requested task that may run on n
// with locality no worse than max, or nil. The AM comes first. Then stages in
// reverse order: MapReduce's AM asks for reducers at a higher priority than
// maps (RMContainerAllocator: PRIORITY_REDUCE 10 before PRIORITY_MAP 20),
// which is what lets early reducers crowd out maps. Within a map stage a
// task with a replica on n comes first, then one on n's rack, then any.
func (s *Sim) NextTask(j *Job, n *Node, max Locality) *Task {
	if j.State != JobAdmitted {
		return nil
	}
	if j.AM != nil {
		if j.AM.State == TaskPending {
			return j.AM
		}
		if s.now < j.amReadyMs {
			return nil
		}
	}
	for i := len(j.Stages) - 1; i >= 0; i-- {
		if t := s.stageNext(j, j.Stages[i], n, max); t != nil {
			return t
		}
	}
	return nil
}

// NextTaskInStage is NextTask restricted to stage i of job j (never the AM):
// mechanisms that pass over one stage's tasks for another's (OPERA offers
// opportunistic containers to the short stages only) look at each in turn.
func (s *Sim) NextTaskInStage(j *Job, i int, n *Node, max Locality) *Task {
	if j.State != JobAdmitted || i < 0 || i >= len(j.Stages) {
		return nil
	}
	if j.AM != nil && (j.AM.State == TaskPending || s.now < j.amReadyMs) {
		return nil
	}
	return s.stageNext(j, j.Stages[i], n, max)
}

// stageNext is the next pending task of stage st for node n (see NextTask).
func (s *Sim) stageNext(j *Job, st *Stage, n *Node, max Locality) *Task {
	if st.Asking() == 0 || !s.slotAllows(j, st, n) {
		return nil
	}
	if st.asks != nil {
		// The scheduler's counts say whether n is a node- or rack-local
		// opportunity (asks.go); the map bound to the container is the
		// likeliest the AM assigns, and it may rebind it.
		if s.askLevel(st, n) > max {
			return nil
		}
		if t := firstPending(st.byNode, n.ID); t != nil {
			return t
		}
		if t := firstPending(st.byRack, n.Spec.Rack); t != nil {
			return t
		}
		if t := st.headPending(); t != nil {
			return t
		}
		return s.excessTask(st) // the scheduler counts more than the maps left
	}
	if st.byNode != nil {
		if t := firstPending(st.byNode, n.ID); t != nil {
			return t
		}
		if max >= RackLocal {
			if t := firstPending(st.byRack, n.Spec.Rack); t != nil {
				return t
			}
		}
		if max < OffRack {
			return nil
		}
	}
	if t := st.headPending(); t != nil || !(st.rampup || st.capped) {
		return t
	}
	return s.excessTask(st) // the scheduler counts more containers than tasks are left
}

// HasPending reports whether the job asks for any container now.
func (s *Sim) HasPending(j *Job) bool {
	if j.State != JobAdmitted {
		return false
	}
	if j.AM != nil {
		if j.AM.State == TaskPending {
			return true
		}
		if s.now < j.amReadyMs {
			return false
		}
	}
	for _, st := range j.Stages {
		if st.Asking() > 0 {
			return true
		}
	}
	return false
}

// PendingDemand returns the total request of the job's pending tasks that
// are asked for now.
func (s *Sim) PendingDemand(j *Job) (r Res, tasks int) {
	if j.State != JobAdmitted {
		return
	}
	if j.AM != nil && j.AM.State == TaskPending {
		return j.AM.Req, 1
	}
	if j.AM != nil && s.now < j.amReadyMs {
		return
	}
	for _, st := range j.Stages {
		if k := st.Asking(); k > 0 {
			r.VCores += st.Spec.Req.VCores * int64(k)
			r.MemMB += st.Spec.Req.MemMB * int64(k)
			tasks += k
		}
	}
	return
}

// firstPending returns the first still-pending task in m[key], dropping the
// stale entries in front of it.
// (A map bound to a container its AM has not yet assigned stays in the
// queues in its place: the AM still counts it as asked for, asks.go.)
func firstPending[K comparable](m map[K][]*Task, key K) *Task {
	l := m[key]
	i := 0
	for i < len(l) && l[i].State != TaskPending && !l[i].bound {
		i++
	}
	if i == len(l) {
		if len(l) > 0 {
			delete(m, key)
		}
		return nil
	}
	if i > 0 {
		m[key] = l[i:]
		l = l[i:]
	}
	for _, t := range l {
		if t.State == TaskPending {
			return t
		}
	}
	return nil
}

func (st *Stage) headPending() *Task {
	for st.head < len(st.queue) && st.queue[st.head].State != TaskPending && !st.queue[st.head].bound {
		st.queue[st.head] = nil
		st.head++
	}
	if st.head == len(st.queue) {
		st.queue = st.queue[:0]
		st.head = 0
		return nil
	}
	for _, t := range st.queue[st.head:] {
		if t.State == TaskPending {
			return t
		}
	}
	return nil
}

// preemptReducers is the MapReduce AM's unconditional reducer preemption,
// checked every AMTickMs: a job none of whose maps holds a container while
// maps have waited ReducePreemptMs for one, with reducers in containers,
// takes back every reducer it has scheduled and kills reducers, least
// progress first, enough for the maps waiting (at least one map's worth,
// at most half its resource limit: RMContainerAllocator.
// preemptReducesIfNeeded, mapreduce.job.reducer.unconditional-preempt.
// delay.sec). Under a modelled AM (Stage.rampup) a map waits from its own
// request (mapsHang, hangingMaps, as the AM dates its requests); without
// one, from when a map of the stage last started. On a typed TaskTracker a
// reducer holds no map slot: nothing is killed there.
//
// A kill brings its node up to now first, which may end another job's last
// task there and remove that job from s.active: the loop walks a copy and
// passes over jobs no longer active.
func (s *Sim) preemptReducers() {
	s.activeScratch = append(s.activeScratch[:0], s.active...)
	defer clear(s.activeScratch)
	for _, j := range s.activeScratch {
		if j.active < 0 {
			continue // ended during this tick
		}
		for i := 1; i < len(j.Stages); i++ {
			st, prev := j.Stages[i], j.Stages[i-1]
			if st.rampup {
				// The AM's own rule (RMContainerAllocator.
				// preemptReducesIfNeeded): no map assigned, and maps
				// asked for more than ReducePreemptMs ago; it takes back
				// its scheduled reducers even with none running.
				if s.mapsHang(j, st) {
					s.killReducers(j, st, s.hangingMaps(prev))
				}
				continue
			}
			if st.Spec.Kind != KindReduce || st.Running == 0 || prev.Pending == 0 || prev.Running > 0 {
				continue
			}
			since := max(prev.LastStartMs, j.amReadyMs)
			if s.now-since < s.model.ReducePreemptMs {
				continue
			}
			s.killNewestReducer(prev, st)
		}
	}
}

// killNewestReducer is the reducer preemption of a job whose AM the model
// does not run (a workload without AMs on YARN nodes; rampupAllows stands
// in for its ramp-up): its newest running reducer is killed and its maps
// get a tick to use the container freed.
func (s *Sim) killNewestReducer(maps, st *Stage) {
	var newest *Task
	for _, t := range st.Tasks {
		// A reducer in a typed reduce slot holds no map slot: killing it
		// would free nothing for the maps.
		if (t.State == TaskRunning || t.State == TaskSuspended) && !t.Node.typed() && (newest == nil || t.StartMs > newest.StartMs) {
			newest = t
		}
	}
	if newest != nil {
		_ = s.Kill(newest) // a running reducer can always be killed
		s.stats.ReducePreempted++
		maps.LastStartMs = s.now
	}
}

// rampupAllows applies the MapReduce AM's reduce ramp-up to a reduce stage
// whose AM the model does not run (Stage.rampup false on YARN nodes: the
// AM's own ramp-up is reduces.go's): while the previous stage still has
// tasks waiting, another reducer may start only if the reducers stay
// within min(f, ReduceRampupLimit) of the job's running tasks, f the
// fraction of its maps completed (RMContainerAllocator.scheduleReduces:
// the reduce resource limit is the job's limit times
// min(completedMapPercent, yarn.app.mapreduce.am.job.reduce.rampup.limit)),
// the job's running containers standing for its resource limit.
func (s *Sim) rampupAllows(j *Job, st *Stage) bool {
	if st.Spec.Kind != KindReduce || st.Index == 0 || st.rampup {
		return true
	}
	prev := j.Stages[st.Index-1]
	if prev.Pending == 0 {
		return true
	}
	limit := math.Min(float64(prev.Done)/float64(len(prev.Tasks)), s.model.ReduceRampupLimit)
	r := float64(st.Running + 1)
	return r <= limit*float64(prev.Running+st.Running+1)
}
