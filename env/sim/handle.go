package sim

// A Handle is what a policy part sees of a run: the cluster to read and the
// scheduler's actions to take, and nothing of the run itself (no Run,
// Summary or Stats, no engine field to write). The engine passes its handle
// to every part at each decision point (Allocator, NodeMonitor, Controller,
// Admitter and the listeners), as the Kubernetes scheduler framework gives
// its plugins a framework.Handle; a part that needs the run between calls
// (a state variable read by observations, an order's comparison) keeps the
// handle it was given, never the *Sim.
//
// Jobs, tasks and nodes come back as the engine's own records: a part reads
// their fields and changes them only through the actions below. A test can
// give a part a fake Handle and call it without a simulation
// (yarngym/internal/fakehandle).
type Handle interface {
	// The clock and the cluster.

	Now() Ms                // the current simulated time
	Nodes() []*Node         // every node, by ID
	Jobs() []*Job           // every job, by ID (in submission order); AM and Stages nil before it arrives and once its application is removed (Config.KeepTasks)
	Task(id int32) *Task    // the task of ID id, of a job arrived; nil once its application is removed (unless Config.KeepTasks)
	TaskIDs() int32         // task IDs handed out so far: every ID is below it
	Capacity() Res          // the cluster's total capacity
	Allocated() Res         // what guaranteed containers hold, cluster-wide
	ReservedNodes() []*Node // the nodes holding a reservation

	// The jobs by where they are in their lives.

	Waiting() []*Job   // submitted, not yet admitted, in submission order
	Active() []*Job    // admitted and not finished, in admission order
	Asking() []*Job    // the active jobs with a request outstanding (HasPending)
	Finishing() []*Job // done, their last containers not yet released
	// AdmitPass numbers the engine's passes over the waiting jobs (each
	// Admitter sees the jobs of one pass in order). Within one pass only
	// admissions change the cluster, each job admitted appended to
	// Active, so an Admitter may keep what it derives from the cluster
	// while the number stays the same.
	AdmitPass() int64
	// Epoch changes whenever a container is granted, shrunk, rebound to
	// another task or given back, a task changes state, or a job is
	// admitted, finishes or has its application removed. A part that
	// derives sums from containers, task states and the job lists (a
	// pool's occupied containers, a queue's AM usage) may keep them while
	// the number stays the same: they would come out the same, bit for bit.
	Epoch() int64

	// How the scheduler sizes and compares requests (Policy.Normalize,
	// Policy.Calculator).

	Normalization() Normalization
	Normalized(r Res) Res
	CalcOn(n *Node) Calculator
	FitsFree(r Res, n *Node) bool

	// A job's requests: what it asks for, and where.

	HasPending(j *Job) bool
	NextTask(j *Job, n *Node, max Locality) *Task
	NextTaskInStage(j *Job, stage int, n *Node, max Locality) *Task
	Requestable(t *Task) bool
	StillAsked(t *Task) bool
	AsksFor(t *Task, n *Node) bool
	LocationAsks(st *Stage) (n int, ok bool)
	LocalityOf(t *Task, n *Node) Locality
	ContainerLevel(t *Task, n *Node) Locality
	GivenLevel(t *Task) Locality

	// The scheduler's actions.

	Launch(t *Task, n *Node, kind ContainerKind) error
	LaunchTyped(t *Task, n *Node, kind ContainerKind, level Locality) error
	LaunchShrunk(t *Task, n *Node, alloc Res) error
	Reserve(n *Node, t *Task) error
	ReserveRequest(n *Node, t *Task)
	Unreserve(n *Node)
	Kill(t *Task) error
	Preempt(t *Task) error
	Suspend(t *Task) error
	Shrink(t *Task, vcores int64) error
	SwapOut(t *Task, swapIn Ms) error
	Resume(t *Task) error
}

// Handle is the run's handle, the one the engine gives its policy's parts.
func (s *Sim) Handle() Handle { return s.handle }

