package sim

import (
	"fmt"
	"math"
)

// A Policy is assembled from small parts, one per YARN decision point. Any
// part may be nil. Parts that also implement TaskListener or JobListener are
// told when tasks and jobs end (e.g. OPERA's classifier learns from them).
//
// The stock schedulers and the papers' mechanisms build Policies in
// yarngym/policies; a user composes new ones by swapping parts.
type Policy struct {
	Name string
	// Admission gates submitted jobs before their AM is requested (AutoAdmin's
	// ARC). Jobs wait in submission order; the first one refused blocks the
	// ones behind it. All admitters must agree.
	Admission []Admitter
	// Allocate assigns containers when a node heartbeats.
	Allocate Allocator
	// Monitors inspect a node at its heartbeat before allocation, and may
	// kill or suspend tasks (OPERA's node monitor, iKayak's suspension).
	Monitors []NodeMonitor
	// Controls run every ControlIntervalMs (DRESS's delta, RAS placement).
	Controls []Controller
	// Params are the policy's tunable parameters (a tuner's action space).
	Params *Params
	// State exposes internal state (delta, R_R, blocked resources, ...) to
	// observations and reports.
	State []StateVar
	// Calculator is how the scheduler compares a request with a node's free
	// resources: the engine launches and reserves guaranteed containers by
	// it, and the invariants hold guaranteed allocations within capacity in
	// its terms (with MemoryOnly a node's vCores may be over-committed, as
	// Hadoop's CapacityScheduler does at its defaults). Zero: EveryResource.
	Calculator Calculator
	// CalculatorParam, when set, is a parameter choosing the calculator
	// instead: 0 MemoryOnly (DefaultResourceCalculator), 1 EveryResource
	// (DominantResourceCalculator). Set it before the run: switching to
	// EveryResource on a node whose vCores are over-committed launches
	// nothing there until they are free again.
	CalculatorParam *float64
	// Headroom, when set, is what the scheduler tells a job's AM it may
	// still get (the allocate response's headroom), from which a MapReduce
	// AM ramps up its reducers (reduces.go). Nil: the cluster's free
	// resources.
	Headroom func(h Handle, j *Job) Res
	// KeepReservations: a node reserved for a MapReduce stage's request
	// stays reserved when the map or reducer it was made for gets a
	// container elsewhere, for another of the stage's requests (the
	// FairScheduler drops a reservation only when it is fulfilled or no
	// longer valid: FSAppAttempt.assignReservedContainer). With it too, a
	// request for one container (an AM's, a task's outside MapReduce's
	// counted asks) may hold several nodes reserved, as Hadoop reserves
	// per request; the policy bounds how many. Without it a reservation
	// goes with its task, one node per task.
	KeepReservations bool
	// Normalize rounds every request before the engine books it: a
	// container holds its normalized request (Hadoop's schedulers round
	// memory up to 1024 MB steps). Zero: requests as they are.
	Normalize Normalization
	// Setup, when set, is called once as the run is built, after the
	// parameters are set: a policy derives there what its parameters fix
	// for the whole run (its request normalization).
	Setup func()
}

// Calc is the calculator in force (Calculator, or CalculatorParam's).
func (p *Policy) Calc() Calculator {
	if p.CalculatorParam != nil {
		if *p.CalculatorParam >= 1 {
			return EveryResource
		}
		return MemoryOnly
	}
	return p.Calculator
}

// Admitter decides whether a waiting job may start.
type Admitter interface {
	Admit(h Handle, j *Job) bool
}

// PassingAdmitter is an Admitter that does not hold the line: a job it
// refuses waits while the jobs behind it are still considered (the
// CapacityScheduler activates applications under its AM limit this way:
// LeafQueue.activateApplications goes on past an application whose AM does
// not fit). With any admitter that is not one, the first job refused blocks
// the jobs behind it.
type PassingAdmitter interface {
	Admitter
	Passes() bool
}

// JobEventAdmitter is an Admitter whose answer can change only when the
// jobs do: a job arrives, is admitted, ends or leaves the scheduler (its AM
// container reported complete), or the policy's parameters are set. The
// engine asks such admitters at those events only; an admitter that is not
// one (AutoAdmin's ARC, which re-checks at every node heartbeat, its Alg.
// 3 lines 7-12) is asked at every heartbeat too while jobs wait. The
// CapacityScheduler activates applications this way: LeafQueue.
// activateApplications runs on application add and remove, on
// updateClusterResource and on reinitialize, never on a node update; the
// FairScheduler's MaxRunningAppsEnforcer makes apps runnable on add and on
// removal (updateRunnabilityOnAppRemoval).
type JobEventAdmitter interface {
	Admitter
	OnJobEvents() bool
}

// Allocator assigns containers on node n's heartbeat with s.Launch and may
// reserve the node with s.Reserve.
type Allocator interface {
	Allocate(h Handle, n *Node)
}

