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
	// AfterEvent, if set, is called after every event (invariant tests).
	AfterEvent func(*Sim)
}

// Sim is one run of the cluster model.
type Sim struct {
	cfg    Config
	model  Model
	policy *Policy
	now    Ms
	seq    uint64
	queue  eventQueue
	beats  fifoQueue // heartbeats, in time order
	rng    *Rand

	Nodes    []*Node
	Jobs     []*Job
	Tasks    []*Task
	racks    int
	capacity Res

	waiting  []*Job // submitted, not admitted, in submission order
	active   []*Job // admitted, not done, in admission order
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
func New(cfg Config) (*Sim, error) {
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
		s.Nodes = append(s.Nodes, &Node{ID: int32(i), Spec: ns, boundaryAt: -1, lastReduce: -1})
	}
	order := make([]int, len(cfg.Jobs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return cfg.Jobs[order[a]].SubmitMs < cfg.Jobs[order[b]].SubmitMs })
	for _, ji := range order {
		if err := s.addJob(&cfg.Jobs[ji], maxCap); err != nil {
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
	if len(s.Jobs) > 0 {
		// Jobs are sorted by submission: each arrival schedules the next.
		s.schedule(s.Jobs[0].Spec.SubmitMs, evArrival, 0, 0)
	}
	hb := s.model.HeartbeatMs
	for i, n := range s.Nodes {
		// Stagger heartbeats evenly over one interval, as real NMs drift.
		s.scheduleBeat(Ms(i)*hb/Ms(len(s.Nodes)), n.ID)
	}
	for i, c := range cfg.Policy.Controls {
		if c.ControlIntervalMs() <= 0 {
			return nil, fmt.Errorf("policy %s: control cycle %d has a non-positive interval", cfg.Policy.Name, i)
		}
		s.schedule(c.ControlIntervalMs(), evControl, int32(i), 0)
	}
	if cfg.TimelineMs > 0 {
		s.schedule(0, evSample, 0, 0)
	}
	s.schedule(s.model.AMTickMs, evAMTick, 0, 0)
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

func (s *Sim) addJob(spec *JobSpec, maxCap Res) error {
	j := &Job{ID: int32(len(s.Jobs)), Spec: spec, StartMs: -1, FinishMs: -1, active: -1}
	if spec.SubmitMs < 0 {
		return fmt.Errorf("job %q: negative submit time", spec.Name)
	}
	if !spec.AM.IsZero() {
		if !spec.AM.Fits(maxCap) {
			return fmt.Errorf("job %q: AM request %v is larger than any node", spec.Name, spec.AM)
		}
		j.AM = s.newTask(j, nil, 0, KindAM, spec.AM, 0, AMProfile)
	}
	if len(spec.Stages) == 0 {
		return fmt.Errorf("job %q has no stages", spec.Name)
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
		st := &Stage{Index: si, Spec: ss}
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
			t := s.newTask(j, st, ti, ss.Kind, ss.Req, d, prof)
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
	s.Jobs = append(s.Jobs, j)
	return nil
}

func (s *Sim) newTask(j *Job, st *Stage, idx int, kind TaskKind, req Res, dur Ms, prof *Profile) *Task {
	t := &Task{ID: int32(len(s.Tasks)), Job: j, Stage: st, Index: idx, Kind: kind, Req: req, DurMs: dur,
		phases: prof.Phases, prof: prof, StartMs: -1, FirstStartMs: -1, FinishMs: -1, pos: -1}
	t.rngSeed = DeriveSeed(s.cfg.Seed, HashString("task"), uint64(t.ID))
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
	out := make([]int32, 0, replicas)
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
		var want func(*Node) bool
		switch {
		case len(out) == 1 && s.racks > 1:
			r := s.Nodes[first].Spec.Rack
			want = func(x *Node) bool { return x.Spec.Rack != r }
		case len(out) >= 2:
			r := s.Nodes[out[1]].Spec.Rack
			want = func(x *Node) bool { return x.Spec.Rack == r }
		default:
			want = func(*Node) bool { return true }
		}
		picked := int32(-1)
		for try := 0; try < 4*n && picked < 0; try++ {
			c := int32(s.rng.IntN(n))
			if !has(c) && want(s.Nodes[c]) {
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

func (s *Sim) schedule(at Ms, kind eventKind, id int32, epoch uint32) {
	s.seq++
	s.queue.push(event{at: at, seq: s.seq, id: id, epoch: epoch, kind: kind})
}

// scheduleBeat queues a heartbeat; at must not be before any queued one.
func (s *Sim) scheduleBeat(at Ms, node int32) {
	s.seq++
	s.beats.push(event{at: at, seq: s.seq, id: node, kind: evHeartbeat})
}

// next returns the earliest pending event of the heap and the heartbeat
// FIFO, without removing it, or nil.
func (s *Sim) next() (e *event, fromBeats bool) {
	switch {
	case s.beats.size == 0 && s.queue.len() == 0:
		return nil, false
	case s.beats.size == 0:
		return s.queue.peek(), false
	case s.queue.len() == 0:
		return s.beats.peek(), true
	}
	h, b := s.queue.peek(), s.beats.peek()
	if b.before(h) {
		return b, true
	}
	return h, false
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
		e, fromBeats := s.next()
		if e == nil {
			s.finish(false)
			break
		}
		if e.at >= until {
			s.now = until
			return false
		}
		if s.cfg.MaxMs > 0 && e.at > s.cfg.MaxMs {
			s.now = s.cfg.MaxMs
			s.truncated = true
			s.finish(false)
			break
		}
		var ev event
		if fromBeats {
			ev = s.beats.pop()
		} else {
			ev = s.queue.pop()
		}
		if ev.kind == evBoundary && ev.epoch != s.Nodes[ev.id].epoch {
			continue // superseded by a later recompute: not an event of the model
		}
		s.now = ev.at
		s.acct.integrate(s.now)
		s.stats.Events++
		s.dispatch(ev)
		s.flushDirty()
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
		s.schedule(s.now+c.ControlIntervalMs(), evControl, ev.id, 0)
	case evSample:
		s.sample()
		s.schedule(s.now+s.cfg.TimelineMs, evSample, 0, 0)
	case evAMTick:
		s.preemptReducers()
		s.schedule(s.now+s.model.AMTickMs, evAMTick, 0, 0)
	}
}

func (s *Sim) arrive(j *Job) {
	j.State = JobWaiting
	s.arrived++
	if next := int(j.ID) + 1; next < len(s.Jobs) {
		s.schedule(s.Jobs[next].Spec.SubmitMs, evArrival, int32(next), 0)
	}
	s.waiting = append(s.waiting, j)
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
	}
}

func (s *Sim) admit(j *Job) {
	j.State = JobAdmitted
	j.AdmitMs = s.now
	j.active = len(s.active)
	s.active = append(s.active, j)
	s.progress()
	if j.AM == nil {
		s.releaseReady(j)
	}
}

func (s *Sim) heartbeat(n *Node) {
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
	s.scheduleBeat(s.now+s.model.HeartbeatMs, n.ID)
}

func (s *Sim) progress() { s.lastProgress = s.now }

// stalled reports whether no task is making progress (run only after
// StallMs without a start, finish or arrival).
func (s *Sim) stalled() bool {
	for _, n := range s.Nodes {
		for _, t := range n.Containers {
			if t.Kind != KindAM && t.rate > 0 {
				s.progress()
				return false
			}
		}
	}
	return true
}

func (s *Sim) finish(stuck bool) {
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
}
