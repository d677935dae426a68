package sim

import (
	"fmt"
	"slices"
)

// This file holds the ResourceManager's actions: what a policy may do to the
// cluster, and the book-keeping when tasks end.

// startAttempt starts t's attempt now in a container of kind holding alloc
// on n (LaunchSeq seq, shrunk to shrunk vCores if not 0), at the start of
// its first phase, and returns that phase's work.
func (t *Task) startAttempt(n *Node, kind ContainerKind, alloc Res, seq, shrunk int64, now Ms) float64 {
	t.State = TaskRunning
	t.Node = n
	t.Container = kind
	t.Alloc = alloc
	t.StartMs = now
	t.LaunchSeq = seq
	if t.FirstStartMs < 0 {
		t.FirstStartMs = now
	}
	t.phase = 0
	left := 0.0
	if len(t.phases) > 0 {
		left = t.work(0)
	}
	t.setGated(false)
	t.shrunk = shrunk
	t.swapped, t.swapIn, t.stall = 0, 0, 0
	return left
}

// Launch starts pending task t in a container of the given kind on node n.
// A guaranteed container must fit in n's free capacity; an opportunistic one
// is the policy's judgement. A node reserved for another task takes only
// that task (YARN's reservation).
func (s *Sim) Launch(t *Task, n *Node, kind ContainerKind) error {
	return s.launch(t, n, kind, s.booked(t.Req, n), NodeLocal)
}

// LaunchTyped is Launch for a container the scheduler allocates at locality
// type level (Hadoop's NodeType) where the request table's counts
// (ContainerLevel) would make it more local. The CapacityScheduler tries a
// node's host, then its rack, then any node, each only once its delay
// allows (RegularContainerAllocator.assignContainersOnNode, canAssign):
// when the off-switch delay has passed and the rack-local one has not, a
// container on a node of a rack the job asks for is given through the
// off-switch path and typed OFF_SWITCH. The type decides which counts go
// down (LocalityAppPlacementAllocator.allocate: any-node only for
// OFF_SWITCH) and is what GivenLevel reports (a CapacityScheduler heartbeat
// ends after an off-switch container). A level more local than
// ContainerLevel is taken as ContainerLevel.
func (s *Sim) LaunchTyped(t *Task, n *Node, kind ContainerKind, level Locality) error {
	return s.launch(t, n, kind, s.booked(t.Req, n), level)
}

// booked is what a container for request r holds on node n: r as the
// policy normalizes it (a typed-slot TaskTracker's slots are not rounded).
func (s *Sim) booked(r Res, n *Node) Res {
	if n.typed() {
		return r
	}
	return s.policy.Normalize.Apply(r)
}

// LaunchShrunk starts pending task t in a guaranteed container on n that
// holds alloc, less than t's request (iKayak Alg. 3: map containers
// "proportionally shrank when they are initialized"). As with Shrink, the
// task's CPU is capped at alloc's vCores; its memory use is capped at alloc's
// MB, and its Spill phases run at alloc.MemMB / Req.MemMB of their speed.
func (s *Sim) LaunchShrunk(t *Task, n *Node, alloc Res) error {
	if t.Kind == KindAM {
		return fmt.Errorf("launch %s: an ApplicationMaster cannot be shrunk", t)
	}
	if alloc.VCores < 1 || alloc.MemMB < 1 || !alloc.Fits(t.Req) {
		return fmt.Errorf("launch %s: shrunk size %v outside [<1 vCores, 1 MB>, request %v]", t, alloc, t.Req)
	}
	return s.launch(t, n, Guaranteed, alloc, NodeLocal)
}

