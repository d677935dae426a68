package base

import (
	"cmp"
	"slices"

	"yarngym/env/sim"
)

// Order ranks jobs for a heartbeat: Less(a, b) puts a first.
type Order interface {
	Prepare(h sim.Handle) // called once per heartbeat before sorting
	Less(h sim.Handle, a, b *sim.Job) bool
}

// KeyOrder is an Order whose ranking is a key per job: Keys fills keys[i]
// for jobs[i] (after Prepare), distinct keys, such that Less(a, b) holds
// exactly when a's key is the smaller, or returns false where it cannot
// (the ranking is then sorted by Less). The allocator ranks on every
// assignment, so a key computed once per job saves the interface calls of
// every comparison of the sort, with the same ranking. An order that
// embeds a KeyOrder and changes its Less must change Keys too (or decline
// in it): the promoted Keys would rank by the embedded order.
type KeyOrder interface {
	Order
	Keys(h sim.Handle, jobs []*sim.Job, keys []uint64) bool
}

// Limit may refuse to give task t to its job on this heartbeat (Fair's
// maxAMShare, Capacity's max-capacity).
type Limit interface {
	Allow(h sim.Handle, t *sim.Task, n *sim.Node) bool
}

// Launched is told of every container the allocator launches, so orders and
// limits that keep running totals can update them.
type Launched interface {
	Launched(h sim.Handle, t *sim.Task)
}

