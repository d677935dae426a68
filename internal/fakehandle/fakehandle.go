// Package fakehandle is a sim.Handle without a simulation, for unit tests
// of policy parts (the Kubernetes scheduler framework tests its plugins on
// a fake framework.Handle the same way): a test lays out nodes and jobs in
// the state it wants, calls a part (an allocator's heartbeat, an
// admitter, an order), and reads what the part did from Log and from the
// books the fake keeps.
//
// The fake keeps the books a part reads (node, job and stage allocations
// and counts, task states, reservations) and nothing of the engine's
// timing: no task progresses, no event follows an action. Requests carry
// no location preference unless a task names Replicas (then it is
// node-local there and off-rack elsewhere: the fake has no racks).
package fakehandle

import (
	"fmt"

	"yarngym/env/sim"
)

// Cluster is the fake: its exported fields are the state a test sets.
type Cluster struct {
	NowMs sim.Ms
	// Norm and Calc are the scheduler's request normalization and
	// calculator (a policy's: see For).
	Norm sim.Normalization
	Calc sim.Calculator
	// Log lists the actions parts took, in order ("launch a/map/0 on n1",
	// "reserve n0 for b/map/2", ...).
	Log []string

	nodes          []*sim.Node
	jobs           []*sim.Job
	tasks          []*sim.Task
	passes, epochs int64
}

var _ sim.Handle = (*Cluster)(nil)

// New is a cluster of nodes with the given capacities (named n0, n1, ...),
// normalizing nothing, comparing every resource.
func New(caps ...sim.Res) *Cluster {
	c := &Cluster{Calc: sim.EveryResource}
	for i, r := range caps {
		c.nodes = append(c.nodes, &sim.Node{ID: int32(i), Spec: sim.NodeSpec{Name: fmt.Sprintf("n%d", i), Cap: r, Speed: 1}})
	}
	return c
}

// For takes policy p's normalization and calculator, after its Setup (as
// the engine builds a run).
func (c *Cluster) For(p *sim.Policy) *Cluster {
	if p.Setup != nil {
		p.Setup()
	}
	c.Norm, c.Calc = p.Normalize, p.Calc()
	return c
}

// Job describes a job to add: name, queue, its AM's request (zero: no AM)
// and one stage of Tasks tasks of kind Kind (KindGeneric if zero) asking
// for Req each.
type Job struct {
	Name, Queue string
	SubmitMs    sim.Ms
	AM          sim.Res
	Kind        sim.TaskKind
	Req         sim.Res
	Tasks       int
}

// AddJob adds an admitted job whose stage is requested: its tasks pending,
// and its AM too when it has one (NextTask offers the AM, and the tasks
// only once the AM runs, as the engine does).
func (c *Cluster) AddJob(spec Job) *sim.Job {
	j := c.newJob(spec)
	j.State, j.AdmitMs = sim.JobAdmitted, c.NowMs
	return j
}

// Submit adds a job waiting for admission (Handle.Waiting).
func (c *Cluster) Submit(spec Job) *sim.Job {
	j := c.newJob(spec)
	j.State = sim.JobWaiting
	return j
}

func (c *Cluster) newJob(spec Job) *sim.Job {
	kind := spec.Kind
	if kind == sim.KindAM { // the zero Kind: a stage's tasks are not AMs
		kind = sim.KindGeneric
	}
	js := &sim.JobSpec{Name: spec.Name, Queue: spec.Queue, SubmitMs: spec.SubmitMs, AM: spec.AM,
		Stages: []sim.StageSpec{{Name: "s", Kind: kind, Req: spec.Req, DurationsMs: make([]sim.Ms, spec.Tasks)}}}
	j := &sim.Job{ID: int32(len(c.jobs)), Spec: js, StartMs: -1}
	if spec.AM != (sim.Res{}) {
		j.AM = c.newTask(j, nil, sim.KindAM, spec.AM, 0)
	}
	st := &sim.Stage{Spec: &js.Stages[0], Released: true, Pending: spec.Tasks}
	for i := range spec.Tasks {
		st.Tasks = append(st.Tasks, c.newTask(j, st, kind, spec.Req, i))
	}
	j.Stages = []*sim.Stage{st}
	c.jobs = append(c.jobs, j)
	return j
}

