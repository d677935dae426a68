package sim

import (
	"cmp"
	"slices"
)

// A MapReduce AM's map requests, as the ResourceManager holds them, and the
// AM's assignment of maps to the containers it receives.
//
// The AM asks for its maps by location: each map adds one request on each
// host holding a replica of its block, one on each of those hosts' racks
// and one for any node (RMContainerRequestor.addContainerReq). The
// scheduler holds counts per location (AppSchedulingInfo) and gives a node
// a node-local container while that node's count is positive, decrementing
// that host's, its rack's and the any count (a rack-local container: the
// rack's and any). A map counted on three hosts can thus bring three
// node-local containers before the AM, at its next heartbeat, sends the
// counts it now holds for the entries that changed. The AM takes the
// containers it received in one response and assigns its maps to them in
// three passes: a map with a replica on the container's host, then one on
// its rack, then any, first asked first (RMContainerAllocator.
// ScheduledRequests.assign). So which map runs where, and whether it reads
// its block locally, is decided at the AM's heartbeat, not when the node
// offers the container.
//
// yarngym keeps the scheduler's counts per map stage (mapAsks) and binds a
// pending map to each container when the node offers it (the engine's
// containers hold tasks); the container's process starts at the AM's next
// heartbeat anyway (Model.AMHeartbeatMs), and there the AM's assignment
// rebinds the containers given since the last heartbeat to the maps it
// chooses. A stage has these asks when it is a map stage of a job with an
// AM on YARN containers with the AM heartbeat modelled.

// mapAsks is a map stage's requests by location.
type mapAsks struct {
	// The scheduler's outstanding counts: what the AM last sent for each
	// entry, less the containers given against it since.
	rmHost map[int32]int32
	rmRack map[int32]int32
	// The AM's own counts: its maps not yet assigned to a container,
	// pending or bound to a container of this heartbeat's batch.
	amHost map[int32]int32
	amRack map[int32]int32
	// The scheduler's any count, and whether the AM's changed since it
	// last sent it (its maps not yet assigned: pending or in the batch).
	rmAny    int32
	anyDirty bool
	// Entries whose AM count changed since the AM last sent them.
	dirtyHost []int32
	dirtyRack []int32

	// batch holds the containers given since the AM's last heartbeat, in
	// the order given: each bound to a map, or excess (beyond the maps).
	batch []batchEntry
}

// asksStage reports whether stage st of job j asks for its maps by
// location (see above).
func (s *Sim) asksStage(j *Job, st *Stage) bool {
	return st.Spec.Kind == KindMap && !j.Spec.AM.IsZero() && !s.typedCluster && s.model.AMHeartbeatMs > 0
}

// racksOf calls f once for each distinct rack of t's replicas.
func (s *Sim) racksOf(t *Task, f func(rack int32)) {
	for i, r := range t.Replicas {
		rack := s.rackOf[r]
		seen := false
		for _, q := range t.Replicas[:i] {
			if s.rackOf[q] == rack {
				seen = true
				break
			}
		}
		if !seen {
			f(rack)
		}
	}
}

// amAsk adds (d = +1) or removes (d = -1) map t's requests from the AM's
// counts and marks the entries to send.
func (s *Sim) amAsk(a *mapAsks, t *Task, d int32) {
	for _, r := range t.Replicas {
		a.amHost[r] += d
		a.dirtyHost = append(a.dirtyHost, r)
	}
	s.racksOf(t, func(rack int32) {
		a.amRack[rack] += d
		a.dirtyRack = append(a.dirtyRack, rack)
	})
	a.anyDirty = true
}

// sendAsks is the AM's allocate(): the scheduler's count of every entry the
// AM changed becomes the AM's.
func (a *mapAsks) sendAsks(st *Stage) {
	anySent := a.anyDirty
	if a.anyDirty {
		a.rmAny = int32(st.Pending + a.boundCount())
		a.anyDirty = false
	}
	for _, h := range a.dirtyHost {
		a.rmHost[h] = a.amHost[h]
	}
	for _, r := range a.dirtyRack {
		a.rmRack[r] = a.amRack[r]
	}
	a.dirtyHost, a.dirtyRack = a.dirtyHost[:0], a.dirtyRack[:0]
	if anySent && a.rmAny == 0 {
		a.forget()
	}
}

