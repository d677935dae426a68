package sim

import "math"

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
	s.seq++
	// An AM heartbeat comes before the node heartbeats of its instant: its
	// asks are in when the nodes are offered.
	s.queue.push(event{at: at, seq: s.seq, ord: -1, id: j.ID, kind: evAMBeat})
}

// amBeat is job j's AM heartbeat: it ramps its reducers and keeps beating
// while any of them waits to be asked for.
func (s *Sim) amBeat(j *Job) {
	j.amBeat = false
	if j.State != JobAdmitted {
		return
	}
	if len(j.excess) > 0 {
		s.freeExcess(j, false) // released with this allocate()
	}
	more := len(j.excess) > 0
	for _, st := range j.Stages {
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
		if g := st.givenSince; g > 0 {
			st.amSched -= min(g, st.amSched)
			st.amChanged = true
			st.givenSince = 0
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
	if waiting <= 0 && st.amSched == 0 {
		return st.amSched
	}
	// Its maps: scheduled until it assigns them to a container it received
	// (those given since its last heartbeat are still scheduled: asks.go),
	// assigned from then on.
	scheduled, assigned := maps.Pending, maps.Running
	if maps.asks != nil {
		b := maps.asks.boundCount()
		scheduled += b
		assigned -= b
	}
	if scheduled == 0 { // no map asked for: ask for every reducer
		return st.amSched + max(waiting, 0)
	}
	calc := s.policy.Calc()
	mapCap, redCap := maps.Spec.Req, st.Spec.Req
	headroom := s.headroom(j)
	limit := headroom.Add(mul(mapCap, assigned)).Add(mul(redCap, assignedR))
	f := math.Min(float64(maps.Done)/float64(len(maps.Tasks)), s.model.ReduceRampupLimit)
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
		return h(s, j)
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
