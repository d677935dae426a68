package sim

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// Config is everything a run needs. Build it (e.g. from a scenario), then
// call New.
type Config struct {
	Nodes  []NodeSpec
	Jobs   []JobSpec // in any order; ties in submit time keep this order
	Model  Model
	Policy *Policy
	Seed   uint64
	// MaxMs ends the run (truncated) at this simulated time; 0 means none.
	MaxMs Ms
	// StallMs ends the run with the remaining jobs reported stuck when no
	// task has started, finished or progressed for this long and no job is
	// still to arrive. 0 means 1 simulated hour.
	StallMs Ms
	// LivelockMs ends the run with the remaining jobs reported stuck when
	// tasks keep running (or being killed and started again) but none has
	// finished, no job has ended and none arrived for this long: a policy
	// that launches what it cannot finish, or kills what it launches, would
	// otherwise loop to MaxMs or forever. 0 means 24 simulated hours, above
	// any single task of the built-in workloads (TestLivelockDefault).
	LivelockMs Ms
	// RecordTasks keeps a record of every task attempt (for CSV output).
	RecordTasks bool
	// KeepTasks builds every job's tasks with the run and keeps them to
	// its end. By default a job's Task and Stage objects exist from its
	// arrival until its application is removed after it ends (build.go):
	// before and after, Job.AM and Job.Stages are nil and so are its
	// Sim.Task of their IDs, and memory follows the jobs in flight. The
	// results are the same either way; tests and tools that read tasks
	// before their job arrives (the oracle's export of block placements)
	// or after it has ended (per-task metrics) set it.
	KeepTasks bool
	// TimelineMs samples cluster state at this interval; 0 means none.
	TimelineMs Ms
	// AfterEvent, if set, is called after every event the engine processes
	// (invariant tests): not after the heartbeats of idle nodes it skips.
	AfterEvent func(*Sim)
	// OnGive, if set, is told of every container given to a task, as the
	// node gives it (before the AM may rebind it: asks.go), excess ones
	// included (Task.Excess): the oracle's allocation trace.
	OnGive func(s *Sim, t *Task, n *Node)
	// EveryHeartbeat makes the engine process every heartbeat, also those
	// of idle nodes that change nothing (see idle.go): the reference the
	// shortcut is tested against. Results are the same either way.
	EveryHeartbeat bool
	// AlignControl starts every control cycle at exactly one interval
	// instead of at a random phase (controlPhase): for worked examples whose
	// timeline assumes cycles at T, 2T, ... from the first submission.
	AlignControl bool
}

// Sim is one run of the cluster model.
type Sim struct {
	cfg    Config
	model  Model
	policy *Policy
	now    Ms
	seq    uint64
	// containerSeq numbers containers as they are allocated (Task.LaunchSeq).
	containerSeq int64
	cur          event // the event being processed (order.go)
	queue        eventQueue
	bounds       boundaryQueue // each node's next phase boundary
	beats        fifoQueue     // heartbeats of nodes that are not idle, in order
	wakes        eventQueue    // first heartbeats of nodes taken out of the idle set
	ready        eventQueue    // engine events: a job's AM has started up (idle.go)
	idle         idleSet
	pos          pos // the last event processed (real or skipped)
	rng          *Rand
	// replicaBuf is where placeBlock carves map input blocks from.
	replicaBuf []int32
	rackNodes  [][]int32 // the nodes of each rack
	rackOf     []int32   // each node's rack
	stages     []*Stage  // every job's stages (slot.prev indexes them)
	gateBuf    []float64 // recompute's scratch: each container's shuffle gate
	// enqueueReleased's scratch: each node's and rack's tasks, and the
	// nodes and racks with any.
	locNode, locRack   [][]*Task
	locNodes, locRacks []int32

	Nodes []*Node
	// Jobs holds every job of the run, by ID (submission order).
	Jobs []*Job
	// tasks finds the tasks built so far (those of the jobs arrived), AMs
	// included, by ID; a job's are gone once it has ended and its
	// application is removed, unless Config.KeepTasks (build.go).
	tasks    taskTable
	racks    int
	capacity Res
	// typedCluster: some node is a Hadoop 1 TaskTracker with typed slots.
	typedCluster bool

	waiting []*Job // submitted, not admitted, in submission order
	// finishing: ended jobs whose AM container awaits release (release.go)
	finishing []*Job
	active    []*Job  // admitted, not done, in admission order
	asking    []*Job  // admitted jobs with HasPending, in admission order
	reserved  []*Node // nodes with a reservation, in no order
	admitted  int     // jobs admitted so far
	admitPass int64   // passes of tryAdmit so far (Handle.AdmitPass)
	// admitEachBeat: some admitter is not a JobEventAdmitter, so waiting
	// jobs are reconsidered at every heartbeat; else only at job events
	// and after ParamsChanged (admitDue).
	admitEachBeat bool
	admitDue      bool
	epoch         int64    // Handle.Epoch: bumped by every change of a container, a task's state or the job lists
	inv           struct { // what CheckInvariants saw last (checkEpoch)
		checked bool
		epoch   int64
		print   uint64
	}
	jobsLeft int
	arrived  int

	dirty      []*Node
	dirtySpare []*Node
	listeners  []TaskListener
	jobLis     []JobListener
	rebinders  []Rebinder

	lastProgress Ms
	lastDone     Ms // the last task finish, job end or arrival (LivelockMs)
	ended        bool
	stuck        bool
	stuckReason  string
	truncated    bool

	handle  *handle // what the policy's parts are given (handle.go)
	stats   Stats
	acct    accounting
	records []TaskRecord
	// activeScratch is preemptReducers' copy of active.
	activeScratch []*Job
	timeline      []Sample
}