// forget is the scheduler dropping a request the AM has set to 0 for any
// node (AppSchedulingInfo.updatePendingResources removes its placement
// allocator, the entries just sent with it included): only those the AM
// sends afterwards come back. A count the scheduler's own allocation brings
// to 0 removes the any-node entry alone (LocalityAppPlacementAllocator.
// decrementOutstanding).
func (a *mapAsks) forget() {
	clear(a.rmHost)
	clear(a.rmRack)
}

// LocationAsks is how many locations map stage st's request names in the
// scheduler's table (AppPlacementAllocator.getUniqueLocationAsks: its
// hosts and racks, those the AM set to 0 included, and any node), and whether the
// stage asks by location at all (ok false: a stage without an AM's asks).
func (s *Sim) LocationAsks(st *Stage) (n int, ok bool) {
	if st.asks == nil {
		return 0, false
	}
	n = len(st.asks.rmHost) + len(st.asks.rmRack)
	if st.asks.rmAny > 0 {
		n++ // the any-node entry is there while its count is positive
	}
	return n, true
}

// ContainerLevel is the locality at which a container for t on node n is
// given, as Hadoop's schedulers type it (NodeType): by the scheduler's
// counts for a map stage that asks by location, by the map's replicas for
// another map, and off-switch for a request for any node (an AM, reducer,
// executor). A CapacityScheduler heartbeat stops after its first
// off-switch container.
func (s *Sim) ContainerLevel(t *Task, n *Node) Locality {
	switch {
	case t.Stage != nil && t.Stage.asks != nil:
		return s.askLevel(t.Stage, n)
	case t.Kind == KindMap && len(t.Replicas) > 0:
		return s.LocalityOf(t, n)
	}
	return OffRack
}

// GivenLevel is ContainerLevel as it was when t's container was given.
func (s *Sim) GivenLevel(t *Task) Locality {
	if t.Stage != nil && t.Stage.asks != nil {
		return t.given
	}
	return s.ContainerLevel(t, t.Node)
}

// askLevel is the locality a container for map stage st on node n is given
// at, by the scheduler's counts: node-local while n's count is positive,
// else rack-local while its rack's is, else off-switch.
func (s *Sim) askLevel(st *Stage, n *Node) Locality {
	a := st.asks
	switch {
	case a.rmHost[n.ID] > 0 && a.rmRack[s.rackOf[n.ID]] > 0:
		return NodeLocal
	case a.rmRack[s.rackOf[n.ID]] > 0:
		return RackLocal
	}
	return OffRack
}

// given books a container given to map t on node n at level: the
// scheduler's counts go down, and t joins its AM's batch.
func (s *Sim) given(t *Task, n *Node, level Locality) {
	a := t.Stage.asks
	rack := s.rackOf[n.ID]
	// LocalityAppPlacementAllocator.decResourceRequest: an entry the
	// scheduler's own allocation brings to 0 leaves the table (it no longer
	// counts in getUniqueLocationAsks); one the AM sets to 0 stays.
	if level == NodeLocal && a.rmHost[n.ID] > 0 {
		if a.rmHost[n.ID]--; a.rmHost[n.ID] == 0 {
			delete(a.rmHost, n.ID)
		}
	}
	if level <= RackLocal && a.rmRack[rack] > 0 {
		if a.rmRack[rack]--; a.rmRack[rack] == 0 {
			delete(a.rmRack, rack)
		}
	}
	if a.rmAny > 0 {
		a.rmAny--
	}
	t.given = level
	e := batchEntry{n: n, alloc: t.Alloc, at: s.now, given: level, seq: t.LaunchSeq}
	if !t.Excess() {
		t.bound = true
		e.t = t
	}
	a.batch = append(a.batch, e)
	s.scheduleAMBeat(t.Job)
}

// batchEntry is a container given since the AM's last heartbeat.
type batchEntry struct {
	t     *Task // the map bound to it; nil: an excess container
	n     *Node
	alloc Res
	at    Ms
	given Locality
	seq   int64 // the container's allocation order (Task.LaunchSeq)
}