// launch starts t on n holding alloc; typed is the least local type the
// scheduler gives the container (LaunchTyped; NodeLocal: the counts' own).
func (s *Sim) launch(t *Task, n *Node, kind ContainerKind, alloc Res, typed Locality) error {
	s.epoch++ // Epoch: containers, task states or the job lists change
	if t.Excess() {
		if kind != Guaranteed || !s.CalcOn(n).Fits(alloc, n.Free()) || (n.Reserved != nil && n.Reserved != t) || t.Stage.Asking() == 0 {
			return fmt.Errorf("launch %s on node %d: no room or no ask for a container beyond its maps", t, n.ID)
		}
		if t.reservedOn != nil {
			s.Unreserve(t.reservedOn)
		}
		if p := s.pendingFor(t.Stage, n); p != nil {
			// A task of the stage is pending after all (the stand-in held a
			// reservation made while none was): the container is its.
			return s.launch(p, n, kind, alloc, typed)
		}
		s.giveExcess(t, n, alloc, typed)
		if s.cfg.OnGive != nil {
			s.cfg.OnGive(s, t, n)
		}
		return nil
	}
	if t.State != TaskPending {
		return fmt.Errorf("launch %s: task is %v, not pending", t, t.State)
	}
	if !s.Requestable(t) {
		return fmt.Errorf("launch %s: task is not requested yet", t)
	}
	if kind == Guaranteed && !s.CalcOn(n).Fits(alloc, n.Free()) {
		return fmt.Errorf("launch %s on node %d: request %v does not fit free %v", t, n.ID, alloc, n.Free())
	}
	if kind == Opportunistic && t.Kind == KindAM {
		return fmt.Errorf("launch %s: an ApplicationMaster cannot be opportunistic", t)
	}
	if n.Reserved != nil && n.Reserved != t && kind == Guaranteed {
		return fmt.Errorf("launch %s on node %d: node is reserved for %s", t, n.ID, n.Reserved)
	}
	if t.Kind == KindReduce && n.typed() {
		if n.Reducers() >= n.Spec.ReduceSlots {
			return fmt.Errorf("launch %s on node %d: its %d reduce slots are taken", t, n.ID, n.Spec.ReduceSlots)
		}
		n.lastReduce = s.now
	}
	s.advance(n)
	if r := t.reservedOn; r != nil {
		if st := t.Stage; r != n && st != nil && st.counted() && s.policy.KeepReservations {
			s.moveReservation(t) // the node was reserved for the stage's request
		} else {
			s.dropReservations(t, n)
		}
	} else if n.Reserved == t {
		s.Unreserve(n) // a stale or extra reservation of t's request, met here
	}
	j := t.Job
	s.containerSeq++
	left := t.startAttempt(n, kind, alloc, s.containerSeq, 0, s.now)
	if hb := s.model.AMHeartbeatMs; hb > 0 && t.Kind != KindAM && j.AM != nil && !n.typed() {
		// The container is the job's from now, but its AM picks it up and
		// starts its process at the AM's next allocate() call, on its own
		// heartbeat grid from its registration (MapReduce's
		// RMContainerAllocator: the allocated containers come back in an
		// allocate response, then the ContainerLauncher starts them).
		t.stall = j.amReadyMs + ((s.now-j.amReadyMs)/hb+1)*hb
	}
	t.runMs = max(t.stall, s.now)
	if st := t.Stage; st != nil && st.Index > 0 {
		// The reducer's first poll is at its process's start (EventFetcher),
		// its next ones on a grid from there.
		if t.runMs > s.now && s.model.ShuffleEventPollMs >= 0 {
			t.known, t.pollAt = 0, t.runMs
			if n.pollAt < 0 || t.pollAt < n.pollAt {
				n.pollAt = t.pollAt
			}
		} else {
			s.learnMaps(t)
		}
	}
	if alloc.VCores < s.booked(t.Req, n).VCores {
		t.shrunk = alloc.VCores
	}
	t.Locality = s.LocalityOf(t, n)
	t.pos = len(n.Containers)
	n.Containers = append(n.Containers, t)
	n.slots = append(n.slots, slot{left: left, prev: -1, flags: slotDirty})
	s.acct.resv(s.now)
	if kind == Guaranteed {
		n.Alloc = n.Alloc.Add(alloc)
		s.acct.allocG = s.acct.allocG.Add(alloc)
	} else {
		n.OppAlloc = n.OppAlloc.Add(alloc)
		j.OppAlloc = j.OppAlloc.Add(alloc)
		s.acct.allocO = s.acct.allocO.Add(alloc)
		s.stats.OppLaunched++
	}
	j.Alloc = j.Alloc.Add(alloc)
	j.Running++
	if j.StartMs < 0 {
		j.StartMs = s.now
	}
	if st := t.Stage; st != nil {
		st.Pending--
		st.Running++
		if kind == Guaranteed {
			st.heldG++
		}
		st.LastStartMs = s.now
		if st.rampup || st.capped {
			st.asked--
			st.givenSince++
			if t.stall > 0 {
				t.bound = true // the AM assigns it at its heartbeat (reduces.go, capped.go)
				st.redBatch = append(st.redBatch, t)
				s.scheduleAMBeat(j)
			}
		}
		if st.asks != nil && t.stall > 0 {
			s.given(t, n, max(s.askLevel(st, n), typed))
		}
	}
	s.stats.Launched++
	if s.cfg.OnGive != nil {
		s.cfg.OnGive(s, t, n)
	}
	s.setUsage(t, n)
	s.progress()
	s.markDirty(n)
	s.wake(n)
	s.touch(j)
	if t.Kind == KindAM {
		// The AM registers and requests its tasks after it starts up.
		s.settleAMStart(t)
	} else if len(t.phases) == 0 || left <= epsWork {
		s.settle(n)
	}
	return nil
}