// Allocator is YARN's guaranteed-container allocation on a node heartbeat:
//
//  1. A node reserved for a request serves only that request: it launches
//     once the request fits, else the node stays reserved.
//  2. Otherwise jobs with pending requests are ranked by Order; the first
//     job that has a task for this node (respecting delay scheduling and the
//     Limits) gets one container, and ranking starts again, until the node is
//     full or nobody wants it.
//  3. A request that is first in line but does not fit reserves the node
//     (when Reserve is set), so that small requests cannot starve it.
//
// Delay scheduling (Zaharia et al., as in YARN's node-locality-delay): a job
// whose maps have no replica on the offered node passes the opportunity; once
// it has passed LocalityDelay opportunities it accepts rack-local nodes, and
// after twice that any node (with CapacityLocality, the CapacityScheduler's
// rules instead).
type Allocator struct {
	Order   Order
	Limits  []Limit
	Reserve bool
	// Backfill (a 0/1 parameter where declared) passes over a job whose
	// request does not fit instead of reserving the node for it.
	Backfill float64
	// LocalityDelay is a parameter (missed scheduling opportunities).
	LocalityDelay float64
	// Hooks are told of launches.
	Hooks []Launched
	// Continue, when set, says whether a heartbeat goes on assigning after
	// the assignments so far (Beat): the schedulers' per-heartbeat caps
	// (Fair's assignmultiple, Capacity's maximum-offswitch-assignments).
	// Nil: until nothing more fits.
	Continue func(b Beat) bool
	// ReservedAlone: the heartbeat that fulfils a node's reservation assigns
	// nothing else there (Hadoop's schedulers).
	ReservedAlone bool
	// Considers, when set, says whether a job wanting containers is offered
	// this heartbeat's node at all (the FairScheduler offers nodes only to
	// jobs whose demand, as of its last update, differs from what they
	// hold). Nil: every job that asks. It must depend on the run's state
	// alone, not on the time (IdleQuiet relies on it).
	Considers func(h sim.Handle, j *sim.Job) bool
	// Reservable, when set, says whether a request first in line that does
	// not fit may reserve the node; when it may not, its job is passed over
	// for this node and the next job is tried (the FairScheduler reserves
	// only for a starved job and a large enough request). Nil: always.
	Reservable func(h sim.Handle, t *sim.Task, n *sim.Node) bool
	// CapacityLocality applies the CapacityScheduler's (Hadoop 2.x) rules
	// around delay scheduling instead of the plain "2 x LocalityDelay, then
	// any node":
	//   - a node is offered to the jobs only while at least MinAllocation of
	//     it is free (CapacityScheduler.allocateContainersToNode): a fuller
	//     node's heartbeat counts no missed opportunity and resets none (the
	//     model's reservations are left as they are: a full node may still
	//     be reserved by the request first in line);
	//   - a job may take any node once it has passed more opportunities than
	//     its pending maps times the locality wait factor, min(1, (hosts +
	//     racks its pending maps ask for) / cluster nodes) (LeafQueue.canAssign
	//     for OFF_SWITCH, getLocalityWaitFactor). A job with few maps left
	//     stops waiting after a few opportunities, often before the
	//     rack-local threshold.
	CapacityLocality bool
	// FairLocality applies the FairScheduler's delay scheduling
	// (FSAppAttempt.assignContainer, getAllowedLocalityLevel) instead of
	// the plain rule: every offer of a node to a job whose maps are the
	// request it reaches (no AM or reducer asked before them) is a
	// scheduling opportunity, counted before the job tries the node; its
	// allowed level starts node-local and relaxes to rack-local once the
	// opportunities exceed LocalityDelay (locality.threshold.node x nodes),
	// then to any node once as many more do, the count restarting at each
	// relaxation; an allocation never resets the count but lowers the level
	// to the allocation's own when it is more local (delay.go keeps the
	// count and the level).
	FairLocality bool
	// CapacityReservations bounds a request's reservations as the
	// CapacityScheduler does (reservations.go): no new reservation, and no
	// new container without giving one up, once the request holds as many
	// as it asks for (plus its starvation).
	CapacityReservations bool
	// AssignHeadroom, with CapacityReservations, is the job's headroom as
	// the CapacityScheduler assigns against it (LeafQueue.getHeadroom:
	// reserved containers count as held): a request that the headroom plus
	// the job's own reservations cannot hold is skipped before its offer
	// counts (checkHeadroom); one larger than the headroom alone reserves
	// nothing, and takes a node that fits only by giving up one of its
	// reservations (reservations.go, needToUnreserve).
	AssignHeadroom func(h sim.Handle, j *sim.Job) sim.Res
	// OverUserLimit, with CapacityReservations, reports whether the job's
	// user holds more than its limit: a container for it must then take
	// the place of one of its reservations, as with a headroom too small.
	OverUserLimit func(h sim.Handle, j *sim.Job) bool

	reReserved map[resvKey]int // by request: re-reservations since its last new or dropped one
	run        sim.Handle      // the run the fields below are for (delay.go)
	maxAlloc   sim.Res         // the largest node's capacity
	delays     []delay         // by job ID: delay scheduling's state
	jobLimits  []JobLimit      // the Limits that are JobLimits, in order
	jobs       []*sim.Job
	keys       []uint64             // KeyOrder's keys for jobs
	keyed      []keyedJob           // jobs with their keys, sorted
	typed      typedTask            // TaskFor's last typed container (launchType)
	wait       map[int32]waitFactor // by job ID: the cached locality wait factor
}

// MinAllocation is the scheduler's smallest container, its request
// normalization's minimum (yarn.scheduler.minimum-allocation-mb 1024,
// -vcores 1 by default): the CapacityScheduler offers a node to its queues
// only when at least this much of it is free
// (CapacityScheduler.allocateContainersToNode).
func MinAllocation(h sim.Handle) sim.Res { return h.Normalization().Min }

