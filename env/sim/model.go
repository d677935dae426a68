package sim

// TaskState is where a task is in its life.
type TaskState uint8

const (
	TaskPending   TaskState = iota // waiting for a container (again, after a kill)
	TaskRunning                    // in a container, progressing
	TaskSuspended                  // in a container, CPU freed, memory kept unless swapped out (iKayak)
	TaskDone                       // finished; a task ends exactly once
)

// ContainerKind is how a container was granted.
type ContainerKind uint8

const (
	Guaranteed    ContainerKind = iota // counted against capacity; never killed by the model
	Opportunistic                      // runs on idle resources; may be killed
)

func (k ContainerKind) String() string {
	if k == Opportunistic {
		return "opportunistic"
	}
	return "guaranteed"
}

// Locality is how close a map ran to a replica of its input block.
type Locality uint8

const (
	NodeLocal Locality = iota
	RackLocal
	OffRack
)

var localityNames = [...]string{"node-local", "rack-local", "off-rack"}

func (l Locality) String() string { return localityNames[l] }

// Outcome is how a task attempt ended.
type Outcome uint8

const (
	Finished Outcome = iota
	Killed
)

func (o Outcome) String() string {
	if o == Killed {
		return "killed"
	}
	return "done"
}

// Node is a node of the cluster at run time.
//
// The fields read on every event of the node come first (the first cache
// line: advance; the next two: recompute), with copies of the constants
// recompute needs from Spec.
type Node struct {
	// slots[i] is the progress of Containers[i]: the loops that run on every
	// event of the node read this dense array, not the tasks.
	slots []slot
	// Containers are the tasks holding a container here (running or
	// suspended, AMs included), in launch order.
	Containers  []*Task
	lastAdvance Ms
	ID          int32
	dirty       bool
	swapping    bool
	// releasing holds the finished containers whose resources the node
	// frees at its next heartbeat (release.go); releaseDue that heartbeat's
	// time, -1 if none is due.
	releasing  []released
	releaseDue Ms
	// removing holds the ended jobs whose AM container the node has just
	// reported complete: their applications are removed right after the
	// node's heartbeat (release.go).
	removing []*Job
	// staleResv: Reserved's request was met elsewhere; the scheduler
	// drops the reservation at the node's next heartbeat (rm.go).
	staleResv bool
	asleep    bool // in the idle set: its heartbeats are not queued

	boundaryAt Ms // time of the pending boundary event, -1 if none
	pollAt     Ms // earliest poll due of a reducer here (Task.pollAt), -1 if none
	// Demand is the sum of the containers' actual usage.
	Demand     Usage
	cpuUsedEff float64 // min(Demand.CPU, cap) less what waiting tasks leave idle: CPU actually consumed
	// cpuWork is the CPU the node's containers consumed up to cpuWorkAt,
	// in vCore-seconds (cpuUsedEff integrated over time): CPUWork.
	cpuWork    float64
	cpuWorkAt  Ms
	cores      float64    // Spec.Cores
	diskMBps   float64    // Spec.DiskMBps
	memCap     float64    // Spec.Cap.MemMB
	speed      float64    // Spec.Speed
	shares     [3]float64 // CPU share, IO share and swap factor at the last recompute
	lastBeat   Ms         // its last processed heartbeat (idle.go)
	nextSample Ms

	Spec NodeSpec
	// Alloc is the guaranteed allocation, which never exceeds Spec.Cap.
	Alloc Res
	// OppAlloc is the opportunistic allocation, on top of Alloc.
	OppAlloc Res
	// Reserved is the task this node is reserved for (YARN reserves a node
	// for a request that does not fit yet), or nil.
	Reserved *Task
	// SwapMs is how long actual memory demand exceeded capacity here.
	SwapMs Ms

	lastReduce Ms              // when a reducer last launched here (typed slots), -1 before
	held       []heldContainer // preempted containers not yet reported complete (release.go)
	resvAt     int             // index in Sim.reserved while Reserved is set
}

// slot is the progress of a task in a container.
type slot struct {
	left  float64 // work left in the task's phase, in nominal seconds
	rate  float64 // nominal seconds of work per simulated second
	total float64 // a gated shuffle's phase work (Task.work)
	prev  int32   // a shuffle's gating stage (index in Sim.stages), -1 if its gate is left itself
	flags uint8   // slotDirty, slotRun, ...
	// wait is the part of its CPU share the task leaves idle while it
	// waits on its disk, a remote read, swap or a spill: 1 - rate / (the rate its
	// CPU share alone would give). Set with the rate (rateOf); 0 when the
	// task is not progressing at a rate (not running, gated, stalled).
	wait float64
	// cpu is the task's Use.CPU (applyUsage keeps it), read here by
	// cpuConsumed on every recompute without touching the task.
	cpu float64
}