func (c *Cluster) newTask(j *sim.Job, st *sim.Stage, kind sim.TaskKind, req sim.Res, i int) *sim.Task {
	t := &sim.Task{ID: int32(len(c.tasks)), Job: j, Stage: st, Kind: kind, Req: req, Index: i, State: sim.TaskPending, StartMs: -1}
	c.tasks = append(c.tasks, t)
	return t
}

// Run puts task t in a container on node n as if it had been launched
// before the test starts (it holds its normalized request), without a Log
// entry.
func (c *Cluster) Run(t *sim.Task, n *sim.Node) { c.RunAs(t, n, sim.Guaranteed) }

// RunAs is Run in a container of the given kind: an opportunistic one is
// held by its job but not by the node's guaranteed allocation (the
// engine's accounting, sim's launch).
func (c *Cluster) RunAs(t *sim.Task, n *sim.Node, kind sim.ContainerKind) {
	if err := c.start(t, n, c.Normalized(t.Req), kind); err != nil {
		panic(err)
	}
}

// Finish ends task t's container as if its work were done (no Log entry):
// its resources are free at once, the task done.
func (c *Cluster) Finish(t *sim.Task) {
	if err := c.release(t); err != nil {
		panic(err)
	}
	t.State, t.FinishMs = sim.TaskDone, c.NowMs
	if t.Stage != nil {
		t.Stage.Done++
	}
}

// Reset clears the log.
func (c *Cluster) Reset() { c.Log = c.Log[:0] }

func (c *Cluster) logf(format string, args ...any) {
	c.Log = append(c.Log, fmt.Sprintf(format, args...))
}

func name(t *sim.Task) string {
	if t.Kind == sim.KindAM {
		return t.Job.Spec.Name + "/am"
	}
	return fmt.Sprintf("%s/%s/%d", t.Job.Spec.Name, t.Stage.Spec.Name, t.Index)
}

// The clock and the cluster.

func (c *Cluster) Now() sim.Ms        { return c.NowMs }
func (c *Cluster) Nodes() []*sim.Node { return c.nodes }
func (c *Cluster) Jobs() []*sim.Job   { return c.jobs }
func (c *Cluster) Tasks() []*sim.Task { return c.tasks }
func (c *Cluster) Task(id int32) *sim.Task {
	if id < 0 || int(id) >= len(c.tasks) {
		return nil
	}
	return c.tasks[id]
}
func (c *Cluster) TaskIDs() int32        { return int32(len(c.tasks)) }
func (c *Cluster) Finishing() []*sim.Job { return nil }

// AdmitPass is a new pass at every call: a test changes the fake between
// calls as it likes, so an Admitter must keep nothing from one to the next.
func (c *Cluster) AdmitPass() int64 { c.passes++; return c.passes }

// Epoch is a new number at every call, for the same reason: a part may
// keep nothing derived from the fake's containers between calls.
func (c *Cluster) Epoch() int64 { c.epochs++; return c.epochs }

func (c *Cluster) Capacity() sim.Res {
	var r sim.Res
	for _, n := range c.nodes {
		r = r.Add(n.Spec.Cap)
	}
	return r
}

func (c *Cluster) Allocated() sim.Res {
	var r sim.Res
	for _, n := range c.nodes {
		r = r.Add(n.Alloc)
	}
	return r
}

func (c *Cluster) ReservedNodes() []*sim.Node {
	var out []*sim.Node
	for _, n := range c.nodes {
		if n.Reserved != nil {
			out = append(out, n)
		}
	}
	return out
}

func (c *Cluster) byState(s sim.JobState) []*sim.Job {
	var out []*sim.Job
	for _, j := range c.jobs {
		if j.State == s {
			out = append(out, j)
		}
	}
	return out
}

func (c *Cluster) Waiting() []*sim.Job { return c.byState(sim.JobWaiting) }
func (c *Cluster) Active() []*sim.Job  { return c.byState(sim.JobAdmitted) }

func (c *Cluster) Asking() []*sim.Job {
	var out []*sim.Job
	for _, j := range c.Active() {
		if c.HasPending(j) {
			out = append(out, j)
		}
	}
	return out
}

// Sizing and comparing requests.

func (c *Cluster) Normalization() sim.Normalization { return c.Norm }
func (c *Cluster) Normalized(r sim.Res) sim.Res     { return c.Norm.Apply(r) }
func (c *Cluster) CalcOn(*sim.Node) sim.Calculator  { return c.Calc }
func (c *Cluster) FitsFree(r sim.Res, n *sim.Node) bool {
	return c.Calc.Fits(c.Normalized(r), n.Free())
}