// NormalizationParams declares the scheduler's request normalization as
// parameters named after Hadoop's keys (the minimum allocation, and the
// step requests round up in: the increment, or the minimum) and returns
// the Setup that fixes it for the run.
func NormalizationParams(ps *sim.Params, p *sim.Policy, ref string, increment bool) func() {
	var minMB, minVC, stepMB, stepVC float64
	ps.Add(sim.Param{Name: "minimum_allocation_mb", Doc: "smallest container (MB): requests round up to it (0: no rounding); set before the run",
		Ref: ref + "yarn.scheduler.minimum-allocation-mb (default 1024)", Min: 0, Max: 1 << 20, Default: 1024, Integer: true, Value: &minMB})
	ps.Add(sim.Param{Name: "minimum_allocation_vcores", Doc: "smallest container (vCores); set before the run",
		Ref: ref + "yarn.scheduler.minimum-allocation-vcores (default 1)", Min: 0, Max: 1024, Default: 1, Integer: true, Value: &minVC})
	if increment {
		ps.Add(sim.Param{Name: "increment_allocation_mb", Doc: "requests round up to a multiple of this (MB; 0: none); set before the run",
			Ref: ref + "yarn.resource-types.memory-mb.increment-allocation (default 1024)", Min: 0, Max: 1 << 20, Default: 1024, Integer: true, Value: &stepMB})
		ps.Add(sim.Param{Name: "increment_allocation_vcores", Doc: "requests round up to a multiple of this (vCores); set before the run",
			Ref: ref + "yarn.resource-types.vcores.increment-allocation (default 1)", Min: 0, Max: 1024, Default: 1, Integer: true, Value: &stepVC})
	}
	return func() {
		min := sim.Res{VCores: int64(minVC), MemMB: int64(minMB)}
		step := min
		if increment {
			step = sim.Res{VCores: int64(stepVC), MemMB: int64(stepMB)}
		}
		p.Normalize = sim.Normalization{Min: min, Step: step}
	}
}

// waitFactor caches a job's locality wait factor for one set of pending maps.
type waitFactor struct {
	pending, running, done int
	factor                 float64
}

// Params declares the allocator's own parameters.
func (a *Allocator) Params(ps *sim.Params, localityDefault float64) {
	ps.Add(sim.Param{Name: "locality_delay", Doc: "scheduling opportunities a job passes up waiting for a node-local map before accepting rack-local (twice that: any node)",
		Ref: "YARN node-locality-delay", Min: 0, Max: 10000, Default: localityDefault, Integer: true, Value: &a.LocalityDelay})
}

// IdleNoop implements sim.IdleNoop: with no job asking for a container, a
// heartbeat only prepares the order (Order.Prepare), so it is a no-op when
// the order's Prepare leaves nothing behind (the order says so by
// implementing sim.IdleNoop itself).
func (a *Allocator) IdleNoop() bool {
	q, ok := a.Order.(sim.IdleNoop)
	return ok && q.IdleNoop()
}

// IdleQuiet implements sim.IdleQuiet: with Considers set, a heartbeat of a
// node with no container and no reservation ranks no job while Considers
// accepts none of the jobs that ask, and so assigns nothing (the order's
// Prepare leaves nothing behind: IdleNoop). Considers reads neither the node
// nor the time (see Considers).
func (a *Allocator) IdleQuiet(h sim.Handle) bool {
	if a.Considers == nil || !a.IdleNoop() {
		return false
	}
	for _, j := range h.Asking() {
		if a.Considers(h, j) {
			return false
		}
	}
	return true
}

// Allocate implements sim.Allocator.
//
// A node reserved for a request serves that request alone: while it does
// not fit nothing else is assigned there, and with ReservedAlone nothing
// else on the heartbeat that fulfils it either (FairScheduler.
// attemptScheduling and CapacityScheduler.allocateContainerOnSingleNode
// both return after the reserved container). A reservation no longer asked
// for, or that the limits no longer allow, is dropped and the heartbeat goes
// on (FSAppAttempt.isValidReservation).
func (a *Allocator) Allocate(h sim.Handle, n *sim.Node) {
	if t := n.Reserved; t != nil && !h.StillAsked(t) {
		h.Unreserve(n) // its request is no longer asked for: the heartbeat goes on
		if a.CapacityReservations {
			// CapacityScheduler.allocateContainerOnSingleNode: a node
			// reserved at its heartbeat serves the reservation alone,
			// whatever becomes of it.
			return
		}
	}
	if t := n.Reserved; t != nil {
		if !h.FitsFree(t.Req, n) {
			if a.CapacityReservations {
				a.reReserve(t)
			}
			return
		}
		level := a.allocationType(h, t, n)
		if a.FairLocality && a.LocalityDelay > 0 && t.Kind == sim.KindMap && level > fairAllowed(t.Job, a.delayOf(h, t.Job), int(a.LocalityDelay)) {
			// FSAppAttempt.assignReservedContainer tries the reserved
			// request under delay scheduling too: not yet at this level,
			// the reservation stands and the node assigns nothing else.
			return
		}
		if a.Allowed(h, t, n) && h.LaunchTyped(t, n, sim.Guaranteed, level) == nil {
			a.allocated(h, t, level)
			a.launched(h, t)
			if a.ReservedAlone {
				return
			}
		} else {
			h.Unreserve(n)
			if a.CapacityReservations {
				return
			}
		}
	}
	b := Beat{FreeAtStart: n.Free()}
	for {
		t := a.assignOne(h, n)
		if t == nil {
			return
		}
		b.Containers++
		b.Assigned = b.Assigned.Add(t.Alloc)
		if h.GivenLevel(t) == sim.OffRack {
			b.OffSwitch++
		}
		if a.Continue != nil && !a.Continue(b) {
			return
		}
	}
}