// boundCount is how many of the batch's containers hold a map.
func (a *mapAsks) boundCount() int {
	k := 0
	for _, e := range a.batch {
		if e.t != nil {
			k++
		}
	}
	return k
}

// Excess reports whether t stands for a container beyond a stage's maps
// (asks.go): allocators launch it like any task, and parts told of
// launches keep nothing per task for it.
func (t *Task) Excess() bool { return t.ID < 0 }

// excessTask is a stand-in of stage st for a container beyond its tasks,
// one that holds no node reserved (a stage may hold several reservations,
// one per node, for its request).
func (s *Sim) excessTask(st *Stage) *Task {
	for _, x := range st.excess {
		if x.reservedOn == nil {
			return x
		}
	}
	x := &Task{ID: -1, Job: st.Tasks[0].Job, Stage: st, Kind: st.Spec.Kind, Req: st.Spec.Req,
		State: TaskPending, StartMs: -1, FirstStartMs: -1, FinishMs: -1, pos: -1, pollAt: -1}
	st.excess = append(st.excess, x)
	return x
}

// excessContainer is a container given beyond a stage's maps: the job, its
// node and the cluster hold it until the AM, which could not use it at the
// heartbeat that brought it, releases it at the next (RMContainerRequestor.
// release; a container that never started is freed at once).
type excessContainer struct {
	n      *Node
	alloc  Res
	freeAt Ms
	kind   ContainerKind
}

// giveExcess books a container on n for excess task t (the launch of a
// stand-in), typed as launch says.
func (s *Sim) giveExcess(t *Task, n *Node, alloc Res, typed Locality) {
	s.epoch++ // Epoch: containers, task states or the job lists change
	j := t.Job
	s.acct.resv(s.now)
	n.Alloc = n.Alloc.Add(alloc)
	s.acct.allocG = s.acct.allocG.Add(alloc)
	j.Alloc = j.Alloc.Add(alloc)
	t.Alloc = alloc
	s.containerSeq++
	t.LaunchSeq = s.containerSeq // the stand-in's: its batch entry carries it
	if st := t.Stage; st.asks != nil {
		s.given(t, n, max(s.askLevel(st, n), typed))
	} else {
		st.asked--
		st.givenSince++
		t.given = OffRack
	}
	hb := s.amBeatMs()
	pickup := j.amReadyMs + ((s.now-j.amReadyMs)/hb+1)*hb
	j.excess = append(j.excess, excessContainer{n, alloc, pickup + hb, Guaranteed})
	s.scheduleAMBeat(j)
	s.markDirty(n)
	s.touch(j)
}

// Excess returns the job's containers beyond its maps (asks.go).
func (j *Job) Excess() []excessContainer { return j.excess }

// freeExcess frees job j's excess containers due by now (all with all).
func (s *Sim) freeExcess(j *Job, all bool) {
	kept := j.excess[:0]
	for _, e := range j.excess {
		if all || e.freeAt <= s.now {
			s.free(e.n, j, e.alloc, e.kind)
			s.markDirty(e.n)
			if j.capped {
				j.reported++ // released: its completion is in this response (capped.go)
			}
		} else {
			kept = append(kept, e)
		}
	}
	clear(j.excess[len(kept):])
	j.excess = kept
	s.touch(j)
}