// settleAMStart releases the job's first stages once the AM has started.
// The AM's start-up time (the job's JobSpec.AMStartupMs, else the model's)
// delays its tasks' requests: modelled by releasing at launch and letting
// stages wait that long via their request time.
func (s *Sim) settleAMStart(am *Task) {
	j := am.Job
	j.amReadyMs = s.now + j.Spec.StartupMs(s.model)
	for _, st := range j.Stages {
		if st.rampup || st.capped {
			s.scheduleAMBeat(j) // its first allocate() is at registration
			break
		}
	}
	if j.amReadyMs > s.now {
		// The job asks for its tasks then, without a model event.
		s.ready.push(event{at: j.amReadyMs, ord: ordFirst, seq: uint64(j.ID), id: j.ID, kind: evReady})
	}
	s.releaseReady(j)
}

// LocalityOf is how close node n is to t's input block (maps only; other
// tasks are always node-local).
func (s *Sim) LocalityOf(t *Task, n *Node) Locality {
	if len(t.Replicas) == 0 {
		return NodeLocal
	}
	loc := OffRack
	for _, r := range t.Replicas {
		if r == n.ID {
			return NodeLocal
		}
		if s.rackOf[r] == int32(n.Spec.Rack) {
			loc = RackLocal
		}
	}
	return loc
}

// Requestable reports whether t is pending and its job has asked for it (a
// stage at its MaxRunning asks for no more).
func (s *Sim) Requestable(t *Task) bool {
	if t.State != TaskPending || t.Job.State != JobAdmitted {
		return false
	}
	if t.Kind == KindAM {
		return true
	}
	if t.Stage.rampup || t.Stage.capped {
		if t.Stage.asked <= 0 {
			return false // the scheduler holds no ask for another container (reduces.go, capped.go)
		}
	} else if m := t.Stage.Spec.MaxRunning; m > 0 && t.Stage.Held() >= m {
		return false
	}
	return t.Stage.Released && (t.Job.AM == nil || s.now >= t.Job.amReadyMs)
}

// removeContainer takes t off its node and frees its allocation: at once,
// or with later (a process that ended: release.go) at the node's next
// heartbeat.
// How a container leaving its node is freed.
type releaseHow uint8