// A job's requests: its AM first, then its stage's pending tasks in order.

func (c *Cluster) HasPending(j *sim.Job) bool {
	if j.AM != nil && j.AM.State == sim.TaskPending {
		return true
	}
	for _, st := range j.Stages {
		if st.Asking() > 0 {
			return true
		}
	}
	return false
}

func (c *Cluster) NextTask(j *sim.Job, n *sim.Node, max sim.Locality) *sim.Task {
	if j.AM != nil && j.AM.State == sim.TaskPending {
		return j.AM // the AM asks first; its tasks once it runs
	}
	if j.AM != nil && j.AM.State != sim.TaskRunning {
		return nil
	}
	for i := len(j.Stages) - 1; i >= 0; i-- {
		if t := c.NextTaskInStage(j, i, n, max); t != nil {
			return t
		}
	}
	return nil
}

func (c *Cluster) NextTaskInStage(j *sim.Job, i int, n *sim.Node, max sim.Locality) *sim.Task {
	if i < 0 || i >= len(j.Stages) || !j.Stages[i].Released {
		return nil
	}
	for _, t := range j.Stages[i].Tasks {
		if t.State == sim.TaskPending && c.LocalityOf(t, n) <= max {
			return t
		}
	}
	return nil
}

func (c *Cluster) Requestable(t *sim.Task) bool { return t.State == sim.TaskPending }
func (c *Cluster) StillAsked(t *sim.Task) bool  { return t.State == sim.TaskPending }
func (c *Cluster) AsksFor(*sim.Task, *sim.Node) bool {
	return true
}
func (c *Cluster) LocationAsks(*sim.Stage) (int, bool) { return 0, false }

func (c *Cluster) LocalityOf(t *sim.Task, n *sim.Node) sim.Locality {
	if len(t.Replicas) == 0 {
		return sim.NodeLocal // no preference: any node is as good
	}
	for _, r := range t.Replicas {
		if r == n.ID {
			return sim.NodeLocal
		}
	}
	return sim.OffRack
}

func (c *Cluster) ContainerLevel(t *sim.Task, n *sim.Node) sim.Locality {
	if len(t.Replicas) == 0 {
		return sim.OffRack // a request for any node: Hadoop counts it off-switch
	}
	return c.LocalityOf(t, n)
}

func (c *Cluster) GivenLevel(t *sim.Task) sim.Locality { return t.Locality }

// The actions: each is logged and booked.

func (c *Cluster) start(t *sim.Task, n *sim.Node, alloc sim.Res, kind sim.ContainerKind) error {
	if t.State != sim.TaskPending {
		return fmt.Errorf("%s is %v, not pending", name(t), t.State)
	}
	if kind == sim.Guaranteed && !c.Calc.Fits(alloc, n.Free()) {
		return fmt.Errorf("%s (%v) does not fit %s (%v free)", name(t), alloc, n.Spec.Name, n.Free())
	}
	if n.Reserved == t {
		n.Reserved = nil
	}
	t.State, t.Node, t.Alloc, t.StartMs = sim.TaskRunning, n, alloc, c.NowMs
	t.Locality, t.Container = c.ContainerLevel(t, n), kind
	j := t.Job
	if kind == sim.Guaranteed {
		n.Alloc = n.Alloc.Add(alloc)
	} else {
		n.OppAlloc = n.OppAlloc.Add(alloc)
		j.OppAlloc = j.OppAlloc.Add(alloc)
	}
	n.Containers = append(n.Containers, t)
	j.Alloc = j.Alloc.Add(alloc)
	j.Running++
	if t.Stage != nil {
		t.Stage.Pending--
		t.Stage.Running++
	}
	return nil
}

func (c *Cluster) Launch(t *sim.Task, n *sim.Node, kind sim.ContainerKind) error {
	if err := c.start(t, n, c.Normalized(t.Req), kind); err != nil {
		return err
	}
	c.logf("launch %s on %s", name(t), n.Spec.Name)
	return nil
}

// LaunchTyped is Launch: the fake cluster keeps no request table whose
// counts a container's type would decide.
func (c *Cluster) LaunchTyped(t *sim.Task, n *sim.Node, kind sim.ContainerKind, _ sim.Locality) error {
	return c.Launch(t, n, kind)
}