// New validates cfg and builds a run. Nothing runs until Run or RunUntil.
func New(cfg Config) (*Sim, error) { return newSim(cfg, true) }

// Validate checks cfg exactly as New does, with the same errors, without
// building the run: no task is made and no block placed, so it costs little
// however large the workload.
func Validate(cfg Config) error {
	_, err := newSim(cfg, false)
	return err
}

func newSim(cfg Config, build bool) (*Sim, error) {
	if len(cfg.Nodes) == 0 {
		return nil, errors.New("the cluster has no nodes")
	}
	if cfg.Policy == nil || cfg.Policy.Allocate == nil {
		return nil, errors.New("no policy with an allocator")
	}
	if cfg.Policy.Setup != nil {
		cfg.Policy.Setup()
	}
	s := &Sim{cfg: cfg, model: cfg.Model.withDefaults(), policy: cfg.Policy}
	s.handle = &handle{s}
	for _, a := range cfg.Policy.Admission {
		if e, ok := a.(JobEventAdmitter); !ok || !e.OnJobEvents() {
			s.admitEachBeat = true
		}
	}
	s.rng = NewRand(DeriveSeed(cfg.Seed, HashString("sim")))
	if s.cfg.StallMs <= 0 {
		s.cfg.StallMs = 3600 * MsPerS
	}
	if s.cfg.LivelockMs <= 0 {
		s.cfg.LivelockMs = DefaultLivelockMs
	}
	maxCap := Res{}
	for i, ns := range cfg.Nodes {
		if ns.Cap.VCores <= 0 || ns.Cap.MemMB <= 0 {
			return nil, fmt.Errorf("node %d (%s): capacity %v must be positive", i, ns.Name, ns.Cap)
		}
		if ns.Speed <= 0 {
			ns.Speed = 1
		}
		if ns.Cores <= 0 {
			ns.Cores = float64(ns.Cap.VCores)
		}
		if ns.Rack < 0 {
			return nil, fmt.Errorf("node %d (%s): negative rack", i, ns.Name)
		}
		if ns.Rack+1 > s.racks {
			s.racks = ns.Rack + 1
		}
		maxCap = maxCap.Max(ns.Cap)
		s.capacity = s.capacity.Add(ns.Cap)
		if ns.ReduceSlots < 0 {
			return nil, fmt.Errorf("node %d (%s): negative reduce slots", i, ns.Name)
		}
		s.typedCluster = s.typedCluster || ns.ReduceSlots > 0
		s.Nodes = append(s.Nodes, &Node{ID: int32(i), Spec: ns, boundaryAt: -1, pollAt: -1, lastReduce: -1, releaseDue: -1,
			cores: ns.Cores, diskMBps: ns.DiskMBps, memCap: float64(ns.Cap.MemMB), speed: ns.Speed})
	}
	s.rackNodes = make([][]int32, s.racks)
	s.rackOf = make([]int32, len(s.Nodes))
	for _, n := range s.Nodes {
		s.rackNodes[n.Spec.Rack] = append(s.rackNodes[n.Spec.Rack], n.ID)
		s.rackOf[n.ID] = int32(n.Spec.Rack)
	}
	order := make([]int, len(cfg.Jobs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return cfg.Jobs[order[a]].SubmitMs < cfg.Jobs[order[b]].SubmitMs })
	for _, ji := range order {
		if err := s.addJob(&cfg.Jobs[ji], maxCap, build); err != nil {
			return nil, err
		}
	}
	if build && cfg.KeepTasks {
		for _, j := range s.Jobs { // in job order, as they would arrive
			s.materialize(j)
		}
	}
	for _, part := range s.parts() {
		if l, ok := part.(TaskListener); ok {
			s.listeners = append(s.listeners, l)
		}
		if l, ok := part.(JobListener); ok {
			s.jobLis = append(s.jobLis, l)
		}
		if l, ok := part.(Rebinder); ok {
			s.rebinders = append(s.rebinders, l)
		}
	}
	s.jobsLeft = len(s.Jobs)
	if build && cfg.RecordTasks {
		// A record per attempt: room for one of every task (AMs
		// included) up front rather than growing by copies, which at
		// millions of records would hold two copies at once. The pages
		// are touched only as records are written.
		n := 0
		for _, j := range s.Jobs {
			n += j.Spec.TaskCount()
			if !j.Spec.AM.IsZero() {
				n++
			}
		}
		s.records = make([]TaskRecord, 0, n)
	}
	// New schedules as if it were an event at time 0 that no heartbeat
	// precedes (see order.go); the first arrival comes before every
	// heartbeat at its instant.
	s.cur = event{ord: -1}
	if len(s.Jobs) > 0 {
		// Jobs are sorted by submission: each arrival schedules the next.
		s.seq++
		s.queue.push(event{at: s.Jobs[0].Spec.SubmitMs, seq: s.seq, ord: -1, kind: evArrival})
	}
	s.initIdle()
	s.bounds.init(len(s.Nodes))
	for _, n := range s.Nodes {
		// Stagger heartbeats evenly over one interval, as real NMs drift.
		s.scheduleBeat(s.beatOffset(n.ID), n.ID)
	}
	for i, c := range cfg.Policy.Controls {
		if c.ControlIntervalMs() <= 0 {
			return nil, fmt.Errorf("policy %s: control cycle %d has a non-positive interval", cfg.Policy.Name, i)
		}
		s.schedule(s.controlPhase(i, c.ControlIntervalMs()), evControl, int32(i))
	}
	if cfg.TimelineMs > 0 {
		s.schedule(0, evSample, 0)
	}
	s.schedule(s.model.AMTickMs, evAMTick, 0)
	return s, nil
}