const (
	releaseNow       releaseHow = iota // at once (a killed container)
	releaseAtBeat                      // at its node's next heartbeat (a finished one)
	releasePreempted                   // Preempt: its job at once, its node later
	releaseKept                        // not at all: its executor keeps it (executors.go)
)

func (s *Sim) removeContainer(t *Task, how releaseHow) {
	s.epoch++ // Epoch: containers, task states or the job lists change
	n := t.Node
	copy(n.Containers[t.pos:], n.Containers[t.pos+1:])
	n.Containers[len(n.Containers)-1] = nil
	n.Containers = n.Containers[:len(n.Containers)-1]
	copy(n.slots[t.pos:], n.slots[t.pos+1:])
	n.slots = n.slots[:len(n.slots)-1]
	for i := t.pos; i < len(n.Containers); i++ {
		n.Containers[i].pos = i
	}
	j := t.Job
	st := t.Stage
	later := how == releaseAtBeat
	if later && st != nil && st.counted() {
		st.unreported++ // the AM counts it assigned until told (reduces.go)
	}
	switch {
	case how == releaseKept:
		// Still allocated: the caller hands it to the stage's next
		// partition or keeps it as an idle executor.
	case how == releasePreempted:
		// Freed in its job (and so its queue) now; on its node when the
		// node manager reports it, at the heartbeat after next (Preempt).
		j.Alloc = j.Alloc.Sub(t.Alloc)
		s.hold(n, t.Alloc, t.Container)
	case later && !s.model.ImmediateRelease:
		s.releaseLater(n, j, t.Alloc, t.Container, t.Kind == KindAM, st)
	default:
		s.free(n, j, t.Alloc, t.Container)
		if later && st != nil && st.unreported > 0 {
			st.freedSince++
		}
	}
	j.Running--
	if t.Stage != nil {
		t.Stage.Running--
		if t.Container == Guaranteed {
			t.Stage.heldG--
		}
	}
	s.acct.mem(s.now)
	s.acct.memUsed -= t.Use.MemMB
	n.Demand = n.Demand.sub(t.Use)
	t.Use = Usage{}
	t.pos = -1
	t.Node = nil
	s.markDirty(n)
	s.touch(j)
}

// complete ends t successfully.
func (s *Sim) complete(t *Task) {
	s.epoch++ // Epoch: containers, task states or the job lists change
	s.record(t, Finished)
	var exec idleExecutor
	execs := t.Stage.Spec.PartitionExecutors
	if execs {
		exec = s.keepExecutor(t) // the container stays: executors.go
	} else {
		s.removeContainer(t, releaseAtBeat)
	}
	t.State = TaskDone
	t.FinishMs = s.now
	j := t.Job
	st := t.Stage
	st.Done++
	j.tasksLeft--
	s.stats.TasksDone++
	s.progress()
	s.lastDone = s.now
	for _, l := range s.listeners {
		l.TaskEnded(s.handle, t, Finished)
	}
	if execs {
		s.executorFree(st, exec)
	}
	if j.tasksLeft == 0 && j.hasExecutors {
		s.releaseExecutors(j) // the SparkContext stops (executors.go)
	}
	if j.tasksLeft == 0 {
		if j.Spec.CommitMs > 0 && j.AM != nil && j.AM.State == TaskRunning {
			s.schedule(s.now+j.Spec.CommitMs, evCommit, j.ID)
			return
		}
		s.finishJob(j)
		return
	}
	// Later stages may now pass slow-start; gated reducers may fetch more.
	s.releaseReady(j)
	if st.Index+1 < len(j.Stages) {
		s.mapEnded(j.Stages[st.Index+1])
	}
}