// Beat is what one heartbeat has assigned so far on its node.
type Beat struct {
	Containers, OffSwitch int
	Assigned              sim.Res // what the containers hold
	FreeAtStart           sim.Res // the node's free resources before the first
}

// offered reports whether node n's heartbeat is a scheduling opportunity. A
// YARN node without a minimum allocation free is offered to no queue
// (CapacityScheduler.allocateContainerOnSingleNode, ParentQueue.canAssign):
// nothing is assigned or reserved and no locality delay is counted. A Hadoop
// 1 TaskTracker (typed node) heartbeats for its slots, whatever its vCores.
func (a *Allocator) offered(h sim.Handle, n *sim.Node) bool {
	return !a.CapacityLocality || n.Typed() || h.FitsFree(MinAllocation(h), n)
}

// assignOne ranks the jobs and launches one container on n. It returns the
// task launched, or nil when nothing more is launched on this heartbeat.
func (a *Allocator) assignOne(h sim.Handle, n *sim.Node) *sim.Task {
	if !a.offered(h, n) {
		return nil
	}
	a.rank(h, true)
	for _, j := range a.jobs {
		t := a.taskFor(h, j, n, true)
		if t == nil {
			continue
		}
		if !h.FitsFree(t.Req, n) {
			if !a.Reserve || a.Backfill > 0 || (a.Reservable != nil && !a.Reservable(h, t, n)) {
				continue // try the next job
			}
			if a.CapacityReservations {
				if !a.mayHoldNew(h, t, n) || a.needToUnreserve(h, t) {
					continue // LOCALITY_SKIPPED: the next job is tried
				}
				a.reserveNew(h, n, t)
				return nil
			}
			h.ReserveRequest(n, t)
			return nil
		}
		giveUp := -1
		if a.CapacityReservations && (!a.mayHoldNew(h, t, n) || a.needToUnreserve(h, t)) {
			giveUp = reservedFor(h, keyOf(t)) - 1
			if giveUp < 0 {
				continue // nothing of its own to give up: LOCALITY_SKIPPED
			}
		}
		level := a.launchType(h, t, n)
		if err := h.LaunchTyped(t, n, sim.Guaranteed, level); err != nil {
			panic(err) // TaskFor returned a requestable task that fits: a bug
		}
		if giveUp >= 0 {
			a.giveUpOne(h, t, giveUp)
		}
		a.allocated(h, t, level)
		a.launched(h, t)
		return t
	}
	return nil
}

