package sim

import (
	"cmp"
	"math"
	"slices"
)

// The MapReduce ApplicationMaster's reduces: which reducers it asks the
// ResourceManager for, on its own heartbeat.
//
// A MapReduce job's reducers are not all requested when slow-start passes.
// The AM keeps them pending and, at each of its heartbeats (allocate()
// calls, Model.AMHeartbeatMs from its registration), ramps them up within a
// share of the job's resource limit that grows with the completed maps, and
// asks for all of them once no map waits (RMContainerAllocator.
// scheduleReduces):
//
//	limit    = headroom + the maps and reducers the job holds
//	ideal    = limit x min(completed maps / maps, reduce.rampup.limit 0.5)
//	if the rest of the limit holds every map asked for or held, the
//	    reducers also get what the maps leave of it
//	ramp up  = (that - reducers asked for or held) / a reducer's request,
//	           in whole containers (negative: ask for fewer: ramp down)
//
// The headroom is what the scheduler tells the AM it may still get
// (Policy.Headroom); containers are counted in the resources the scheduler
// compares (Policy.Calc: memory only for the CapacityScheduler's default).
// A stage ramped up this way (Stage.rampup) asks for Stage.asked of its
// pending reducers; NextTask offers no other.

// rampupStage reports whether stage st of job j is a MapReduce reduce stage
// ramped up by its AM: reducers after a map stage, in a job with an AM, on
// YARN containers (a Hadoop 1 TaskTracker has reduce slots, and no AM).
func (s *Sim) rampupStage(j *Job, st *Stage) bool {
	if st.Spec.Kind != KindReduce || st.Index == 0 || j.Spec.AM.IsZero() || s.typedCluster {
		return false
	}
	return j.Stages[st.Index-1].Spec.Kind == KindMap
}

// amBeatMs is the AM heartbeat the ramp-up runs on.
func (s *Sim) amBeatMs() Ms {
	if hb := s.model.AMHeartbeatMs; hb > 0 {
		return hb
	}
	return MsPerS
}

// scheduleAMBeat schedules job j's next AM heartbeat after now on its grid
// from its registration, unless one is due: while it ramps reducers up,
// has containers to take or asks to send.
func (s *Sim) scheduleAMBeat(j *Job) {
	if j.amBeat || j.State != JobAdmitted {
		return
	}
	hb := s.amBeatMs()
	at := j.amReadyMs
	if at <= s.now {
		at = j.amReadyMs + ((s.now-j.amReadyMs)/hb+1)*hb
	}
	j.amBeat = true
	// An AM heartbeat comes before the node heartbeats of its instant: its
	// asks are in when the nodes are offered. The AM heartbeats of one
	// instant come after the instant's other events before its node
	// heartbeats, in job order (amBeatSeq).
	s.queue.push(event{at: at, seq: amBeatSeq(j.ID), ord: -1, id: j.ID, kind: evAMBeat})
}

// amBeatSeq is the seq of job id's AM heartbeats: the AM heartbeats of one
// instant run in job order, after the other events of that instant ordered
// before its node heartbeats (ord -1), whatever order they were scheduled
// in. Each AM is a process of its own, so Hadoop gives its allocate() calls
// of one instant no order; yarngym schedules an AM's heartbeat only while
// it has something to do (woken by whichever event gives it work), so the
// order it was scheduled in says nothing about the AMs either. Job order is
// the order of the oracle's driver (oracle/README.md, "Same-instant
// order"), and it matters: an allocate() that releases a container (one
// given beyond what the AM asked for) raises the headroom of the AMs that
// call after it, and with it their reducer ramp-up
// (RMContainerAllocator.scheduleReduces). On opera-mr the opposite order
// made job 0 ramp one reducer more at 894.35 s.
func amBeatSeq(id int32) uint64 { return 2<<62 | uint64(uint32(id)) }

// nodeSideSeq is the seq of an event that belongs to a node's heartbeat,
// just before it (release.go: the node reports its finished or preempted
// containers): after the other events of its ord, AM heartbeats included
// (node 0's have ord -1, as AM heartbeats do), so that an AM heartbeat of
// the instant comes before it as it comes before every node heartbeat.
// (s.seq stays far below 1<<62.)
func (s *Sim) nodeSideSeq() uint64 {
	s.seq++
	return 3<<62 | s.seq
}