// mapEnded tells the next stage's reducers that a task of the stage before
// has finished: each learns of it at its next poll (Model.ShuffleEventPollMs,
// on its own one-second grid from its start), or at once if polls are off.
func (s *Sim) mapEnded(next *Stage) {
	poll := s.model.ShuffleEventPollMs
	if poll < 0 {
		if next.gated > 0 {
			for _, r := range next.Tasks {
				if r.gated && r.Node != nil {
					s.markDirty(r.Node)
				}
			}
		}
		return
	}
	for _, r := range next.awaiting {
		n := r.Node
		if n == nil || r.pollAt >= 0 || (r.State != TaskRunning && r.State != TaskSuspended) {
			continue
		}
		r.pollAt = r.runMs + ((s.now-r.runMs)/poll+1)*poll
		if n.pollAt < 0 || r.pollAt < n.pollAt {
			n.pollAt = r.pollAt
			s.markDirty(n)
		}
	}
	next.awaiting = next.awaiting[:0]
}

// learnMaps is t's poll: it now knows of every finished task of the stage
// before its own. While that stage has tasks left to finish, t waits in its
// stage's awaiting list for the next one's end to schedule its next poll.
func (s *Sim) learnMaps(t *Task) {
	prev := t.Job.Stages[t.Stage.Index-1]
	t.known, t.pollAt = int32(prev.Done), -1
	if s.model.ShuffleEventPollMs >= 0 && prev.Done < len(prev.Tasks) {
		t.Stage.awaiting = append(t.Stage.awaiting, t)
	}
}

// applyPolls brings the reducers on n whose poll is due up to date with
// their job's finished maps, and sets n.pollAt to the next one due.
func (s *Sim) applyPolls(n *Node) {
	n.pollAt = -1
	for _, t := range n.Containers {
		switch {
		case t.pollAt < 0:
		case t.pollAt <= s.now:
			s.learnMaps(t)
		case n.pollAt < 0 || t.pollAt < n.pollAt:
			n.pollAt = t.pollAt
		}
	}
}

func (s *Sim) finishJob(j *Job) {
	s.epoch++ // Epoch: containers, task states or the job lists change
	if j.AM != nil && j.AM.State == TaskRunning {
		s.record(j.AM, Finished)
		s.removeContainer(j.AM, releaseAtBeat)
		j.AM.State = TaskDone
		j.AM.FinishMs = s.now
	} else if j.AM != nil && j.AM.State == TaskPending {
		panic(fmt.Sprintf("job %d finished without its AM", j.ID))
	}
	if len(j.excess) > 0 {
		s.freeExcess(j, true) // the application is removed: its containers go
	}
	j.State = JobDone
	j.FinishMs = s.now
	s.jobsLeft--
	s.touch(j)
	// Drop any node reservation held for the job. (Unreserve moves the
	// last reserved node into the slot it frees: going backwards, that node
	// has been looked at already.)
	for i := len(s.reserved) - 1; i >= 0; i-- {
		if n := s.reserved[i]; n.Reserved.Job == j {
			s.Unreserve(n)
		}
	}
	last := len(s.active) - 1
	i := j.active
	copy(s.active[i:], s.active[i+1:])
	s.active[last] = nil
	s.active = s.active[:last]
	for k := i; k < len(s.active); k++ {
		s.active[k].active = k
	}
	j.active = -1
	s.progress()
	s.lastDone = s.now
	for _, l := range s.jobLis {
		l.JobFinished(s.handle, j)
	}
	s.tryAdmit()
	if !slices.Contains(s.finishing, j) {
		s.retire(j) // no AM container to report: the application is gone
	}
}

// releaseReady requests every stage whose predecessor has passed slow-start.
func (s *Sim) releaseReady(j *Job) {
	for i, st := range j.Stages {
		if st.Released {
			continue
		}
		if i > 0 {
			prev := j.Stages[i-1]
			if !prev.Released || float64(prev.Done) < st.Spec.SlowStart*float64(len(prev.Tasks)) {
				return
			}
		}
		st.Released = true
		s.enqueueReleased(st)
		if st.asks != nil {
			st.asks.sendAsks(st) // the AM's first ask, at its registration
		}
		if st.capped {
			st.amDirty = true // sent at the AM's next heartbeat (capped.go)
			s.scheduleAMBeat(j)
		}
		s.touch(j)
	}
}