// rank fills a.jobs with the jobs that want containers, best first; with
// offer, only those an offered node is tried for: the ones Considers
// accepts and no JobLimit refuses whole (refusedWhole: TaskFor would
// return nil for them at once). Filtering before sorting gives the order a
// full ranking would give them (a stable sort keeps a subset's relative
// order), and is what makes a heartbeat cheap when no job is offered nodes
// (the FairScheduler's jobs between two updates) or the limits hold most
// jobs back (DRESS's pools): the filters must not depend on the ranking
// (Fair's Offers reads the last update's demand and what the job holds).
func (a *Allocator) rank(h sim.Handle, offer bool) {
	a.jobs = a.jobs[:0]
	if offer {
		a.prepareRefusals(h)
	}
	for _, j := range h.Asking() {
		if !offer || ((a.Considers == nil || a.Considers(h, j)) && !a.refusedWhole(j)) {
			a.jobs = append(a.jobs, j)
		}
	}
	// Prepare even for one job or none: orders double as limits' usage
	// snapshots. With none, an order whose Prepare leaves nothing behind
	// (IdleNoop) is not prepared: the heartbeat ranks and assigns nothing,
	// as one the engine skips (most heartbeats of the FairScheduler, whose
	// jobs are offered nodes only after an update).
	if len(a.jobs) == 0 && a.IdleNoop() {
		return
	}
	a.Order.Prepare(h)
	if len(a.jobs) > 1 && !a.sortByKeys(h) {
		slices.SortStableFunc(a.jobs, func(x, y *sim.Job) int {
			switch {
			case a.Order.Less(h, x, y):
				return -1
			case a.Order.Less(h, y, x):
				return 1
			}
			return 0
		})
	}
}

// keyedJob is a job with its KeyOrder key.
type keyedJob struct {
	key uint64
	job *sim.Job
}

// sortByKeys sorts a.jobs by the order's keys when it is a KeyOrder that
// gives them, and reports whether it did. The keys are distinct, so an
// unstable sort gives the stable sort's ranking; the jobs usually come
// already in order (Asking is in admission order, most orders first in,
// first out), which the check before the sort finds in one pass.
func (a *Allocator) sortByKeys(h sim.Handle) bool {
	ko, ok := a.Order.(KeyOrder)
	if !ok {
		return false
	}
	n := len(a.jobs)
	a.keys = slices.Grow(a.keys[:0], n)[:n]
	if !ko.Keys(h, a.jobs, a.keys) {
		return false
	}
	a.keyed = a.keyed[:0]
	for i, j := range a.jobs {
		a.keyed = append(a.keyed, keyedJob{a.keys[i], j})
	}
	byKey := func(x, y keyedJob) int { return cmp.Compare(x.key, y.key) }
	if !slices.IsSortedFunc(a.keyed, byKey) {
		slices.SortFunc(a.keyed, byKey)
		for i := range a.keyed {
			a.jobs[i] = a.keyed[i].job
		}
	}
	return true
}

// Ranked returns the jobs wanting containers in the order's ranking (valid
// until the next call); mechanisms layered on the allocator use it.
func (a *Allocator) Ranked(h sim.Handle) []*sim.Job {
	a.rank(h, false)
	return a.jobs
}

// TaskFor returns job j's next task for node n under delay scheduling and
// the limits, or nil.
func (a *Allocator) TaskFor(h sim.Handle, j *sim.Job, n *sim.Node) *sim.Task {
	return a.taskFor(h, j, n, a.offered(h, n))
}

// taskFor is TaskFor given whether n's heartbeat is a scheduling
// opportunity (offered: the node's alone, so assignOne asks once for all
// the jobs it tries).
func (a *Allocator) taskFor(h sim.Handle, j *sim.Job, n *sim.Node, offered bool) *sim.Task {
	a.typed = typedTask{}
	dl := a.delayOf(h, j)
	max := sim.OffRack
	if d := int(a.LocalityDelay); d > 0 {
		switch {
		case a.CapacityLocality:
			if p := h.NextTask(j, n, sim.OffRack); p != nil && (!a.Allowed(h, p, n) || !a.headroomHolds(h, p)) {
				// RegularContainerAllocator.preCheckForNodeCandidateSet:
				// a request the limits' headroom cannot hold is skipped
				// before the offer counts as an opportunity.
				return nil
			}
			max = a.capacityAllowed(h, j, dl, d, offered)
		case a.FairLocality:
			max = fairAllowed(j, dl, d)
		case dl.misses >= 2*d:
		case dl.misses >= d:
			max = sim.RackLocal
		default:
			max = sim.NodeLocal
		}
	}
	t := h.NextTask(j, n, max)
	if t == nil {
		if a.FairLocality || a.CapacityLocality {
			return nil // the opportunity is counted already
		}
		if max < sim.OffRack && offered && h.NextTask(j, n, sim.OffRack) != nil {
			dl.misses++
		}
		return nil
	}
	if !a.Allowed(h, t, n) {
		return nil
	}
	if a.FairLocality {
		return t
	}
	if t.Kind == sim.KindMap && offered {
		// A node-local assignment resets the missed opportunities; so
		// does a rack-local one in the CapacityScheduler
		// (rack-locality-full-reset, default true).
		l := a.allocationType(h, t, n)
		a.typed = typedTask{t, n, l}
		if l == sim.NodeLocal || (a.CapacityLocality && l == sim.RackLocal) {
			dl.misses = 0
		}
	}
	return t
}