// NodeMonitor inspects node n at its heartbeat.
type NodeMonitor interface {
	Monitor(h Handle, n *Node)
}

// Controller runs a periodic control cycle.
type Controller interface {
	ControlIntervalMs() Ms
	Control(h Handle)
}

// TaskListener is told when a task attempt ends.
type TaskListener interface {
	TaskEnded(h Handle, t *Task, outcome Outcome)
}

// Rebinder is told when a MapReduce AM assigns containers it received to
// other maps of their stage than the engine bound them to when the nodes
// gave them (asks.go): from[i]'s container, its process not yet started,
// now runs to[i] (a task may appear on both sides: the AM permuted them).
// from[i] nil: to[i] starts in a container given beyond the stage's maps
// (excess); to[i] nil: from[i]'s container is left without a map (from[i]
// has moved, or gone back to pending, without running). Parts that keep
// state per launched task (DRESS's phase tracker, OPERA's classifier) move
// it across.
type Rebinder interface {
	TasksRebound(h Handle, from, to []*Task)
}

// JobListener is told when a job arrives and when it finishes.
type JobListener interface {
	JobArrived(h Handle, j *Job)
	JobFinished(h Handle, j *Job)
}

// Param is one tunable parameter of a policy part: its name, range and the
// default its paper gives. Value points at the field the part reads, so
// setting a Param takes effect at the next decision.
type Param struct {
	Name    string
	Doc     string
	Ref     string // the paper section the default comes from
	Min     float64
	Max     float64
	Default float64
	Integer bool
	Value   *float64
}

// Params is an ordered set of parameters.
type Params struct{ list []*Param }

// Add declares a parameter and sets its field to the default.
func (ps *Params) Add(p Param) {
	*p.Value = p.Default
	q := p
	ps.list = append(ps.list, &q)
}

// Merge appends the parameters of other parts (for composed policies).
func (ps *Params) Merge(o *Params) {
	if o != nil {
		ps.list = append(ps.list, o.list...)
	}
}

// List returns the parameters in declaration order.
func (ps *Params) List() []*Param {
	if ps == nil {
		return nil
	}
	return ps.list
}

// Get returns the parameter named name, or nil.
func (ps *Params) Get(name string) *Param {
	for _, p := range ps.List() {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// Set validates v against the parameter's range and sets it.
func (ps *Params) Set(name string, v float64) error {
	p := ps.Get(name)
	if p == nil {
		return fmt.Errorf("unknown parameter %q", name)
	}
	return p.Set(v)
}

// Set validates v against the range and sets it.
func (p *Param) Set(v float64) error {
	if math.IsNaN(v) || v < p.Min || v > p.Max {
		return fmt.Errorf("parameter %q: %v is outside [%v, %v]", p.Name, v, p.Min, p.Max)
	}
	if p.Integer && v != math.Trunc(v) {
		return fmt.Errorf("parameter %q: %v is not an integer", p.Name, v)
	}
	*p.Value = v
	return nil
}

// StateVar is one named piece of a policy's internal state, with the range
// it takes, so that observations can scale it to [0, 1] (see yarngym/env).
//
// Per divides the value by a cluster or workload size before the range
// applies (a reservation in vCores is declared Per: PerVCore with range
// [0, 1]), so that one declaration serves every cluster. Log declares a
// quantity without a natural upper bound (a count so far, a time): the
// observation is log1p(x - Min) / log1p(Max - Min), clipped to [0, 1], and
// Max is the value at which it saturates.
type StateVar struct {
	Name string
	Doc  string
	Get  func() float64
	// Min and Max bound the value (after Per); Max > Min.
	Min, Max float64
	Per      Per
	Log      bool
}

// Per names what a state variable is measured against.
type Per uint8

const (
	PerNone  Per = iota // the value as it is
	PerVCore            // divided by the cluster's vCores
	PerMemMB            // divided by the cluster's memory (MB)
	PerNode             // divided by the number of nodes
	PerJob              // divided by the number of jobs in the workload
)

var perNames = [...]string{"", "vcore", "mem_mb", "node", "job"}

func (p Per) String() string {
	if int(p) < len(perNames) {
		return perNames[p]
	}
	return fmt.Sprintf("per(%d)", uint8(p))
}

// CheckRange reports whether the variable declares a usable range.
func (v StateVar) CheckRange() error {
	switch {
	case math.IsNaN(v.Min) || math.IsNaN(v.Max) || math.IsInf(v.Min, 0) || math.IsInf(v.Max, 0):
		return fmt.Errorf("state %q: range [%v, %v] is not finite", v.Name, v.Min, v.Max)
	case !(v.Max > v.Min):
		return fmt.Errorf("state %q: declares no range (Min %v, Max %v; want Max > Min)", v.Name, v.Min, v.Max)
	case int(v.Per) >= len(perNames):
		return fmt.Errorf("state %q: unknown Per %d", v.Name, v.Per)
	}
	return nil
}