// handle is a Sim seen through Handle: a part given one cannot reach the
// engine behind it (the field is unexported), only the methods below.
type handle struct{ s *Sim }

func (h *handle) Now() Ms                { return h.s.now }
func (h *handle) Nodes() []*Node         { return h.s.Nodes }
func (h *handle) Jobs() []*Job           { return h.s.Jobs }
func (h *handle) Task(id int32) *Task    { return h.s.Task(id) }
func (h *handle) TaskIDs() int32         { return h.s.TaskIDs() }
func (h *handle) Capacity() Res          { return h.s.capacity }
func (h *handle) Allocated() Res         { return h.s.acct.allocG }
func (h *handle) Epoch() int64           { return h.s.epoch }
func (h *handle) ReservedNodes() []*Node { return h.s.reserved }
func (h *handle) Waiting() []*Job        { return h.s.waiting }
func (h *handle) Active() []*Job         { return h.s.active }
func (h *handle) Asking() []*Job         { return h.s.asking }
func (h *handle) Finishing() []*Job      { return h.s.finishing }
func (h *handle) AdmitPass() int64       { return h.s.admitPass }

func (h *handle) Normalization() Normalization  { return h.s.policy.Normalize }
func (h *handle) Normalized(r Res) Res          { return h.s.Normalized(r) }
func (h *handle) CalcOn(n *Node) Calculator     { return h.s.CalcOn(n) }
func (h *handle) FitsFree(r Res, n *Node) bool  { return h.s.FitsFree(r, n) }
func (h *handle) HasPending(j *Job) bool        { return h.s.HasPending(j) }
func (h *handle) Requestable(t *Task) bool      { return h.s.Requestable(t) }
func (h *handle) StillAsked(t *Task) bool       { return h.s.StillAsked(t) }
func (h *handle) AsksFor(t *Task, n *Node) bool { return h.s.AsksFor(t, n) }
func (h *handle) GivenLevel(t *Task) Locality   { return h.s.GivenLevel(t) }
func (h *handle) NextTask(j *Job, n *Node, max Locality) *Task {
	return h.s.NextTask(j, n, max)
}
func (h *handle) NextTaskInStage(j *Job, stage int, n *Node, max Locality) *Task {
	return h.s.NextTaskInStage(j, stage, n, max)
}
func (h *handle) LocationAsks(st *Stage) (int, bool)             { return h.s.LocationAsks(st) }
func (h *handle) LocalityOf(t *Task, n *Node) Locality           { return h.s.LocalityOf(t, n) }
func (h *handle) ContainerLevel(t *Task, n *Node) Locality       { return h.s.ContainerLevel(t, n) }
func (h *handle) Launch(t *Task, n *Node, k ContainerKind) error { return h.s.Launch(t, n, k) }
func (h *handle) LaunchTyped(t *Task, n *Node, k ContainerKind, l Locality) error {
	return h.s.LaunchTyped(t, n, k, l)
}
func (h *handle) LaunchShrunk(t *Task, n *Node, alloc Res) error {
	return h.s.LaunchShrunk(t, n, alloc)
}
func (h *handle) Reserve(n *Node, t *Task) error     { return h.s.Reserve(n, t) }
func (h *handle) ReserveRequest(n *Node, t *Task)    { h.s.ReserveRequest(n, t) }
func (h *handle) Unreserve(n *Node)                  { h.s.Unreserve(n) }
func (h *handle) Kill(t *Task) error                 { return h.s.Kill(t) }
func (h *handle) Preempt(t *Task) error              { return h.s.Preempt(t) }
func (h *handle) Suspend(t *Task) error              { return h.s.Suspend(t) }
func (h *handle) SwapOut(t *Task, swapIn Ms) error   { return h.s.SwapOut(t, swapIn) }
func (h *handle) Resume(t *Task) error               { return h.s.Resume(t) }
func (h *handle) Shrink(t *Task, vcores int64) error { return h.s.Shrink(t, vcores) }