// typedTask is the task TaskFor last returned for an offered node, with the
// locality type its container gets there, taken before TaskFor reset the
// job's missed opportunities (which the type reads).
type typedTask struct {
	t     *sim.Task
	n     *sim.Node
	level sim.Locality
}

// allocationType is the locality type (Hadoop's NodeType) t's container on
// n is given at: ContainerLevel, but under the CapacityScheduler's delay a
// container on a rack the job asks for is rack-local only once the
// rack-local delay has passed (canAssign(RACK_LOCAL): missed opportunities
// above min(cluster nodes, node-locality-delay)); before, once the
// off-switch delay has passed, it is given through the off-switch path
// (RegularContainerAllocator.assignContainersOnNode tries the host, the
// rack, then any node) and typed OFF_SWITCH: only the any-node count goes
// down, the opportunities are not reset and the heartbeat ends after it.
func (a *Allocator) allocationType(h sim.Handle, t *sim.Task, n *sim.Node) sim.Locality {
	l := h.ContainerLevel(t, n)
	if l == sim.RackLocal && a.CapacityLocality && a.LocalityDelay > 0 && t.Kind == sim.KindMap &&
		!rackLocalDue(h, a.delayOf(h, t.Job), int(a.LocalityDelay)) {
		return sim.OffRack
	}
	return l
}

// launchType is the type of t's container on n as TaskFor found it, or
// ContainerLevel when TaskFor typed no container (a task that is not a map,
// a node not offered).
func (a *Allocator) launchType(h sim.Handle, t *sim.Task, n *sim.Node) sim.Locality {
	if a.typed.t == t && a.typed.n == n {
		return a.typed.level
	}
	return h.ContainerLevel(t, n)
}

// capacityAllowed is the level RegularContainerAllocator.canAssign lets job
// j's maps take on an offered node, after tryAllocateOnNode has counted the
// offer as a scheduling opportunity (when the maps are the request it
// reaches: see mapsReached): node-local always, rack-local once the
// opportunities exceed min(cluster nodes, node-locality-delay d), any node
// once they exceed the pending maps times the locality wait factor
// (offSwitch). A node-local or rack-local allocation resets the count
// (rack-locality-full-reset), an off-switch one does not (TaskFor).
func (a *Allocator) capacityAllowed(h sim.Handle, j *sim.Job, dl *delay, d int, offered bool) sim.Locality {
	if mapsReached(j) == nil {
		return sim.OffRack
	}
	if offered {
		dl.misses++
	}
	switch {
	case a.offSwitch(h, j, dl):
		return sim.OffRack
	case rackLocalDue(h, dl, d):
		return sim.RackLocal
	}
	return sim.NodeLocal
}

// rackLocalDue is canAssign(RACK_LOCAL) of the CapacityScheduler: the
// job's missed opportunities exceed min(cluster nodes, node-locality-delay
// d).
func rackLocalDue(h sim.Handle, dl *delay, d int) bool {
	return dl.misses > min(d, len(h.Nodes()))
}

// mapsReached returns job j's map stage when its maps are the request a
// scheduler reaches on an offer (the AM is running and no later stage,
// whose higher priority comes first, asks for a container), or nil.
func mapsReached(j *sim.Job) *sim.Stage {
	if j.AM != nil && j.AM.State == sim.TaskPending {
		return nil
	}
	for i := len(j.Stages) - 1; i >= 0; i-- {
		st := j.Stages[i]
		if st.Asking() == 0 {
			continue
		}
		if st.Spec.Kind != sim.KindMap {
			return nil
		}
		return st
	}
	return nil
}