// controlPhase is control cycle i's first run, uniform in (0, interval]:
// a controller's clock starts with the ResourceManager (or JobTracker), not
// with the workload, so its cycles have no fixed phase against the jobs'
// submission times. Starting every cycle at exactly one interval would lock
// the two together in every seed (a workload with fixed submission times,
// such as RAS's Table 1, would then wait a seed-independent T - submit mod T
// for its first placement, and a tuner of T would fit that resonance). Each
// cycle draws from its own stream, so the phase shifts no other draw.
// ControlFirstMs is when the policy's control cycle i first runs.
func (s *Sim) ControlFirstMs(i int) Ms {
	return s.controlPhase(i, s.policy.Controls[i].ControlIntervalMs())
}

func (s *Sim) controlPhase(i int, intervalMs Ms) Ms {
	if s.cfg.AlignControl {
		return intervalMs
	}
	r := NewRand(DeriveSeed(s.cfg.Seed, HashString("sim.control"), uint64(i)))
	return 1 + Ms(r.IntN(int(intervalMs)))
}

func (s *Sim) parts() []any {
	p := s.policy
	var out []any
	for _, a := range p.Admission {
		out = append(out, a)
	}
	out = append(out, p.Allocate)
	for _, m := range p.Monitors {
		out = append(out, m)
	}
	for _, c := range p.Controls {
		out = append(out, c)
	}
	// A part may appear at several decision points: tell it once.
	seen := map[any]bool{}
	uniq := out[:0]
	for _, x := range out {
		if !seen[x] {
			seen[x] = true
			uniq = append(uniq, x)
		}
	}
	return uniq
}

func (s *Sim) schedule(at Ms, kind eventKind, id int32) {
	s.seq++
	s.queue.push(event{at: at, seq: s.seq, ord: s.tieOrd(at), id: id, kind: kind})
}

// scheduleBeat queues a heartbeat; at must not be before any queued one.
func (s *Sim) scheduleBeat(at Ms, node int32) {
	s.beats.push(event{at: at, ord: beatOrd(node), id: node, kind: evHeartbeat})
}

// Sources of events, merged in order by peek.
const (
	srcQueue  = iota // model events other than heartbeats and boundaries
	srcBounds        // phase boundaries, one per node
	srcBeats         // heartbeats of nodes that are not idle
	srcWakes         // first heartbeats of nodes woken up
	srcIdle          // the idle cursor: heartbeats of idle nodes while demand waits
	srcReady         // engine events: an AM has started up
)