// Free is the capacity not guaranteed to any container.
func (n *Node) Free() Res { return n.Spec.Cap.Sub(n.Alloc) }

// CPUWork returns the CPU time the node's containers consumed from the
// run's start to now, in vCore-seconds: what a NodeManager's
// ContainersMonitorImpl reads from /proc for its containers' process trees
// (ProcfsBasedProcessTree.getCumulativeCpuTime), whose difference over a
// monitoring interval is the CPU usage it reports. Time a task spends
// waiting on its disk, a remote read or swap is not in it (Sim.cpuConsumed),
// nor CPU demand beyond the node's cores. now is the handle's Now.
func (n *Node) CPUWork(now Ms) float64 {
	return n.cpuWork + n.cpuUsedEff*float64(now-n.cpuWorkAt)/1000
}

// FitsFree reports whether r fits node n's free resources as the policy's
// Calculator compares them (with MemoryOnly, vCores are not compared).
func (s *Sim) FitsFree(r Res, n *Node) bool {
	return s.CalcOn(n).Fits(s.booked(r, n), n.Free())
}

// CalcOn is the calculator that decides fits on node n: the policy's, but
// every resource on a typed node, whose vCores are a Hadoop 1
// TaskTracker's map slots (a hard count, mapred.tasktracker.map.tasks.
// maximum), never over-committed whatever the scheduler compares.
func (s *Sim) CalcOn(n *Node) Calculator {
	if n.typed() {
		return EveryResource
	}
	return s.policy.Calc()
}

// Normalized is request r as the policy books it (Policy.Normalize).
func (s *Sim) Normalized(r Res) Res { return s.policy.Normalize.Apply(r) }

// Job is a job at run time.
type Job struct {
	ID   int32
	Spec *JobSpec
	// AM is the ApplicationMaster task, nil for jobs without one.
	AM     *Task
	Stages []*Stage
	// Alloc is what the job's containers hold (guaranteed and opportunistic).
	Alloc    Res
	OppAlloc Res
	// Running counts the job's containers (AM included).
	Running int

	State    JobState
	AdmitMs  Ms
	StartMs  Ms // first container start, -1 before
	FinishMs Ms

	tasksLeft    int
	unfreed      int               // its finished containers awaiting their nodes' heartbeats (release.go)
	relNodes     []int32           // nodes given its unfreed containers since unfreed was last 0, maybe repeated (release.go)
	amReadyMs    Ms                // when the AM has started up and requested its tasks
	active       int               // index in Sim.active
	admitSeq     int               // order of admission (1, 2, ...)
	asking       bool              // in Sim.asking: HasPending is true
	amBeat       bool              // an AM heartbeat is due (reduces.go)
	capped       bool              // a stage asks capped at MaxRunning (capped.go)
	hasExecutors bool              // a stage's containers are executors running partitions (executors.go)
	reported     int               // containers reported complete to the AM at its next allocate() (capped.go)
	excess       []excessContainer // containers beyond its maps, until released (asks.go)
}

// JobState is where a job is in its life.
type JobState uint8

const (
	JobFuture   JobState = iota // not yet submitted
	JobWaiting                  // submitted, waiting for admission
	JobAdmitted                 // admitted: AM requested or running, tasks requested
	JobDone
	JobStuck // could make no progress when the run ended
	JobUnfinished
)

var jobStateNames = [...]string{"future", "waiting", "admitted", "done", "stuck", "unfinished"}

func (s JobState) String() string { return jobStateNames[s] }