// amBeat is job j's AM heartbeat: it ramps its reducers and keeps beating
// while any of them waits to be asked for.
func (s *Sim) amBeat(j *Job) {
	j.amBeat = false
	if j.State != JobAdmitted {
		return
	}
	if j.capped {
		for _, st := range j.Stages {
			if st.capped {
				s.sendCapped(st) // its asks, before allocate() (capped.go)
			}
		}
	}
	if len(j.excess) > 0 {
		s.freeExcess(j, false) // released with this allocate()
	}
	for _, st := range j.Stages {
		// This allocate()'s response reports the containers freed since.
		st.unreported -= st.freedSince
		st.freedSince = 0
	}
	reported := j.reported > 0
	j.reported = 0
	more := len(j.excess) > 0
	for _, st := range j.Stages {
		if st.capped {
			// A response with completed containers: the limits go again
			// at the next allocate() (capped.go).
			st.limitsDue = st.limitsDue || reported
			if st.givenSince > 0 {
				s.assignCapped(st)
			}
			if st.waitReg {
				s.checkRegistered(j, st) // executors.go
			}
			more = more || st.amDirty || st.limitsDue || len(j.excess) > 0 || st.waitReg
			continue
		}
		if a := st.asks; a != nil {
			// allocate(): send the asks changed since, then assign the
			// maps to the containers this response brings.
			a.sendAsks(st)
			s.assignBatch(st)
		}
		if !st.rampup {
			continue
		}
		// allocate() sends the AM's count if it changed (the scheduler's
		// becomes it, though containers it gave since against the old
		// count are in this very response: excess ones, released), takes
		// those containers (assigned: no longer scheduled), then ramps
		// again.
		if st.amChanged {
			st.asked = st.amSched
			st.amChanged = false
		}
		if st.givenSince > 0 {
			s.assignReducers(st)
		}
		if st.Released && (s.preemptForMaps(j, st) || s.mapsHang(j, st)) {
			more = true
			continue // no ramping up while the maps have no room
		}
		if st.Released {
			if next := s.scheduleReduces(j, st); next != st.amSched {
				st.amSched = next
				st.amChanged = true
			}
		}
		more = more || !st.Released || st.Pending > 0 || st.amChanged
	}
	s.touch(j)
	if more {
		s.scheduleAMBeat(j)
	}
}

// scheduleReduces is RMContainerAllocator.scheduleReduces for reduce stage
// st (released: slow-start has passed): how many reducers the AM now wants
// scheduled (asked for and not yet given a container).
func (s *Sim) scheduleReduces(j *Job, st *Stage) int {
	maps := j.Stages[st.Index-1]
	// The AM's reducers: assigned (in a container), scheduled, and pending
	// (not yet asked for).
	assignedR := st.Running
	waiting := len(st.Tasks) - st.Done - assignedR - st.amSched
	assignedR += st.unreported // the AM's assigned: ended but not yet reported
	if waiting <= 0 && st.amSched == 0 {
		return st.amSched
	}
	// Its maps: scheduled until it assigns them to a container it received
	// (those given since its last heartbeat are still scheduled: asks.go),
	// assigned from then on.
	scheduled, assigned := amMaps(maps)
	if scheduled == 0 { // no map asked for: ask for every reducer
		return st.amSched + max(waiting, 0)
	}
	calc := s.policy.Calc()
	mapCap, redCap := maps.Spec.Req, st.Spec.Req
	headroom := s.headroom(j)
	limit := headroom.Add(mul(mapCap, assigned)).Add(mul(redCap, assignedR))
	// In float, as scheduleReduces computes it: with a double, 3/40 x
	// 40,960 MB truncates to 3,071 MB, below a 3,072 MB reducer.
	f := float64(min(float32(maps.Done)/float32(len(maps.Tasks)), float32(s.model.ReduceRampupLimit)))
	ideal := Res{VCores: int64(float64(limit.VCores) * f), MemMB: int64(float64(limit.MemMB) * f)}
	idealMap := limit.Sub(ideal)
	final := ideal
	if containers(calc, idealMap, mapCap) >= scheduled+assigned {
		final = final.Add(idealMap.Sub(mul(mapCap, scheduled+assigned)))
	}
	ramp := containers(calc, final.Sub(mul(redCap, st.amSched+assignedR)), redCap)
	switch {
	case ramp > 0:
		return st.amSched + min(ramp, max(waiting, 0))
	case ramp < 0:
		return st.amSched - min(-ramp, st.amSched)
	}
	return st.amSched
}