// peek returns the earliest pending event and its source, without removing
// it, or nil.
func (s *Sim) peek() (e *event, src int) {
	consider := func(c *event, from int) {
		if c != nil && (e == nil || c.before(e)) {
			e, src = c, from
		}
	}
	if s.queue.len() > 0 {
		consider(s.queue.peek(), srcQueue)
	}
	if s.bounds.len() > 0 {
		consider(s.bounds.peek(s.now), srcBounds)
	}
	if s.beats.size > 0 {
		consider(s.beats.peek(), srcBeats)
	}
	if s.wakes.len() > 0 {
		consider(s.wakes.peek(), srcWakes)
	}
	if s.ready.len() > 0 {
		consider(s.ready.peek(), srcReady)
	}
	if c := s.idleCursor(); c != nil && (e == nil || c.before(e)) && (e == nil || !s.idleQuietBefore(e)) {
		e, src = c, srcIdle
	}
	return e, src
}

// Now returns the current simulated time.
func (s *Sim) Now() Ms { return s.now }

// Model returns the model constants in force.
func (s *Sim) Model() Model { return s.model }

// Policy returns the run's policy.
func (s *Sim) Policy() *Policy { return s.policy }

// Racks returns the number of racks.
func (s *Sim) Racks() int { return s.racks }

// Waiting returns the submitted jobs waiting for admission, oldest first.
func (s *Sim) Waiting() []*Job { return s.waiting }

// Active returns the admitted, unfinished jobs in admission order. The
// slice is the engine's own: an action taken while ranging over it (Launch,
// Kill, Suspend, ...) brings a node up to now, which can finish a job and
// remove it, so range over a copy when acting.
func (s *Sim) Active() []*Job { return s.active }

// ReservedNodes returns the nodes reserved for a request, in no order (the
// engine's own slice: do not keep it).
func (s *Sim) ReservedNodes() []*Node { return s.reserved }

// Done reports whether the run has ended.
func (s *Sim) Done() bool { return s.ended }

// Run runs to the end and returns the summary.
func (s *Sim) Run() Summary {
	s.RunUntil(math.MaxInt64)
	return s.Summary()
}

// RunUntil processes every event before time until (or to the end of the
// run) and leaves the clock at until. It returns whether the run has ended.
func (s *Sim) RunUntil(until Ms) bool {
	for !s.ended {
		e, src := s.peek()
		if e == nil {
			s.finish(false)
			break
		}
		if s.stallSkipped(e, until) {
			continue
		}
		if s.ended {
			break
		}
		if e.at >= until {
			s.now = until
			s.pos = pos{at: until, ord: ordFirst}
			return false
		}
		if s.cfg.MaxMs > 0 && e.at > s.cfg.MaxMs {
			s.now = s.cfg.MaxMs
			s.pos = pos{at: s.cfg.MaxMs, ord: math.MaxInt32}
			s.truncated = true
			s.finish(false)
			break
		}
		var ev event
		switch src {
		case srcQueue:
			ev = s.queue.pop()
		case srcBounds:
			// Left in place: the node's recompute at the end of this event
			// usually moves it to the next boundary (one sift instead of a
			// removal and an insertion); dropped below if not.
			ev = *e
		case srcBeats:
			ev = s.beats.pop()
		case srcWakes:
			ev = s.wakes.pop()
		case srcIdle:
			ev = *e
			s.idleRemove(s.Nodes[ev.id])
		case srcReady:
			ev = s.ready.pop()
			s.now = ev.at
			s.pos = pos{at: ev.at, ord: ordFirst}
			s.touch(s.Jobs[ev.id])
			continue
		}
		s.now = ev.at
		s.cur = ev
		s.pos = pos{at: ev.at, ord: ev.ord}
		s.stats.Events++
		s.stats.Processed++
		s.dispatch(ev)
		s.flushDirty()
		if src == srcBounds {
			s.bounds.drop(ev)
		}
		if s.jobsLeft == 0 {
			s.finish(false)
		} else if s.arrived == len(s.Jobs) && s.now-s.lastProgress > s.cfg.StallMs && s.stalled() {
			s.stuckReason = s.stallReason()
			s.finish(true)
		} else if s.arrived == len(s.Jobs) && s.now-s.lastDone > s.cfg.LivelockMs {
			s.stuckReason = s.livelockReason()
			s.finish(true)
		}
		if s.cfg.AfterEvent != nil {
			s.cfg.AfterEvent(s)
		}
	}
	return true
}