// assignBatch is the AM's assignment at its heartbeat of the maps to the
// containers of stage st's batch (RMContainerAllocator.ScheduledRequests.
// assign): three passes over the containers in the order given, a map with
// a replica on the container's host, then on its rack, then any map, the
// earliest asked (lowest task index) first, from the maps bound to the
// batch and those still pending. A container whose map changes is rebound
// (its process has not started: nothing is lost), a map the AM did not
// choose goes back to pending, an excess container that gets a map starts
// it, and a container left without one is released at the AM's next
// heartbeat (as an excess one). The chosen maps leave the AM's asks.
func (s *Sim) assignBatch(st *Stage) {
	s.epoch++ // Epoch: containers, task states or the job lists change
	a := st.asks
	j := st.Tasks[0].Job
	var es []batchEntry
	for _, e := range a.batch {
		// A bound container still holding its map, not started: its
		// process starts now (a container's start waits for this
		// heartbeat, launch). An excess one still unreleased.
		switch {
		case e.t == nil:
			if s.hasExcess(j, e.n, e.alloc) {
				es = append(es, e)
			}
		case e.t.State == TaskRunning && e.t.bound && (e.t.stall == s.now || e.t.stall == 0):
			es = append(es, e)
		default:
			e.t.bound = false
		}
	}
	a.batch = a.batch[:0]
	if len(es) == 0 {
		return
	}
	chosen := make([]*Task, len(es))
	// Tasks chosen so far carry taken (cleared before returning): a mark on
	// the task, not a set, since earliest may pass many chosen maps for
	// each container of a large batch.
	// The AM's lists hold its maps in the order asked, the ones bound to
	// this batch's containers still in their places (firstPending).
	// earliest returns the first map of l not yet chosen that the AM may
	// assign, and its index (len(l) if none).
	earliest := func(l []*Task) (*Task, int) {
		for k, t := range l {
			if (t.State == TaskPending || t.bound) && !t.taken {
				return t, k
			}
		}
		return nil, len(l)
	}
	// The last pass takes from the whole queue, and what it passes over
	// stays passed over (no map's state changes in the pass; the one it
	// takes is taken): each container resumes the scan where the one before
	// stopped, not at the queue's head, which on a stage of thousands of
	// maps cost scale-50k 5 % of its CPU.
	next := st.head
	for pass := 0; pass < 3; pass++ {
		for i, e := range es {
			if chosen[i] != nil {
				continue
			}
			var t *Task
			switch pass {
			case 0:
				t, _ = earliest(st.byNode[e.n.ID])
			case 1:
				t, _ = earliest(st.byRack[int(s.rackOf[e.n.ID])])
			default:
				var k int
				t, k = earliest(st.queue[next:])
				next += k
			}
			if t != nil {
				chosen[i] = t
				t.taken = true
			}
		}
	}
	for _, e := range es {
		if e.t != nil {
			e.t.bound = false
		}
	}
	// Rebind: take every changed container's place from its old map, give
	// it to the chosen one (or open one for it where the container was an
	// excess one), close the containers left without a map, and return the
	// maps no container took to pending.
	places := make([]place, len(es))
	for i, e := range es {
		if c := e.t; c != nil {
			places[i] = place{c.Node, c.pos, c.Container, c.Alloc, c.StartMs, c.stall, c.given}
		}
	}
	for i, e := range es {
		if e.t != nil && chosen[i] != e.t {
			s.dropUsage(e.t, places[i].n)
		}
	}
	var from, to []*Task
	var closed []int
	for i, e := range es {
		t := chosen[i]
		switch {
		case t == e.t:
		case e.t == nil && t != nil:
			s.takeExcess(j, e.n, e.alloc)
			s.open(t, e)
		case t == nil:
			closed = append(closed, i)
		default:
			s.bind(t, places[i])
		}
		if t != e.t {
			from, to = append(from, e.t), append(to, t)
		}
	}
	// Close the emptied containers, highest position first on each node
	// (a removal shifts the positions after it).
	slices.SortFunc(closed, func(x, y int) int { return cmp.Compare(places[y].pos, places[x].pos) })
	for _, i := range closed {
		s.closeToExcess(j, st, places[i])
	}
	for _, e := range es {
		if c := e.t; c != nil && !c.taken {
			c.State, c.Node, c.pos, c.Alloc = TaskPending, nil, -1, Res{}
			c.StartMs, c.stall = -1, 0
			if c.Attempt == 0 {
				c.FirstStartMs = -1
			}
			st.Pending++ // still in its queues, in its place (firstPending)
		}
	}
	for _, t := range chosen {
		if t != nil {
			t.taken = false
			s.amAsk(a, t, -1) // sent at the AM's next heartbeat
		}
	}
	if len(from) > 0 {
		for _, l := range s.rebinders {
			l.TasksRebound(s.handle, from, to)
		}
	}
	s.scheduleAMBeat(j)
}