// Stage is a stage of a job at run time.
type Stage struct {
	Index int
	Spec  *StageSpec
	Tasks []*Task
	// Released is true once the stage's tasks are requested.
	Released bool
	Done     int
	// Pending counts tasks waiting for a container; Running those in one.
	Pending int
	Running int
	// heldG counts the stage's tasks that hold a guaranteed container
	// (running or suspended): HeldGuaranteed.
	heldG int
	// LastStartMs is when a task of the stage last started (0 before any).
	LastStartMs Ms

	// rampup: a MapReduce reduce stage whose AM asks for asked of its
	// pending reducers at a time (reduces.go).
	rampup bool
	asked  int
	// givenSince counts the reducers given since the AM's last heartbeat;
	// redBatch holds those bound to a reducer, in the order given.
	givenSince int
	// unreported counts the stage's containers whose task ended and whose
	// completion its AM has not yet been told (an allocate() response
	// reports a container once its node has: RMContainerAllocator keeps it
	// among the assigned until then); freedSince those of them freed since
	// the AM's last heartbeat.
	unreported, freedSince int
	redBatch               []*Task
	// asks: a map stage whose AM asks by location (asks.go); nil if not.
	asks *mapAsks
	// amSched is how many reducers the AM has scheduled and not yet
	// assigned a container (its own count); amChanged says it changed since
	// the AM last sent it (reduces.go).
	amSched   int
	amChanged bool
	// capped: a stage whose AM caps its asks at MaxRunning on its
	// heartbeat (capped.go); amLimit is its last request limit (-1: none
	// yet), amDirty says its any-node entry changed since the AM last sent
	// it, limitsDue that the limit is to be sent again.
	capped             bool
	amLimit            int
	amDirty, limitsDue bool
	// excess stand for containers the scheduler gives the stage beyond its
	// tasks (its AM releases them; asks.go): never in a container, not the
	// run's tasks.
	excess []*Task
	// idle are the stage's executor containers with no partition to run
	// (StageSpec.PartitionExecutors, executors.go), oldest first: held
	// until the job's last partition ends.
	idle []idleExecutor
	// waitReg: a capped executor stage whose driver does not yet schedule
	// tasks (spark.scheduler.minRegisteredResourcesRatio, executors.go).
	waitReg bool

	phases []Phase
	id     int32   // index in Sim.stages
	gated  int     // tasks in a container waiting for map outputs (Task.gated)
	queue  []*Task // FIFO of pending tasks; entries no longer pending are skipped
	head   int
	byNode map[int32][]*Task // maps waiting, by node holding a replica of their block
	byRack map[int][]*Task
	// awaiting are the stage's tasks in a container that know of every map
	// finished so far (their last poll saw them all): the next map's end
	// schedules their next poll (Model.ShuffleEventPollMs). Entries whose
	// task has left its container or already has a poll due are skipped.
	awaiting []*Task
}

// Task is one container's work at run time.
//
// The fields that the engine reads on every event of the task's node
// (recompute) come first, within one cache line; tasks are allocated a job
// at a time, so a job's tasks lie together in memory. The work left and the
// rate of a task in a container are its node's (Node.slots).
type Task struct {
	phases    []Phase
	phase     int
	State     TaskState
	Kind      TaskKind
	gated     bool // shuffle waiting for map outputs
	Container ContainerKind
	Locality  Locality
	abs       bool     // its profile's levels are absolute (Profile.Absolute)
	stall     Ms       // no progress before this time (paging back in), 0 if none
	given     Locality // the level its container was given at (asks.go)
	bound     bool     // in a container its AM has not yet assigned it (asks.go)
	taken     bool     // chosen by the batch being assigned (asks.go, assignBatch)

	Stage  *Stage // nil for an AM
	Job    *Job
	DurMs  Ms
	shrunk int64 // vCores the container was shrunk to, 0 if not shrunk
	// Use is the task's actual usage now.
	Use Usage
	Req Res
	// Sized marks a probe whose Req is a container size the policy has
	// decided (iKayak's shrunk maps, Alg. 3): a limit books it as is, not
	// normalized. Never set on the engine's own tasks.
	Sized bool
	// Alloc is what the container holds now: Req, less vCores freed by
	// suspension or shrinking.
	Alloc Res
	// jitCPU, jitMem, jitIO are the current usage fluctuation factors, jit
	// their profile's spread (Profile.Jitter).
	jitCPU, jitMem, jitIO, jit float64

	ID      int32
	Attempt int32
	Index   int
	// LaunchSeq orders containers by allocation (1, 2, ...; Hadoop's
	// container ids grow the same way): the newest has the largest.
	LaunchSeq int64
	pos       int // index in Node.Containers
	Node      *Node
	// Replicas are the nodes holding the task's input block (maps only).
	Replicas []int32
	// StartMs is when the current attempt started; FirstStartMs the first.
	StartMs      Ms
	FirstStartMs Ms
	FinishMs     Ms
	swapped      int64 // MB a suspended container's process had paged out (SwapOut)
	swapIn       Ms    // time the process needs on resume to page swapped back in
	rngSeed      uint64
	prof         *Profile // the task's usage profile: its stage's, or its own (StageSpec.Profiles)
	// reservedOn is the node reserved for this task, if any; extraResv
	// counts the further nodes reserved for its request (reserveAgain).
	reservedOn *Node
	extraResv  int32
	// known is how many tasks of the previous stage the task knows have
	// finished (its last poll, Model.ShuffleEventPollMs); pollAt its next
	// poll, -1 if none is due.
	known int32
	// runMs is when its process started (or starts): its container's
	// allocation, or its AM's pick-up (Model.AMHeartbeatMs).
	runMs  Ms
	pollAt Ms
	// reqMs is when its AM asked for the current attempt (its
	// ContainerRequest's requestTimeMs): at its stage's request, or when
	// the attempt before was killed.
	reqMs Ms
}