func (s *Sim) dispatch(ev event) {
	switch ev.kind {
	case evArrival:
		s.arrive(s.Jobs[ev.id])
	case evHeartbeat:
		s.heartbeat(s.Nodes[ev.id])
	case evBoundary:
		n := s.Nodes[ev.id]
		n.boundaryAt = -1
		s.advance(n)
		s.markDirty(n)
	case evControl:
		c := s.policy.Controls[ev.id]
		c.Control(s.handle)
		s.tryAdmit()
		s.schedule(s.now+c.ControlIntervalMs(), evControl, ev.id)
	case evSample:
		s.sample()
		s.schedule(s.now+s.cfg.TimelineMs, evSample, 0)
	case evAMBeat:
		s.amBeat(s.Jobs[ev.id])
	case evRelease:
		s.release(s.Nodes[ev.id])
	case evRemoveApps:
		s.removeApps(s.Nodes[ev.id])
	case evUnhold:
		s.unhold(s.Nodes[ev.id])
	case evCommit:
		s.finishJob(s.Jobs[ev.id])
	case evAMTick:
		s.preemptReducers()
		s.schedule(s.now+s.model.AMTickMs, evAMTick, 0)
	}
}

func (s *Sim) arrive(j *Job) {
	if j.Stages == nil { // not built yet (unless Config.KeepTasks)
		s.materialize(j)
	}
	j.State = JobWaiting
	s.arrived++
	if next := int(j.ID) + 1; next < len(s.Jobs) {
		if s.Jobs[next].Spec.SubmitMs <= s.now {
			// Jobs submitted at the same instant arrive together, before
			// any other event of that instant (a node heartbeat queued
			// earlier sees them all, as the oracle's driver plays it).
			defer s.arrive(s.Jobs[next])
		} else {
			s.schedule(s.Jobs[next].Spec.SubmitMs, evArrival, int32(next))
		}
	}
	s.waiting = append(s.waiting, j)
	s.idle.cursorOK = false
	s.progress()
	s.lastDone = s.now
	for _, l := range s.jobLis {
		l.JobArrived(s.handle, j)
	}
	s.tryAdmit()
}

// ParamsChanged tells the engine that the policy's parameters were set (an
// environment's action): waiting jobs are reconsidered at the next
// heartbeat, as a queue refresh reconsiders them in YARN
// (LeafQueue.reinitialize activates applications).
func (s *Sim) ParamsChanged() { s.admitDue = true }

// tryAdmit admits waiting jobs in submission order until one is refused by
// an admitter that holds the line (PassingAdmitter says which do not).
func (s *Sim) tryAdmit() {
	s.admitPass++
	kept := s.waiting[:0]
	admitted := 0
	blocked := false
	for _, j := range s.waiting {
		if blocked {
			kept = append(kept, j)
			continue
		}
		ok := true
		for _, a := range s.policy.Admission {
			if !a.Admit(s.handle, j) {
				ok = false
				if p, is := a.(PassingAdmitter); !is || !p.Passes() {
					blocked = true
				}
				break
			}
		}
		if !ok {
			kept = append(kept, j)
			continue
		}
		s.admit(j)
		admitted++
	}
	if admitted > 0 {
		clear(s.waiting[len(kept):])
		s.waiting = kept
		s.idle.cursorOK = false
	}
}

func (s *Sim) admit(j *Job) {
	s.epoch++ // Epoch: containers, task states or the job lists change
	j.State = JobAdmitted
	j.AdmitMs = s.now
	j.active = len(s.active)
	s.active = append(s.active, j)
	s.admitted++
	j.admitSeq = s.admitted
	s.progress()
	if j.AM == nil {
		s.releaseReady(j)
	}
	s.touch(j)
}

func (s *Sim) heartbeat(n *Node) {
	s.catchUp(n)
	s.advance(n)
	if n.releaseDue == s.now && len(n.releasing) > 0 {
		s.release(n) // containers whose processes ended as the heartbeat came
	}
	if s.now >= n.nextSample {
		s.sampleUsage(n)
		n.nextSample = s.now + s.model.UsageSampleMs
	}
	for _, m := range s.policy.Monitors {
		m.Monitor(s.handle, n)
	}
	if len(s.waiting) > 0 && (s.admitEachBeat || s.admitDue) {
		s.admitDue = false
		s.tryAdmit()
	}
	if len(s.active) > 0 {
		s.policy.Allocate.Allocate(s.handle, n)
	}
	// Anything that changed the node (a launch, a kill, a usage sample, a
	// phase end) has marked it dirty already.
	s.beatDone(n)
}