// hasExcess reports whether job j still holds an excess container of alloc
// on n.
func (s *Sim) hasExcess(j *Job, n *Node, alloc Res) bool {
	for _, e := range j.excess {
		if e.n == n && e.alloc == alloc && e.kind == Guaranteed {
			return true
		}
	}
	return false
}

// takeExcess takes one of job j's excess containers of alloc on n off its
// list: a map is to run in it.
func (s *Sim) takeExcess(j *Job, n *Node, alloc Res) {
	for i, e := range j.excess {
		if e.n == n && e.alloc == alloc && e.kind == Guaranteed {
			j.excess = append(j.excess[:i], j.excess[i+1:]...)
			return
		}
	}
}

// open starts map t in the excess container of batch entry e (its
// allocation already booked): t was pending or bound to another container
// of the batch (then rebound or closed in turn).
func (s *Sim) open(t *Task, e batchEntry) {
	s.epoch++ // Epoch: containers, task states or the job lists change
	n, st, j := e.n, t.Stage, t.Job
	if t.State == TaskPending {
		st.Pending--
		if t.reservedOn != nil {
			s.moveReservation(t)
		}
	}
	st.Running++
	st.heldG++
	j.Running++
	t.State, t.Node, t.pos = TaskRunning, n, len(n.Containers)
	t.Container, t.Alloc, t.StartMs, t.stall, t.given = Guaranteed, e.alloc, e.at, s.now, e.given
	t.LaunchSeq = e.seq
	if t.FirstStartMs < 0 {
		t.FirstStartMs = e.at
	}
	t.phase, t.shrunk, t.swapped, t.swapIn = 0, 0, 0, 0
	t.runMs = s.now
	t.setGated(false)
	t.Locality = s.LocalityOf(t, n)
	n.Containers = append(n.Containers, t)
	left := 0.0
	if len(t.phases) > 0 {
		left = t.work(0)
	}
	n.slots = append(n.slots, slot{left: left, prev: -1, flags: slotDirty})
	s.stats.Launched++
	s.setUsage(t, n)
	s.markDirty(n)
	s.wake(n)
	s.touch(j)
}

// closeToExcess ends the container at p, left without a map: its node and
// job keep its allocation until the AM releases it at its next heartbeat,
// as an excess container's. The task it held has moved or gone back to
// pending.
func (s *Sim) closeToExcess(j *Job, st *Stage, p place) {
	s.epoch++ // Epoch: containers, task states or the job lists change
	n := p.n
	copy(n.Containers[p.pos:], n.Containers[p.pos+1:])
	n.Containers[len(n.Containers)-1] = nil
	n.Containers = n.Containers[:len(n.Containers)-1]
	copy(n.slots[p.pos:], n.slots[p.pos+1:])
	n.slots = n.slots[:len(n.slots)-1]
	for i := p.pos; i < len(n.Containers); i++ {
		n.Containers[i].pos = i
	}
	j.Running--
	st.Running--
	if p.kind == Guaranteed {
		st.heldG--
	}
	j.excess = append(j.excess, excessContainer{n, p.alloc, s.now + s.amBeatMs(), p.kind})
	s.markDirty(n)
	s.touch(j)
}

// place is a container: where it is and what it holds.
type place struct {
	n     *Node
	pos   int
	kind  ContainerKind
	alloc Res
	start Ms
	stall Ms
	given Locality
}

// dropUsage takes t's usage off node n.
func (s *Sim) dropUsage(t *Task, n *Node) {
	s.acct.mem(s.now)
	s.acct.memUsed -= t.Use.MemMB
	n.Demand = n.Demand.sub(t.Use)
	t.Use = Usage{}
	if t.Node == n && t.pos >= 0 {
		n.slots[t.pos].cpu = 0
	}
}

