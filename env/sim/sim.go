package sim

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// Model holds the cluster model's constants. Zero fields take the defaults
// of DefaultModel.
type Model struct {
	// HeartbeatMs is the node heartbeat interval (YARN's
	// yarn.resourcemanager.nodemanagers.heartbeat-interval-ms, 1000).
	HeartbeatMs Ms
	// UsageSampleMs is how often a task's actual usage is redrawn.
	UsageSampleMs Ms
	// AMStartupMs is how long an AM runs before it requests its tasks.
	AMStartupMs Ms
	// Read speed of a map's read phase relative to a node-local read.
	RackReadFactor    float64
	OffRackReadFactor float64
	// SwapExponent: when actual memory m exceeds capacity C, every task on
	// the node progresses at (C/m)^SwapExponent of its speed.
	SwapExponent float64
	// DiskThrashExponent a: when the summed IO demand D on a node exceeds
	// its DiskMBps C, the disk delivers C*(C/D)^a in total instead of C, so
	// each IO phase gets (C/D)^(1+a) of what it asks. Concurrent streams on
	// a hard disk force seeks between them, so the aggregate throughput
	// falls as the overcommit grows; a = 0 is ideal processor sharing (the
	// disk keeps its full bandwidth however many streams compete, as an SSD
	// roughly does). It applies to every node with DiskMBps > 0.
	//
	// Zero takes the default (DefaultDiskThrashExponent); to ask for ideal
	// sharing explicitly set a negative value such as NoDiskThrash, which
	// resolves to 0 (as a negative AMStartupMs resolves to 0). The scenario
	// key model.disk_thrash_exponent takes 0 literally and maps it here.
	//
	// This loss is what makes overcommitting the disk cost throughput, the
	// mechanism behind RAS's argument that the Fair Scheduler's co-located
	// I/O-bound tasks leave the CPU waiting on I/O while RAS, which places
	// tasks against measured per-task demand, avoids it (Reference: RAS
	// Sec. 4.2, Figs. 4(c)-(d)).
	DiskThrashExponent float64
	// Replicas is the default HDFS replication of map input blocks.
	Replicas int
	// GatedCPU is the share of its shuffle CPU level a reducer uses while it
	// idles waiting for map outputs.
	GatedCPU float64
	// ReduceRampupLimit: while a job still has maps waiting for containers,
	// at most min(f, this) of its running tasks may be reducers, f the share
	// of its maps completed (MapReduce AM, RMContainerAllocator's
	// scheduleReduces; yarn.app.mapreduce.am.job.reduce.rampup.limit, 0.5).
	ReduceRampupLimit float64
	// ReducePreemptMs: a job whose maps have waited this long without any
	// map starting, while its reducers hold containers, kills its newest
	// reducer to make room (MapReduce AM reducer preemption,
	// mapreduce.job.reducer.unconditional-preempt.delay.sec, 300 s). Checked
	// every AMTickMs.
	ReducePreemptMs Ms
	AMTickMs        Ms
	// ShuffleEventPollMs: a reducer learns which maps of its job have
	// finished only when it asks its ApplicationMaster, at its start and
	// then every ShuffleEventPollMs while maps keep finishing, and its
	// shuffle cannot pass the share it knows of. Hadoop's reducers do so in
	// a fetcher thread that sleeps a second between calls
	// (org.apache.hadoop.mapreduce.task.reduce.EventFetcher: SLEEP_TIME
	// 1000 ms between getMapCompletionEvents calls). Zero takes the default
	// (1 s); a negative value makes every map's end known at once (the
	// model before this field), which costs an event per reducer per map.
	ShuffleEventPollMs Ms
}