// RunMs is when the task's process started (or starts), its attempt's
// start in a job history: its container's allocation (StartMs), or later
// when its AM picks the container up (Model.AMHeartbeatMs).
func (t *Task) RunMs() Ms { return t.runMs }

// Profile returns the task's usage profile: its stage's, or its own when the
// stage gives per-task profiles (StageSpec.Profiles); AMProfile for an AM.
func (t *Task) Profile() *Profile { return t.prof }

// Phase returns the name of the task's current sub-phase.
func (t *Task) Phase() string {
	if t.phase < len(t.phases) {
		return t.phases[t.phase].Name
	}
	return "done"
}

// Progress returns the fraction of the attempt's work done.
func (t *Task) Progress() float64 {
	if t.State == TaskDone {
		return 1
	}
	if t.State == TaskPending || t.DurMs == 0 {
		return 0
	}
	total, done := 0.0, 0.0
	for i := range t.phases {
		w := t.work(i)
		total += w
		switch {
		case i < t.phase:
			done += w
		case i == t.phase:
			done += w - t.Node.slots[t.pos].left
		}
	}
	if total == 0 {
		return 0
	}
	return done / total
}

// Width is the most containers the stage asks for at once: its task count,
// or StageSpec.MaxRunning if that is smaller.
func (st *Stage) Width() int {
	if m := st.Spec.MaxRunning; m > 0 && m < len(st.Tasks) {
		return m
	}
	return len(st.Tasks)
}

// Asking is how many containers the stage asks for now: its pending tasks,
// no more than StageSpec.MaxRunning leaves room for (0 before release).
func (st *Stage) Asking() int {
	if !st.Released {
		return 0
	}
	if st.rampup || st.capped {
		return max(st.asked, 0) // may exceed Pending: excess containers
	}
	if st.asks != nil {
		return int(max(st.asks.rmAny, 0)) // may exceed Pending: excess containers
	}
	if m := st.Spec.MaxRunning; m > 0 && st.Pending > m-st.Held() {
		return max(m-st.Held(), 0)
	}
	return st.Pending
}

// Held is how many containers the stage holds: its tasks' (Running) and
// its idle executors' (StageSpec.PartitionExecutors).
func (st *Stage) Held() int { return st.Running + len(st.idle) }

// IdleGuaranteed is how many of the stage's idle executors hold a
// guaranteed container: with its running tasks', what the stage holds of
// the scheduler's guaranteed allocation.
func (st *Stage) IdleGuaranteed() int {
	k := 0
	for _, e := range st.idle {
		if e.kind == Guaranteed {
			k++
		}
	}
	return k
}

// HeldGuaranteed is how many of the stage's tasks hold a guaranteed
// container now, running or suspended (Running counts opportunistic ones
// too). Every task of a stage asks for the same resources (StageSpec.Req),
// so a policy that sums what the stage's tasks hold needs this count, not a
// scan of Tasks.
func (st *Stage) HeldGuaranteed() int { return st.heldG }

// Suspended reports whether the task is suspended.
func (t *Task) Suspended() bool { return t.State == TaskSuspended }

// Swapped reports whether a suspended task's memory has been paged out and
// released (Sim.SwapOut).
func (t *Task) Swapped() bool { return t.swapped > 0 }

// Gated reports whether a reducer is idling in shuffle, waiting for maps.
func (t *Task) Gated() bool { return t.gated }

// setGated sets t.gated, keeping its stage's count.
func (t *Task) setGated(g bool) {
	if g == t.gated {
		return
	}
	t.gated = g
	if g {
		t.Stage.gated++
	} else {
		t.Stage.gated--
	}
}

func (t *Task) work(i int) float64 {
	ph := &t.phases[i]
	if ph.Wall {
		return float64(ph.WallMs) / 1000
	}
	return ph.Frac * float64(t.DurMs) / 1000
}