// bind gives the container at p (not yet started) to map t, which is
// pending or held another container of the same batch. The container keeps
// its node, size, kind and start; t reads its block from there.
func (s *Sim) bind(t *Task, p place) {
	if t.State == TaskPending {
		t.Stage.Pending--
		if t.reservedOn != nil {
			s.moveReservation(t)
		}
	}
	n := p.n
	t.State, t.Node, t.pos = TaskRunning, n, p.pos
	t.Container, t.Alloc, t.StartMs, t.stall, t.given = p.kind, p.alloc, p.start, p.stall, p.given
	if t.FirstStartMs < 0 {
		t.FirstStartMs = p.start
	}
	t.phase, t.shrunk, t.swapped, t.swapIn = 0, 0, 0, 0
	t.setGated(false)
	t.Locality = s.LocalityOf(t, n)
	n.Containers[p.pos] = t
	left := 0.0
	if len(t.phases) > 0 {
		left = t.work(0)
	}
	n.slots[p.pos] = slot{left: left, prev: -1, flags: slotDirty}
	s.setUsage(t, n)
	s.markDirty(n)
}

// moveReservation hands the node reserved for pending map t, which the AM
// has just assigned a container elsewhere, to another of its stage's
// requests: the scheduler reserved the node for the stage's request, not
// for one map (FSAppAttempt.reserve, RegularContainerAllocator: a reserved
// container stands for the priority's ask), so the reservation stands while
// the stage asks for more (a pending map, else a container beyond them).
func (s *Sim) moveReservation(t *Task) {
	n, st := t.reservedOn, t.Stage
	t.reservedOn = nil
	sub := s.unreservedRequest(st, t)
	if sub == nil {
		// No other request: the reservation goes stale, dropped at the
		// node's next heartbeat (dropReservations).
		n.staleResv = true
		return
	}
	n.Reserved = sub
	sub.reservedOn = n
}

// unreservedRequest is a request of stage st, other than t, holding no
// reservation: a pending task, else (while the scheduler counts more than
// its tasks) a container beyond them; nil if none.
func (s *Sim) unreservedRequest(st *Stage, t *Task) *Task {
	for _, o := range st.queue[st.head:] {
		if o != t && o.State == TaskPending && o.reservedOn == nil {
			return o
		}
	}
	if st.Asking() > 0 && st.counted() {
		return s.excessTask(st)
	}
	return nil
}

// ReserveRequest reserves node n for t's request: for t itself, or, when t
// already holds a node and its stage asks as MapReduce's AM does (counts
// per request: asks.go, reduces.go), for another of the stage's requests,
// as the scheduler reserves a node per container it still owes the
// request, not per task (FSAppAttempt.reserve; RegularContainerAllocator:
// outstanding minus reserved containers). Nothing happens when no request
// is left to reserve for.
func (s *Sim) ReserveRequest(n *Node, t *Task) {
	if n.Reserved != nil {
		return
	}
	if t.reservedOn == nil && !t.Excess() {
		_ = s.Reserve(n, t)
		return
	}
	st := t.Stage
	if st == nil || !st.counted() {
		if s.policy.KeepReservations && !t.Excess() && t.reservedOn != n {
			s.reserveAgain(n, t) // one more node for the same request
		}
		return
	}
	if sub := s.unreservedRequest(st, t); sub != nil {
		if !sub.Excess() {
			_ = s.Reserve(n, sub)
			return
		}
		n.Reserved, sub.reservedOn = sub, n
		n.resvAt = len(s.reserved)
		s.reserved = append(s.reserved, n)
		s.stats.Reservations++
		s.wake(n)
	}
}

// StillAsked reports whether t's request is still asked for: a reservation
// for it stands (FSAppAttempt.isValidReservation: the request's any count is
// positive). For a stage asking as MapReduce's AM does, the scheduler's
// count for the stage; otherwise t itself must be requestable.
func (s *Sim) StillAsked(t *Task) bool {
	if st := t.Stage; st != nil && st.counted() {
		return t.Job.State == JobAdmitted && (t.Excess() || t.State == TaskPending) && st.Asking() > 0
	}
	return s.Requestable(t)
}

// pendingFor is a pending task of stage st for a container on n: a map with
// a replica on n, then on its rack, then the first in line.
func (s *Sim) pendingFor(st *Stage, n *Node) *Task {
	if st.byNode != nil {
		if t := firstPending(st.byNode, n.ID); t != nil {
			return t
		}
		if t := firstPending(st.byRack, n.Spec.Rack); t != nil {
			return t
		}
	}
	return st.headPending()
}