// DefaultDiskThrashExponent is Model.DiskThrashExponent's default, a figure
// for a hard disk: two competing sequential streams deliver about 75% of one
// stream's throughput in total and eight about 45%; a = 0.4 fits both
// (2^-0.4 = 0.76, 8^-0.4 = 0.44). This is an assumption of the model, not a
// number from the papers. RAS's Table 2 profiles are consistent with it:
// they were measured at the slot setting where the job completed fastest, "a
// configuration in which competition for resources occurs and some system
// bottlenecks are hit, but in which severe performance degradation is not
// yet observed" (Reference: RAS Sec. 3.3), and with a = 0.4 a small
// overcommit costs little (1.25x loses 9% of the disk's throughput) while a
// large one is severe (4x loses 43%).
const DefaultDiskThrashExponent = 0.4

// NoDiskThrash, as Model.DiskThrashExponent, asks for ideal disk sharing
// (exponent 0); a zero field would take the default instead.
const NoDiskThrash = -1.0

// DefaultModel is the model used where a scenario does not say otherwise.
var DefaultModel = Model{
	HeartbeatMs:        1000,
	UsageSampleMs:      5000,
	AMStartupMs:        2000,
	RackReadFactor:     0.85,
	OffRackReadFactor:  0.6,
	SwapExponent:       4,
	DiskThrashExponent: DefaultDiskThrashExponent,
	Replicas:           3,
	GatedCPU:           0.1,
	ReduceRampupLimit:  0.5,
	ReducePreemptMs:    300 * MsPerS,
	AMTickMs:           10 * MsPerS,
	ShuffleEventPollMs: MsPerS,
}

func (m Model) withDefaults() Model {
	d := DefaultModel
	if m.HeartbeatMs > 0 {
		d.HeartbeatMs = m.HeartbeatMs
	}
	if m.UsageSampleMs > 0 {
		d.UsageSampleMs = m.UsageSampleMs
	}
	if m.AMStartupMs > 0 {
		d.AMStartupMs = m.AMStartupMs
	}
	if m.AMStartupMs < 0 {
		d.AMStartupMs = 0
	}
	if m.RackReadFactor > 0 {
		d.RackReadFactor = m.RackReadFactor
	}
	if m.OffRackReadFactor > 0 {
		d.OffRackReadFactor = m.OffRackReadFactor
	}
	if m.SwapExponent > 0 {
		d.SwapExponent = m.SwapExponent
	}
	if m.DiskThrashExponent > 0 {
		d.DiskThrashExponent = m.DiskThrashExponent
	}
	if m.DiskThrashExponent < 0 {
		d.DiskThrashExponent = 0
	}
	if m.Replicas > 0 {
		d.Replicas = m.Replicas
	}
	if m.GatedCPU > 0 {
		d.GatedCPU = m.GatedCPU
	}
	if m.ReduceRampupLimit > 0 {
		d.ReduceRampupLimit = m.ReduceRampupLimit
	}
	if m.ReducePreemptMs > 0 {
		d.ReducePreemptMs = m.ReducePreemptMs
	}
	if m.AMTickMs > 0 {
		d.AMTickMs = m.AMTickMs
	}
	if m.ShuffleEventPollMs != 0 {
		d.ShuffleEventPollMs = max(m.ShuffleEventPollMs, -1)
	}
	return d
}

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
	// RecordTasks keeps a record of every task attempt (for CSV output).
	RecordTasks bool
	// TimelineMs samples cluster state at this interval; 0 means none.
	TimelineMs Ms
	// AfterEvent, if set, is called after every event the engine processes
	// (invariant tests): not after the heartbeats of idle nodes it skips.
	AfterEvent func(*Sim)
	// EveryHeartbeat makes the engine process every heartbeat, also those
	// of idle nodes that change nothing (see idle.go): the reference the
	// shortcut is tested against. Results are the same either way.
	EveryHeartbeat bool
}