// fairAllowed is FSAppAttempt.getAllowedLocalityLevel after
// addSchedulingOpportunity for job j's offer of a node, with d the
// threshold in opportunities (see FairLocality). A job whose first request
// on the offer is not its maps' (its AM, its reducers: asked for any node)
// counts no opportunity and is not delayed.
func fairAllowed(j *sim.Job, dl *delay, d int) sim.Locality {
	if mapsReached(j) == nil {
		return sim.OffRack // the AM's or reducers' request comes first: maps are not tried
	}
	dl.misses++
	if dl.allowed < sim.OffRack && dl.misses > d {
		dl.allowed++
		dl.misses = 0
	}
	return dl.allowed
}

// offSwitch is the CapacityScheduler's rule for accepting any node: the
// job's missed opportunities exceed its pending maps times the locality wait
// factor (see CapacityLocality).
func (a *Allocator) offSwitch(h sim.Handle, j *sim.Job, dl *delay) bool {
	if dl.misses == 0 {
		return false
	}
	required := 0
	for _, st := range j.Stages {
		if st.Spec.Kind == sim.KindMap {
			required += st.Asking()
		}
	}
	if required == 0 || float64(required) < float64(dl.misses) || dl.misses > len(h.Nodes()) {
		return true // the factor is at most 1; the wait at most the node count
	}
	return float64(required)*a.waitFactor(h, j) < float64(dl.misses)
}

// waitFactor is min(1, (distinct hosts + racks holding a replica of a
// pending map of j) / cluster nodes): CapacityScheduler's
// getLocalityWaitFactor, the request table's locations over the nodes.
func (a *Allocator) waitFactor(h sim.Handle, j *sim.Job) float64 {
	if st := mapsReached(j); st != nil {
		if k, ok := h.LocationAsks(st); ok {
			// The scheduler's table: getLocalityWaitFactor(uniqueLocationAsks,
			// nodes) = min((asks - 1) / nodes, 1).
			return min(1, float64(max(k-1, 0))/float64(len(h.Nodes())))
		}
	}
	var key waitFactor
	for _, st := range j.Stages {
		if st.Spec.Kind == sim.KindMap {
			key.pending += st.Pending
			key.running += st.Running
			key.done += st.Done
		}
	}
	if a.wait == nil {
		a.wait = map[int32]waitFactor{}
	}
	if c, ok := a.wait[j.ID]; ok && c.pending == key.pending && c.running == key.running && c.done == key.done {
		return c.factor
	}
	hosts := map[int32]bool{}
	racks := map[int]bool{}
	for _, st := range j.Stages {
		if st.Spec.Kind != sim.KindMap {
			continue
		}
		for _, t := range st.Tasks {
			if t.State != sim.TaskPending {
				continue
			}
			for _, r := range t.Replicas {
				hosts[r] = true
				racks[h.Nodes()[r].Spec.Rack] = true
			}
		}
	}
	key.factor = min(1, float64(len(hosts)+len(racks))/float64(len(h.Nodes())))
	a.wait[j.ID] = key
	return key.factor
}

// Allowed reports whether every limit lets t run on n.
func (a *Allocator) Allowed(h sim.Handle, t *sim.Task, n *sim.Node) bool {
	for _, l := range a.Limits {
		if !l.Allow(h, t, n) {
			return false
		}
	}
	return true
}

// allocated notes, under FairLocality, the level a map's container was
// given at (FSAppAttempt.allocate): one more local than the job's allowed
// level brings the level down to it.
func (a *Allocator) allocated(h sim.Handle, t *sim.Task, level sim.Locality) {
	if a.FairLocality && t.Kind == sim.KindMap && level < a.delayOf(h, t.Job).allowed {
		a.delayOf(h, t.Job).allowed = level
	}
}

func (a *Allocator) launched(h sim.Handle, t *sim.Task) {
	for _, hook := range a.Hooks {
		hook.Launched(h, t)
	}
}