// Kill ends t's attempt: its work is lost (counted as wasted) and it goes
// back to the head of its stage's queue. AMs cannot be killed.
func (s *Sim) Kill(t *Task) error { return s.kill(t, releaseNow) }

// Preempt ends t's attempt as the CapacityScheduler's preemption monitor
// kills a container (CapacityScheduler.markContainerForKillable): its work
// is lost and it goes back to its stage's queue as after Kill, and its job
// (and queue) no longer hold the container; its node frees it only when
// the node manager reports it complete, at the node's heartbeat after next
// (SchedulerNode.releaseContainer waits for the node, whose manager stops
// the process at its next heartbeat). Guaranteed containers of tasks only.
func (s *Sim) Preempt(t *Task) error {
	if t.Container != Guaranteed {
		return fmt.Errorf("preempt %s: not in a guaranteed container", t)
	}
	return s.kill(t, releasePreempted)
}

func (s *Sim) kill(t *Task, how releaseHow) error {
	s.epoch++ // Epoch: containers, task states or the job lists change
	if t.State != TaskRunning && t.State != TaskSuspended {
		return fmt.Errorf("kill %s: task is not in a container", t)
	}
	if t.Kind == KindAM {
		return fmt.Errorf("kill %s: ApplicationMasters are not killed", t)
	}
	n := t.Node
	s.advance(n)
	s.record(t, Killed)
	t.bound = false
	wasted := s.now - t.StartMs // from its container's allocation
	s.stats.Killed++
	s.stats.WastedMs += wasted
	s.removeContainer(t, how)
	t.State = TaskPending
	t.Attempt++
	t.StartMs = -1
	t.setGated(false)
	t.shrunk = 0
	t.swapped, t.swapIn, t.stall = 0, 0, 0
	t.Locality = NodeLocal
	s.enqueue(t, true, true)
	if len(t.Stage.idle) > 0 {
		s.idleTakes(t.Stage) // an idle executor runs it at once (executors.go)
	}
	if t.Stage.capped {
		// Scheduled again, and its container reported complete (capped.go).
		t.Stage.amDirty = true
		s.cappedReported(t.Job, 1)
	}
	if t.Stage.counted() {
		s.scheduleAMBeat(t.Job) // the AM asks for it again as its ramp-up allows
	}
	s.touch(t.Job)
	for _, l := range s.listeners {
		l.TaskEnded(s.handle, t, Killed)
	}
	return nil
}

// Suspend pauses a running reducer: its vCores are freed for others, its
// memory is kept (iKayak Sec. 3.3).
func (s *Sim) Suspend(t *Task) error {
	if t.State != TaskRunning || t.Kind != KindReduce {
		return fmt.Errorf("suspend %s: only running reducers can be suspended", t)
	}
	if t.bound {
		// The container is granted but its AM has not yet given it the
		// reducer (it does so at its next heartbeat): there is no reducer
		// process to suspend. Suspending it here left the AM's count of
		// scheduled reducers one too high (assignReducers takes only
		// running reducers from the batch), so a job could wait forever
		// for a reducer it never asked for again.
		return fmt.Errorf("suspend %s: its container has no reducer yet (the AM assigns it at its next heartbeat)", t)
	}
	s.epoch++ // Epoch: containers, task states or the job lists change
	n := t.Node
	s.advance(n)
	s.shrinkAlloc(t, Res{VCores: t.Alloc.VCores})
	t.State = TaskSuspended
	s.applyUsage(t, n)
	s.stats.Suspended++
	s.markDirty(n)
	return nil
}

