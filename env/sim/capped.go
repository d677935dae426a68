package sim

// A stage that holds at most StageSpec.MaxRunning containers (a Spark job's
// executors, one partition task each: workload.go) asks for them through
// its ApplicationMaster, on the AM's heartbeat, not the instant one of its
// containers ends.
//
// Both AMs that cap a stage this way do it the same way. MapReduce's
// (RMContainerAllocator.applyConcurrentTaskLimits, mapreduce.job.running.
// map|reduce.limit, and RMContainerRequestor.setRequestLimit/
// applyRequestLimits), at each heartbeat before its allocate() call:
//
//	limit = min(max - assigned, scheduled)
//
// where assigned are the containers it has taken and not yet been told are
// complete (processFinishedContainer, from an allocate() response) and
// scheduled the tasks it asks for and has not yet given a container. Its
// any-node entry is sent, capped at the limit, when the entry changed since
// the last allocate() (a container assigned, a task scheduled), when the
// limit grew, or when the previous response reported completed containers
// (makeRemoteRequest: requestLimitsToUpdate.addAll). Spark's YarnAllocator.
// allocateResources does the same: updateResourceRequests asks for target
// - pending - starting - running executors, running as of the previous
// responses' completed containers (processCompletedContainers runs after
// amClient.allocate), then allocate() sends the AMRMClient's count.
//
// So a container that ends is freed at its node's next heartbeat
// (release.go), reported to the AM at the AM's next allocate(), and asked
// for again only at the allocate() after that. And the count the AM sends
// is absolute: the scheduler's count, which its own allocations have taken
// down since, becomes it again (AppSchedulingInfo.updateResourceRequests),
// though the containers given since are still on their way to the AM. The
// scheduler gives those again; the AM, at the heartbeat that brings them,
// takes a container while it holds fewer than max and has a task
// scheduled, and releases the others at its next allocate()
// (RMContainerAllocator.assign: a container it cannot use; YarnAllocator.
// handleAllocatedContainers/runAllocatedContainers).
//
// yarngym keeps the scheduler's count in Stage.asked (counted down as
// containers are given, as a ramped-up reduce stage's: reduces.go) and
// binds a pending task to each container when the node offers it; its
// process starts at the AM's next heartbeat anyway (Launch), and there the
// AM keeps or releases it. A rejected task is pending again in its place
// (its queue entry stays while it is bound: headPending), as the AM's
// scheduled list keeps it in order. The oracle's driver plays the
// MapReduce AM's code (oracle/src/main/java/yarngym/oracle/AppMaster.java).

// cappedStage reports whether stage st of job j asks for its containers
// capped at MaxRunning through its AM's heartbeat (see above): a stage with
// more tasks than MaxRunning (applyConcurrentTaskLimits: only then), of a
// job with an AM on YARN containers with the AM heartbeat modelled, that
// neither asks by location (asks.go) nor is ramped up (reduces.go).
func (s *Sim) cappedStage(j *Job, st *Stage) bool {
	m := st.Spec.MaxRunning
	if m <= 0 || m >= st.Spec.NumTasks() || j.Spec.AM.IsZero() || s.typedCluster || s.model.AMHeartbeatMs <= 0 {
		return false
	}
	return !st.rampup && !s.asksStage(j, st)
}

// counted reports whether the scheduler's count of st's requests is kept
// apart from its pending tasks, as its AM last sent it less the containers
// given since (asks.go, reduces.go, capped stages): it may exceed them.
func (st *Stage) counted() bool { return st.asks != nil || st.rampup || st.capped }

// cappedBound is how many of capped stage st's containers given since its
// AM's last heartbeat still hold the task bound to them.
func (st *Stage) cappedBound() int {
	k := 0
	for _, t := range st.redBatch {
		if t.State == TaskRunning && t.bound {
			k++
		}
	}
	return k
}

// cappedHeld is how many containers capped stage st's AM counts as
// assigned: in a container it has taken, or ended and not yet reported to
// it complete (Stage.unreported).
func (st *Stage) cappedHeld() int {
	return st.Held() - st.cappedBound() + st.unreported
}

// sendCapped is capped stage st's part of its AM's heartbeat before the
// allocate() call: applyConcurrentTaskLimits, then the any-node count sent
// if due (applyRequestLimits), which the scheduler's becomes.
func (s *Sim) sendCapped(st *Stage) {
	scheduled := st.Pending + st.cappedBound()
	if scheduled > 0 {
		limit := min(max(st.Spec.MaxRunning-st.cappedHeld(), 0), scheduled)
		if st.amLimit < 0 || st.amLimit < limit {
			st.limitsDue = true // setRequestLimit: a limit that grew is sent
		}
		st.amLimit = limit
	}
	if st.amDirty || st.limitsDue {
		n := scheduled // 0: the entry is gone, the scheduler drops the request
		if scheduled > 0 {
			n = min(scheduled, st.amLimit)
		}
		st.asked = n
	}
	st.amDirty, st.limitsDue = false, false
}

// assignCapped is capped stage st's AM taking, after allocate(), the
// containers given since its last heartbeat, in the order given: each is
// kept while the AM holds fewer than MaxRunning (assigned, as of this
// response's completed containers) and has a task scheduled; the others are
// released at its next allocate() (closeToExcess), their tasks pending again
// in their places.
func (s *Sim) assignCapped(st *Stage) {
	j := st.Tasks[0].Job
	held := st.cappedHeld()
	scheduled := st.Pending + st.cappedBound()
	for _, t := range st.redBatch {
		if t.State != TaskRunning || !t.bound {
			continue
		}
		t.bound = false
		if held < st.Spec.MaxRunning && scheduled > 0 {
			held++
			scheduled--
			if st.waitReg {
				// An executor whose driver does not yet schedule tasks: it
				// idles and t stays scheduled (executors.go).
				s.idleUntilReady(st, t)
				continue
			}
			st.amDirty = true // the entry changed: sent at the next allocate()
			continue
		}
		s.unbindToExcess(j, st, t)
		st.Pending++ // still in its queue, in its place
	}
	clear(st.redBatch)
	st.redBatch = st.redBatch[:0]
	st.givenSince = 0
}

// cappedReported books, for job j with capped stages, k of its containers
// reported complete to the AM at its next allocate(): that response makes
// the AM send its limits again at the heartbeat after (makeRemoteRequest).
func (s *Sim) cappedReported(j *Job, k int) {
	if !j.capped || k == 0 {
		return
	}
	j.reported += k
	s.scheduleAMBeat(j)
}