// Sim is one run of the cluster model.
type Sim struct {
	cfg    Config
	model  Model
	policy *Policy
	now    Ms
	seq    uint64
	cur    event // the event being processed (order.go)
	queue  eventQueue
	bounds boundaryQueue // each node's next phase boundary
	beats  fifoQueue     // heartbeats of nodes that are not idle, in order
	wakes  eventQueue    // first heartbeats of nodes taken out of the idle set
	ready  eventQueue    // engine events: a job's AM has started up (idle.go)
	idle   idleSet
	pos    pos // the last event processed (real or skipped)
	rng    *Rand
	// replicaBuf is where placeBlock carves map input blocks from.
	replicaBuf []int32
	rackNodes  [][]int32 // the nodes of each rack
	rackOf     []int32   // each node's rack
	stages     []*Stage  // every job's stages (slot.prev indexes them)
	gateBuf    []float64 // recompute's scratch: each container's shuffle gate

	Nodes    []*Node
	Jobs     []*Job
	Tasks    []*Task
	racks    int
	capacity Res

	waiting  []*Job  // submitted, not admitted, in submission order
	active   []*Job  // admitted, not done, in admission order
	asking   []*Job  // admitted jobs with HasPending, in admission order
	reserved []*Node // nodes with a reservation, in no order
	admitted int     // jobs admitted so far
	jobsLeft int
	arrived  int

	dirty      []*Node
	dirtySpare []*Node
	listeners  []TaskListener
	jobLis     []JobListener

	lastProgress Ms
	ended        bool
	stuck        bool
	truncated    bool

	stats    Stats
	acct     accounting
	records  []TaskRecord
	timeline []Sample
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
	s := &Sim{cfg: cfg, model: cfg.Model.withDefaults(), policy: cfg.Policy}
	s.rng = NewRand(DeriveSeed(cfg.Seed, HashString("sim")))
	if s.cfg.StallMs <= 0 {
		s.cfg.StallMs = 3600 * MsPerS
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
		s.Nodes = append(s.Nodes, &Node{ID: int32(i), Spec: ns, boundaryAt: -1, pollAt: -1, lastReduce: -1,
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
	for _, part := range s.parts() {
		if l, ok := part.(TaskListener); ok {
			s.listeners = append(s.listeners, l)
		}
		if l, ok := part.(JobListener); ok {
			s.jobLis = append(s.jobLis, l)
		}
	}
	s.jobsLeft = len(s.Jobs)
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
		s.schedule(c.ControlIntervalMs(), evControl, int32(i))
	}
	if cfg.TimelineMs > 0 {
		s.schedule(0, evSample, 0)
	}
	s.schedule(s.model.AMTickMs, evAMTick, 0)
	return s, nil
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

func (s *Sim) addJob(spec *JobSpec, maxCap Res, build bool) error {
	j := &Job{ID: int32(len(s.Jobs)), Spec: spec, StartMs: -1, FinishMs: -1, active: -1}
	if spec.SubmitMs < 0 {
		return fmt.Errorf("job %q: negative submit time", spec.Name)
	}
	if len(spec.Stages) == 0 {
		return fmt.Errorf("job %q has no stages", spec.Name)
	}
	// The job's tasks are allocated together (see Task).
	n := 0
	for si := range spec.Stages {
		n += len(spec.Stages[si].DurationsMs)
	}
	if !spec.AM.IsZero() {
		n++
	}
	var chunk []Task
	if build {
		chunk = make([]Task, n)
	}
	if !spec.AM.IsZero() {
		if !spec.AM.Fits(maxCap) {
			return fmt.Errorf("job %q: AM request %v is larger than any node", spec.Name, spec.AM)
		}
		if build {
			j.AM = s.newTask(&chunk[0], j, nil, 0, KindAM, spec.AM, 0, AMProfile)
			chunk = chunk[1:]
		}
	}
	for si := range spec.Stages {
		ss := &spec.Stages[si]
		if ss.Req.VCores < 0 || ss.Req.MemMB < 0 || ((ss.Req.VCores == 0 || ss.Req.MemMB == 0) && !s.slotOnlyOK(ss.Kind)) {
			return fmt.Errorf("job %q stage %q: request %v must be positive (zero only for reducers on typed-slot nodes)", spec.Name, ss.Name, ss.Req)
		}
		if !ss.Req.Fits(maxCap) {
			return fmt.Errorf("job %q stage %q: request %v is larger than any node", spec.Name, ss.Name, ss.Req)
		}
		if len(ss.DurationsMs) == 0 {
			return fmt.Errorf("job %q stage %q has no tasks", spec.Name, ss.Name)
		}
		if ss.Profile == nil {
			return fmt.Errorf("job %q stage %q has no usage profile", spec.Name, ss.Name)
		}
		if err := ss.Profile.Validate(); err != nil {
			return fmt.Errorf("job %q stage %q: %w", spec.Name, ss.Name, err)
		}
		if ss.MaxRunning < 0 {
			return fmt.Errorf("job %q stage %q: max running %d is negative", spec.Name, ss.Name, ss.MaxRunning)
		}
		if ss.SlowStart < 0 || ss.SlowStart > 1 {
			return fmt.Errorf("job %q stage %q: slow-start %v outside [0, 1]", spec.Name, ss.Name, ss.SlowStart)
		}
		if ss.Profiles != nil && len(ss.Profiles) != len(ss.DurationsMs) {
			return fmt.Errorf("job %q stage %q: %d per-task profiles for %d tasks", spec.Name, ss.Name, len(ss.Profiles), len(ss.DurationsMs))
		}
		if ss.Hosts != nil && len(ss.Hosts) != len(ss.DurationsMs) {
			return fmt.Errorf("job %q stage %q: %d host hints for %d tasks", spec.Name, ss.Name, len(ss.Hosts), len(ss.DurationsMs))
		}
		for ti, p := range ss.Profiles {
			if p == nil {
				continue
			}
			if err := p.Validate(); err != nil {
				return fmt.Errorf("job %q stage %q task %d: %w", spec.Name, ss.Name, ti, err)
			}
		}
		if !build {
			for ti, d := range ss.DurationsMs {
				if d < 0 {
					return fmt.Errorf("job %q stage %q task %d: negative duration", spec.Name, ss.Name, ti)
				}
			}
			continue
		}
		st := &Stage{Index: si, Spec: ss, Tasks: make([]*Task, 0, len(ss.DurationsMs)), id: int32(len(s.stages))}
		s.stages = append(s.stages, st)
		st.phases = ss.Profile.Phases
		replicas := ss.BlockReplicas
		if replicas <= 0 {
			replicas = s.model.Replicas
		}
		for ti, d := range ss.DurationsMs {
			if d < 0 {
				return fmt.Errorf("job %q stage %q task %d: negative duration", spec.Name, ss.Name, ti)
			}
			prof := ss.Profile
			if ss.Profiles != nil && ss.Profiles[ti] != nil {
				prof = ss.Profiles[ti]
			}
			t := s.newTask(&chunk[0], j, st, ti, ss.Kind, ss.Req, d, prof)
			chunk = chunk[1:]
			if ss.Kind == KindMap {
				if ss.Hosts != nil && ss.Hosts[ti] >= 0 {
					t.Replicas = []int32{ss.Hosts[ti] % int32(len(s.Nodes))}
				} else {
					t.Replicas = s.placeBlock(replicas)
				}
			}
			st.Tasks = append(st.Tasks, t)
			j.tasksLeft++
		}
		j.Stages = append(j.Stages, st)
	}
	if build {
		s.Jobs = append(s.Jobs, j)
	}
	return nil
}

// taskLabel derives each task's usage-noise seed (DeriveSeed).
var taskLabel = HashString("task")

func (s *Sim) newTask(t *Task, j *Job, st *Stage, idx int, kind TaskKind, req Res, dur Ms, prof *Profile) *Task {
	*t = Task{ID: int32(len(s.Tasks)), Job: j, Stage: st, Index: idx, Kind: kind, Req: req, DurMs: dur,
		phases: prof.Phases, prof: prof, StartMs: -1, FirstStartMs: -1, FinishMs: -1, pos: -1, pollAt: -1}
	t.rngSeed = DeriveSeed(s.cfg.Seed, taskLabel, uint64(t.ID))
	t.abs = kind != KindAM && prof.Absolute
	t.jit = prof.Jitter
	s.Tasks = append(s.Tasks, t)
	return t
}

// placeBlock places an HDFS-like block: the first replica on a random node,
// the second on a node of another rack, the rest on the second one's rack
// (HDFS's default placement policy).
func (s *Sim) placeBlock(replicas int) []int32 {
	n := len(s.Nodes)
	if replicas > n {
		replicas = n
	}
	// Blocks are placed once and never change: carve them from a shared
	// buffer rather than allocating each.
	if cap(s.replicaBuf)-len(s.replicaBuf) < replicas {
		s.replicaBuf = make([]int32, 0, max(4096, replicas))
	}
	out := s.replicaBuf[len(s.replicaBuf) : len(s.replicaBuf) : len(s.replicaBuf)+replicas]
	s.replicaBuf = s.replicaBuf[:len(s.replicaBuf)+replicas]
	has := func(id int32) bool {
		for _, x := range out {
			if x == id {
				return true
			}
		}
		return false
	}
	first := int32(s.rng.IntN(n))
	out = append(out, first)
	for len(out) < replicas {
		var want func(int32) bool
		switch {
		case len(out) == 1 && s.racks > 1:
			r := s.rackOf[first]
			want = func(x int32) bool { return s.rackOf[x] != r }
		case len(out) >= 2:
			r := s.rackOf[out[1]]
			if members := s.rackNodes[r]; n > directRackDraw*len(members) {
				// Drawing nodes of the whole cluster until one is on rack
				// r would take n/len(members) draws: draw among its
				// members instead (the same uniform choice).
				out = append(out, s.drawOnRack(members, r, out, has))
				continue
			}
			want = func(x int32) bool { return s.rackOf[x] == r }
		default:
			want = func(int32) bool { return true }
		}
		picked := int32(-1)
		for try := 0; try < 4*n && picked < 0; try++ {
			c := int32(s.rng.IntN(n))
			if !has(c) && want(c) {
				picked = c
			}
		}
		if picked < 0 { // no node fits the rack rule: take any other node
			for try := 0; picked < 0; try++ {
				c := int32(s.rng.IntN(n))
				if !has(c) {
					picked = c
				}
			}
		}
		out = append(out, picked)
	}
	return out
}

// directRackDraw: placeBlock draws a replica on a given rack among the
// rack's nodes when the cluster has more than this many times as many nodes
// (a large cluster of small racks); below, it draws from the whole cluster
// until a node of the rack comes up, as it always has (the same results as
// before for every cluster of up to 64 racks' worth of nodes).
const directRackDraw = 64

// drawOnRack picks a node of members (rack r) not yet holding a replica
// (out), uniformly, or if every one does, any node that does not.
func (s *Sim) drawOnRack(members []int32, r int32, out []int32, has func(int32) bool) int32 {
	free := len(members)
	for _, x := range out {
		if s.rackOf[x] == r {
			free--
		}
	}
	if free > 0 {
		k := s.rng.IntN(free)
		for _, m := range members {
			if !has(m) {
				if k == 0 {
					return m
				}
				k--
			}
		}
	}
	for {
		if c := int32(s.rng.IntN(len(s.Nodes))); !has(c) {
			return c
		}
	}
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
	consider(s.idleCursor(), srcIdle)
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

// Active returns the admitted, unfinished jobs in admission order.
func (s *Sim) Active() []*Job { return s.active }

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
		c.Control(s)
		s.tryAdmit()
		s.schedule(s.now+c.ControlIntervalMs(), evControl, ev.id)
	case evSample:
		s.sample()
		s.schedule(s.now+s.cfg.TimelineMs, evSample, 0)
	case evAMTick:
		s.preemptReducers()
		s.schedule(s.now+s.model.AMTickMs, evAMTick, 0)
	}
}

func (s *Sim) arrive(j *Job) {
	j.State = JobWaiting
	s.arrived++
	if next := int(j.ID) + 1; next < len(s.Jobs) {
		s.schedule(s.Jobs[next].Spec.SubmitMs, evArrival, int32(next))
	}
	s.waiting = append(s.waiting, j)
	s.idle.cursorOK = false
	s.progress()
	for _, l := range s.jobLis {
		l.JobArrived(s, j)
	}
	s.tryAdmit()
}

// tryAdmit admits waiting jobs in submission order until one is refused.
func (s *Sim) tryAdmit() {
	admitted := 0
	for _, j := range s.waiting {
		ok := true
		for _, a := range s.policy.Admission {
			if !a.Admit(s, j) {
				ok = false
				break
			}
		}
		if !ok {
			break
		}
		s.admit(j)
		admitted++
	}
	if admitted > 0 {
		s.waiting = append(s.waiting[:0], s.waiting[admitted:]...)
		s.idle.cursorOK = false
	}
}

func (s *Sim) admit(j *Job) {
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
	if s.now >= n.nextSample {
		s.sampleUsage(n)
		n.nextSample = s.now + s.model.UsageSampleMs
	}
	for _, m := range s.policy.Monitors {
		m.Monitor(s, n)
	}
	if len(s.waiting) > 0 {
		s.tryAdmit()
	}
	if len(s.active) > 0 {
		s.policy.Allocate.Allocate(s, n)
	}
	// Anything that changed the node (a launch, a kill, a usage sample, a
	// phase end) has marked it dirty already.
	s.beatDone(n)
}

func (s *Sim) progress() { s.lastProgress = s.now }

// stalled reports whether no task is making progress (run only after
// StallMs without a start, finish or arrival).
func (s *Sim) stalled() bool {
	for _, n := range s.Nodes {
		for i, t := range n.Containers {
			if t.Kind != KindAM && n.slots[i].rate > 0 {
				s.progress()
				return false
			}
		}
	}
	return true
}

func (s *Sim) finish(stuck bool) {
	s.stats.Events += s.virtualEvents()
	s.ended = true
	s.stuck = stuck
	for _, n := range s.Nodes {
		s.advance(n)
		s.Unreserve(n) // the jobs below stop being admitted
	}
	s.acct.integrate(s.now)
	for _, j := range s.Jobs {
		if j.State == JobDone {
			continue
		}
		if stuck {
			j.State = JobStuck
		} else {
			j.State = JobUnfinished
		}
		j.active = -1
	}
	// Every job is now done, stuck or unfinished: none waits or runs.
	s.waiting, s.active = nil, nil
	for _, j := range s.asking {
		j.asking = false
	}
	s.asking = nil
}

// stallSkipped makes the model's stall check at the skipped heartbeats of
// idle nodes before e: the check runs after every event, so a stall is
// declared at the first heartbeat more than StallMs after the last progress,
// whether or not the engine processes it. It reports whether it handled one
// (the run may have ended).
func (s *Sim) stallSkipped(e *event, until Ms) bool {
	if !s.idle.on || s.idle.count == 0 || s.arrived != len(s.Jobs) || s.jobsLeft == 0 {
		return false
	}
	th := s.lastProgress + s.cfg.StallMs
	if e.at <= th || !s.quiet() {
		return false // no skipped heartbeat after th comes first, or none is skipped
	}
	from := s.pos
	if from.at < th {
		from = pos{at: th, ord: math.MaxInt32}
	}
	v, ok := s.nextIdleBeat(from)
	if !ok || !v.before(e) || v.at >= until || (s.cfg.MaxMs > 0 && v.at > s.cfg.MaxMs) {
		return false
	}
	s.now = v.at
	s.pos = pos{at: v.at, ord: v.ord}
	if s.stalled() {
		s.finish(true)
	}
	return true
}