// SwapOut releases a suspended reducer's memory: the operating system has
// paged the suspended JVM's data out, so the process holds no resident
// memory and its container no memory on the node until Resume takes it back.
// swapIn is the time the resumed process then needs to page its data back
// in, during which it holds its container but makes no progress.
//
// Reference: iKayak Sec. 3.2: memory "cannot be released immediately", but
// "the related data of the suspended reduce JVM can be swapped out by the
// operating system with overhead"; Sec. 5.7 measures 2.7 s to suspend and
// resume a reduce task. Opt-in: Suspend alone keeps the memory.
func (s *Sim) SwapOut(t *Task, swapIn Ms) error {
	if t.State != TaskSuspended || t.swapped > 0 || t.Alloc.MemMB <= 0 {
		return fmt.Errorf("swap out %s: only suspended containers holding memory can be swapped out", t)
	}
	if swapIn < 0 {
		return fmt.Errorf("swap out %s: negative swap-in time %d ms", t, swapIn)
	}
	n := t.Node
	s.advance(n)
	t.swapped = t.Alloc.MemMB
	t.swapIn = swapIn
	s.shrinkAlloc(t, Res{MemMB: t.swapped})
	s.applyUsage(t, n)
	s.markDirty(n)
	return nil
}

// Resume restarts a suspended reducer if its vCores (and, when it was
// swapped out, its memory) fit again.
func (s *Sim) Resume(t *Task) error {
	s.epoch++ // Epoch: containers, task states or the job lists change
	if t.State != TaskSuspended {
		return fmt.Errorf("resume %s: task is not suspended", t)
	}
	n := t.Node
	want := Res{VCores: s.booked(t.Req, n).VCores, MemMB: t.swapped}
	if t.shrunk > 0 {
		want.VCores = t.shrunk
	}
	if t.Container == Guaranteed && !s.CalcOn(n).Fits(want, n.Free()) {
		return fmt.Errorf("resume %s: %v does not fit on node %d", t, want, n.ID)
	}
	s.advance(n)
	s.growAlloc(t, want)
	if t.swapped > 0 {
		t.stall = s.now + t.swapIn
		t.swapped, t.swapIn = 0, 0
	}
	t.State = TaskRunning
	s.applyUsage(t, n)
	s.markDirty(n)
	return nil
}

// Shrink lowers a running container's vCores to vcores (iKayak Alg. 3): the
// freed vCores return to the node, and the task's CPU is capped there.
func (s *Sim) Shrink(t *Task, vcores int64) error {
	if t.State != TaskRunning || t.Kind == KindAM {
		return fmt.Errorf("shrink %s: only running tasks can shrink", t)
	}
	if vcores < 1 || vcores > t.Alloc.VCores {
		return fmt.Errorf("shrink %s: %d vCores outside [1, %d]", t, vcores, t.Alloc.VCores)
	}
	n := t.Node
	s.advance(n)
	s.shrinkAlloc(t, Res{VCores: t.Alloc.VCores - vcores})
	t.shrunk = vcores
	s.applyUsage(t, n)
	s.markDirty(n)
	return nil
}

func (s *Sim) shrinkAlloc(t *Task, by Res) {
	s.epoch++ // Epoch: containers, task states or the job lists change
	n, j := t.Node, t.Job
	t.Alloc = t.Alloc.Sub(by)
	s.acct.resv(s.now)
	if t.Container == Guaranteed {
		n.Alloc = n.Alloc.Sub(by)
		s.acct.allocG = s.acct.allocG.Sub(by)
	} else {
		n.OppAlloc = n.OppAlloc.Sub(by)
		j.OppAlloc = j.OppAlloc.Sub(by)
		s.acct.allocO = s.acct.allocO.Sub(by)
	}
	j.Alloc = j.Alloc.Sub(by)
}

func (s *Sim) growAlloc(t *Task, by Res) {
	s.shrinkAlloc(t, Res{}.Sub(by))
}

func (t *Task) String() string {
	if t.Kind == KindAM {
		return fmt.Sprintf("job %d am", t.Job.ID)
	}
	return fmt.Sprintf("job %d %s %d.%d", t.Job.ID, t.Kind, t.Stage.Index, t.Index)
}

func (st TaskState) String() string {
	return [...]string{"pending", "running", "suspended", "done"}[st]
}