// headroom is what the scheduler tells job j's AM it may still get.
func (s *Sim) headroom(j *Job) Res {
	if h := s.policy.Headroom; h != nil {
		return h(s.handle, j)
	}
	free := s.capacity.Sub(s.acct.allocG)
	return Res{VCores: max(free.VCores, 0), MemMB: max(free.MemMB, 0)}
}

func mul(r Res, k int) Res { return Res{VCores: r.VCores * int64(k), MemMB: r.MemMB * int64(k)} }

// containers is how many containers of size c fit in r, in the resources
// calc compares (ResourceCalculatorUtils.computeAvailableContainers;
// integer division, so negative r gives a negative count).
func containers(calc Calculator, r, c Res) int {
	n := math.MaxInt
	if c.MemMB > 0 {
		n = int(r.MemMB / c.MemMB)
	}
	if calc == EveryResource && c.VCores > 0 {
		n = min(n, int(r.VCores/c.VCores))
	}
	return n
}

// preemptForMaps is the MapReduce AM's reducer preemption on its heartbeat
// (RMContainerAllocator.preemptReducesIfNeeded): while none of the job's
// maps holds a container and maps are asked for, if its resource limit
// (headroom plus what it holds) less its reducers cannot hold one map, the
// AM takes back every reducer it has scheduled and kills reducers, least
// progress first, enough for the maps waiting (at least enough for one,
// at most half the limit: mapreduce.job.reducer.preempt.limit... 0.5; the
// maps wait no delay: mapreduce.job.reducer.preempt.delay.sec 0). Without
// it the reducers, asked at a higher priority, take every container freed
// and the maps never run. It reports whether it fired.
func (s *Sim) preemptForMaps(j *Job, st *Stage) bool {
	maps := j.Stages[st.Index-1]
	scheduled, assigned := amMaps(maps)
	if assigned > 0 || scheduled == 0 || st.Running == 0 {
		return false
	}
	calc := s.policy.Calc()
	mapCap, redCap := maps.Spec.Req, st.Spec.Req
	limit := s.headroom(j).Add(mul(redCap, st.Running))
	if containers(calc, limit.Sub(mul(redCap, st.Running)), mapCap) > 0 {
		return false
	}
	s.killReducers(j, st, scheduled)
	return true
}

// divCeil is how many containers of size c it takes to hold r, in the
// resources calc compares (ResourceCalculatorUtils.divideAndCeilContainers).
func divCeil(calc Calculator, r, c Res) int {
	n := 0
	if c.MemMB > 0 {
		n = int((r.MemMB + c.MemMB - 1) / c.MemMB)
	}
	if calc == EveryResource && c.VCores > 0 {
		n = max(n, int((r.VCores+c.VCores-1)/c.VCores))
	}
	return n
}

// assignReducers is the AM's assignment at its heartbeat of the reducer
// containers the scheduler gave since the last: each goes to a reducer it
// has scheduled, in the order given; one beyond those (the scheduler's
// count was higher than the AM's: its reducers were ramped down, or it gave
// against an old count) is released (RMContainerAllocator: a container
// with no scheduled request is released), its reducer back to pending and
// the container held until the AM's next heartbeat.
func (s *Sim) assignReducers(st *Stage) {
	j := st.Tasks[0].Job
	for _, t := range st.redBatch {
		if t.State != TaskRunning || !t.bound {
			continue
		}
		t.bound = false
		if st.amSched > 0 {
			st.amSched--
			st.amChanged = true
			continue
		}
		t.Node.Containers[t.pos] = t // closeToExcess removes this position
		s.unbindToExcess(j, st, t)
		s.enqueue(t, true, false)
	}
	clear(st.redBatch)
	st.redBatch = st.redBatch[:0]
	st.givenSince = 0
}