func (c *Cluster) LaunchShrunk(t *sim.Task, n *sim.Node, alloc sim.Res) error {
	if err := c.start(t, n, alloc, sim.Guaranteed); err != nil {
		return err
	}
	c.logf("launch %s on %s shrunk to %v", name(t), n.Spec.Name, alloc)
	return nil
}

func (c *Cluster) Reserve(n *sim.Node, t *sim.Task) error {
	if n.Reserved != nil {
		return fmt.Errorf("%s is reserved for %s already", n.Spec.Name, name(n.Reserved))
	}
	n.Reserved = t
	c.logf("reserve %s for %s", n.Spec.Name, name(t))
	return nil
}

func (c *Cluster) ReserveRequest(n *sim.Node, t *sim.Task) {
	if err := c.Reserve(n, t); err != nil {
		panic(err)
	}
}

func (c *Cluster) Unreserve(n *sim.Node) {
	if n.Reserved != nil {
		c.logf("unreserve %s", n.Spec.Name)
	}
	n.Reserved = nil
}

// end takes t out of its container; the task is pending again (the engine
// requests a killed task anew).
func (c *Cluster) end(t *sim.Task, verb string) error {
	n := t.Node
	if err := c.release(t); err != nil {
		return err
	}
	if t.Stage != nil {
		t.Stage.Pending++
	}
	t.State = sim.TaskPending
	c.logf("%s %s on %s", verb, name(t), n.Spec.Name)
	return nil
}

// release frees t's container.
func (c *Cluster) release(t *sim.Task) error {
	if t.State != sim.TaskRunning && t.State != sim.TaskSuspended {
		return fmt.Errorf("%s is %v, not in a container", name(t), t.State)
	}
	n := t.Node
	if t.Container == sim.Guaranteed {
		n.Alloc = n.Alloc.Sub(t.Alloc)
	} else {
		n.OppAlloc = n.OppAlloc.Sub(t.Alloc)
		t.Job.OppAlloc = t.Job.OppAlloc.Sub(t.Alloc)
	}
	for i, x := range n.Containers {
		if x == t {
			n.Containers = append(n.Containers[:i], n.Containers[i+1:]...)
			break
		}
	}
	t.Job.Alloc = t.Job.Alloc.Sub(t.Alloc)
	t.Job.Running--
	if t.Stage != nil {
		t.Stage.Running--
	}
	t.Node, t.Alloc = nil, sim.Res{}
	return nil
}

func (c *Cluster) Kill(t *sim.Task) error    { return c.end(t, "kill") }
func (c *Cluster) Preempt(t *sim.Task) error { return c.end(t, "preempt") }

// move logs what, once t is in state from, and puts it in state to.
func (c *Cluster) move(t *sim.Task, from, to sim.TaskState, what string) error {
	if t.State != from {
		return fmt.Errorf("%s is %v, not %v", name(t), t.State, from)
	}
	t.State = to
	c.Log = append(c.Log, what)
	return nil
}

func (c *Cluster) Suspend(t *sim.Task) error {
	return c.move(t, sim.TaskRunning, sim.TaskSuspended, "suspend "+name(t))
}

func (c *Cluster) SwapOut(t *sim.Task, swapInMs sim.Ms) error {
	return c.move(t, sim.TaskSuspended, sim.TaskSuspended, fmt.Sprintf("swap out %s (%d ms to page in)", name(t), swapInMs))
}

func (c *Cluster) Resume(t *sim.Task) error {
	return c.move(t, sim.TaskSuspended, sim.TaskRunning, "resume "+name(t))
}

func (c *Cluster) Shrink(t *sim.Task, vcores int64) error {
	if t.State != sim.TaskRunning || vcores <= 0 || vcores > t.Alloc.VCores {
		return fmt.Errorf("%s: cannot shrink to %d vCores", name(t), vcores)
	}
	freed := sim.Res{VCores: t.Alloc.VCores - vcores}
	t.Alloc, t.Node.Alloc, t.Job.Alloc = t.Alloc.Sub(freed), t.Node.Alloc.Sub(freed), t.Job.Alloc.Sub(freed)
	c.logf("shrink %s to %d vCores", name(t), vcores)
	return nil
}