// killReducers is RMContainerAllocator.preemptReducer for a job whose maps,
// waiting maps of them, have no room: the AM takes back every reducer it
// has scheduled (they go back to pending: it asks for them again as its
// ramp-up allows) and kills reducers, least progress first (the latest
// started, then the lowest index: AssignedRequests.preemptReduce), enough
// for the waiting maps, at least one map's worth and at most half its
// resource limit (mapreduce.job.reducer.preempt.limit... 0.5). It returns
// how many it killed.
func (s *Sim) killReducers(j *Job, st *Stage, waiting int) int {
	maps := j.Stages[st.Index-1]
	if st.amSched > 0 {
		st.amSched = 0
		st.amChanged = true
		s.scheduleAMBeat(j)
	}
	calc := s.policy.Calc()
	mapCap, redCap := maps.Spec.Req, st.Spec.Req
	limit := s.headroom(j).Add(mul(mapCap, maps.Running)).Add(mul(redCap, st.Running))
	forOne := divCeil(calc, mapCap, redCap)
	forLimit := divCeil(calc, Res{VCores: limit.VCores / 2, MemMB: limit.MemMB / 2}, redCap)
	forAll := divCeil(calc, mul(mapCap, waiting), redCap)
	kill := min(max(forOne, forLimit), forAll)
	var victims []*Task
	for _, t := range st.Tasks {
		if (t.State == TaskRunning || t.State == TaskSuspended) && !t.Node.typed() {
			victims = append(victims, t)
		}
	}
	slices.SortStableFunc(victims, func(a, b *Task) int {
		if c := cmp.Compare(b.StartMs, a.StartMs); c != 0 {
			return c
		}
		return cmp.Compare(a.Index, b.Index)
	})
	k := min(kill, len(victims))
	for _, t := range victims[:k] {
		_ = s.Kill(t) // a running reducer can always be killed
		s.stats.ReducePreempted++
	}
	return k
}

// mapsHang reports whether the unconditional reducer preemption's
// condition holds for reduce stage st (RMContainerAllocator.
// preemptReducesIfNeeded): the AM has none of the job's maps assigned to a
// container, has maps scheduled, and some of them hang (hangingMaps). The
// AM does not ramp its reducers up meanwhile (preemptReducesIfNeeded
// returns true and heartbeat() skips scheduleReduces), or the reducers it
// kills come back into the room they freed.
//
// The maps freed since the AM's last heartbeat (Stage.freedSince) do not
// count as assigned: its heartbeat reports them before it checks (amBeat),
// and at the AMTickMs check (preemptReducers) of an AM whose heartbeats
// the engine skips while it has nothing to do they would have been
// reported by a heartbeat since (Hadoop's AM beats every second).
func (s *Sim) mapsHang(j *Job, st *Stage) bool {
	maps := j.Stages[st.Index-1]
	scheduled, assigned := amMaps(maps)
	return assigned-maps.freedSince == 0 && scheduled > 0 && s.hangingMaps(maps) > 0
}

// amMaps is how many of map stage maps' tasks the AM has scheduled (asked
// for, no container assigned yet: pending, and those given a container
// since its last heartbeat, asks.go) and assigned (in a container, until
// an allocate() response reports it complete: its assignedRequests).
func amMaps(maps *Stage) (scheduled, assigned int) {
	scheduled, assigned = maps.Pending, maps.Running+maps.unreported
	if maps.asks != nil {
		b := maps.asks.boundCount()
		scheduled += b
		assigned -= b
	}
	return scheduled, assigned
}

// hangingMaps is RMContainerAllocator.getNumHangingRequests over the maps
// the AM has scheduled: those whose request is more than ReducePreemptMs
// old (mapreduce.job.reducer.unconditional-preempt.delay.sec), each dated
// from its own ContainerRequest (Task.reqMs: the stage's request, or the
// kill of the attempt before), not from the last map to start. A map
// asked for at the AM's registration hangs once the job has run that
// long, however recently other maps started.
func (s *Sim) hangingMaps(maps *Stage) int {
	if !maps.Released {
		return 0
	}
	n := 0
	for _, t := range maps.Tasks {
		if (t.State == TaskPending || t.bound) && s.now-t.reqMs > s.model.ReducePreemptMs {
			n++
		}
	}
	return n
}

// unbindToExcess turns the container given to bound task t, which its AM
// does not keep, into one it releases at its next allocate()
// (closeToExcess), and makes t pending again as if it had not started; the
// caller puts t back in its stage's queue (reduces.go, capped.go).
func (s *Sim) unbindToExcess(j *Job, st *Stage, t *Task) {
	s.epoch++ // Epoch: containers, task states or the job lists change
	n := t.Node
	p := place{n, t.pos, t.Container, t.Alloc, t.StartMs, t.stall, OffRack}
	s.dropUsage(t, n)
	s.closeToExcess(j, st, p)
	t.setGated(false)
	t.State, t.Node, t.pos, t.Alloc = TaskPending, nil, -1, Res{}
	t.StartMs, t.stall, t.pollAt, t.known = -1, 0, -1, 0
	if t.Attempt == 0 {
		t.FirstStartMs = -1
	}
}
