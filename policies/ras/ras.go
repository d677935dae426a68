// Package ras is the Resource-aware Adaptive Scheduler of Polo et al. (RAS,
// Middleware 2011): job slots bound to a job and a task type, per-phase
// CPU / I/O / memory job profiles, a utility per job from its completion-time
// goal (Eq. 1-3), a placement algorithm run in control cycles that maximises
// the lowest utility while packing TaskTrackers as tightly as their
// resources allow (Alg. 1, Eq. 4-6), and a task scheduler that moves the
// cluster to each new placement without overloading a TaskTracker (Sec.
// 3.5).
//
// Parts: the Controller (Placement Algorithm + Job Utility Calculator +
// Job Completion Time Estimator, every control_interval_s), the Allocator
// (Task Scheduler, on heartbeats) and a TaskListener (Job Status Updater).
//
// Where the paper leaves a choice open, this implementation reads it so
// (each is documented where it is made):
//   - profiles come from the jobs' stage profiles (Stage.Spec.Profile), as
//     from RAS's offline profiler: the Frac-weighted average demand of a
//     stage's phases, shuffle phases apart (profile.go);
//   - s_pend counts maps not finished (running ones included), r_pend the
//     reducers the job has requested (none before slow-start); the average
//     map length is observed only (Sec. 3.2): until a map finishes a job
//     needs every pending map, so a new job's utility is very low and it
//     takes the free slots, as Sec. 4.2 describes for Job 7 (jobs.go);
//   - each cycle starts from the tasks running now; reducers are placed
//     against reducers only and maps on a node they overload are dropped
//     from the plan (trim), so the plan fits every node unless running
//     reducers alone exceed it; reducers switch to their reduce profile
//     before, not after, the map rounds (placement.go, Control);
//   - a removal is stopped by the lowest utility of any job wanting maps,
//     whether or not it fits yet (placement.go, rebalance).
package ras

import (
	"math"

	"yarngym/env/sim"
	"yarngym/policies/base"
)

// RAS is one run's scheduler state.
type RAS struct {
	// IntervalS is the control cycle T (Sec. 3.2: "of the order of tens of
	// seconds").
	IntervalS float64
	// MaxRounds bounds the rounds of Alg. 1's map placement.
	MaxRounds float64
	// ReduceTail makes the Job Completion Time Estimator leave the job's
	// profiled reduce phase before its goal (1) or not (0; the map phase
	// alone must end by the goal).
	ReduceTail float64

	jobs    map[*sim.Job]*jobState
	plan    *Placement
	nodeIdx map[*sim.Node]int
	order   []int
	runMaps map[*sim.Job]int
	runReds map[*sim.Job]int

	cycles   int
	launches int64
}

// New builds a RAS policy.
func New(base.Spec) (*sim.Policy, error) {
	r := &RAS{jobs: map[*sim.Job]*jobState{}, runMaps: map[*sim.Job]int{}, runReds: map[*sim.Job]int{}}
	p := &sim.Policy{Name: "ras", Allocate: r, Controls: []sim.Controller{r}, Params: &sim.Params{}}
	p.Params.Add(sim.Param{Name: "control_interval_s", Doc: "control cycle T: how often the placement is recomputed (assumed 30 s: the paper says \"of the order of tens of seconds\")",
		Ref: "RAS Sec. 3.2", Min: 1, Max: 600, Default: 30, Value: &r.IntervalS})
	p.Params.Add(sim.Param{Name: "max_rounds", Doc: "maximum rounds of the map placement per cycle; it also stops when a round changes nothing (assumed 5: not given)",
		Ref: "RAS Sec. 3.4, Alg. 1", Min: 1, Max: 100, Default: 5, Integer: true, Value: &r.MaxRounds})
	p.Params.Add(sim.Param{Name: "reduce_tail", Doc: "1: s_req leaves the job's profiled reduce phase (its reducers' work after the last map) between the map phase's end and the goal; 0: the map phase alone must end by the goal (the earlier reading)",
		Ref: "RAS Sec. 3.2 (s_req \"to meet the completion time goal of each job\"), Sec. 3.6 (the profile's reduce-phase time)", Min: 0, Max: 1, Default: 1, Integer: true, Value: &r.ReduceTail})
	p.State = []sim.StateVar{
		{Name: "min_utility", Doc: "lowest job utility of the last placement (Eq. 4's objective; -Inf shown as -10)", Get: r.minUtility, Min: -10, Max: 1},
		{Name: "mean_utility", Doc: "mean job utility of the last placement (-Inf counted as -10)", Get: r.meanUtility, Min: -10, Max: 1},
		{Name: "jobs_below_goal", Doc: "jobs whose utility is negative: fewer map slots than s_req or reducers unplaced", Get: r.belowGoal, Min: 0, Max: 1, Per: sim.PerJob},
		{Name: "planned_map_slots", Doc: "map job slots in the last placement (sum of P^M)", Get: func() float64 { return r.planned(false) }, Min: 0, Max: 2, Per: sim.PerVCore},
		{Name: "planned_reduce_slots", Doc: "reduce job slots in the last placement (sum of P^R)", Get: func() float64 { return r.planned(true) }, Min: 0, Max: 16, Per: sim.PerNode, Log: true},
		{Name: "placement_cycles", Doc: "control cycles run", Get: func() float64 { return float64(r.cycles) }, Min: 0, Max: 1e4, Log: true},
	}
	return p, nil
}

// ControlIntervalMs implements sim.Controller.
func (r *RAS) ControlIntervalMs() sim.Ms { return sim.Ms(math.Round(r.IntervalS * 1000)) }

// Control implements sim.Controller: one control cycle of the Placement
// Algorithm (Alg. 1).
//
// Reference: RAS Sec. 3.2, 3.4, Alg. 1.
func (r *RAS) Control(h sim.Handle) {
	r.cycles++
	now := h.Now()
	var jobs []*jobState
	index := map[*sim.Job]int{}
	for _, j := range h.Active() {
		js := r.state(j)
		js.refresh(now, r.ReduceTail > 0)
		index[j] = len(jobs)
		jobs = append(jobs, js)
	}
	// Alg. 1 lines 26-28, applied before placing so that the plan already
	// sees the reducers' reduce profile (the Task Scheduler still drives the
	// transition on the nodes).
	for _, js := range jobs {
		js.reducePhase = js.mapPhaseEnds(now, r.IntervalS)
	}
	if r.nodeIdx == nil {
		r.nodeIdx = map[*sim.Node]int{}
		for k, n := range h.Nodes() {
			r.nodeIdx[n] = k
		}
	}
	p := newPlacement(h.Nodes(), jobs, index)
	p.placeReducers()
	p.trim()
	p.placeMaps(int(r.MaxRounds))
	for i, js := range jobs {
		js.util = p.U(i)
	}
	r.plan = p
}

// Plan returns the placement of the last control cycle (nil before the
// first).
func (r *RAS) Plan() *Placement { return r.plan }

// TaskEnded implements sim.TaskListener (the Job Status Updater).
func (r *RAS) TaskEnded(_ sim.Handle, t *sim.Task, o sim.Outcome) {
	if t.Kind != sim.KindAM {
		r.state(t.Job).taskEnded(t, o)
	}
}

// JobArrived and JobFinished implement sim.JobListener.
func (r *RAS) JobArrived(sim.Handle, *sim.Job) {}

// JobFinished drops the job's descriptor.
func (r *RAS) JobFinished(_ sim.Handle, j *sim.Job) { delete(r.jobs, j) }

func (r *RAS) state(j *sim.Job) *jobState {
	js := r.jobs[j]
	if js == nil {
		js = newJobState(j)
		r.jobs[j] = js
	}
	return js
}

func (r *RAS) nodeIndex(n *sim.Node) int {
	if k, ok := r.nodeIdx[n]; ok {
		return k
	}
	return -1
}

func (r *RAS) utilities() []float64 {
	if r.plan == nil {
		return nil
	}
	var out []float64
	for _, js := range r.plan.Jobs {
		if js.j.State == sim.JobAdmitted {
			out = append(out, finite(js.util))
		}
	}
	return out
}

func (r *RAS) minUtility() float64 {
	us := r.utilities()
	if len(us) == 0 {
		return 0
	}
	m := us[0]
	for _, u := range us[1:] {
		m = math.Min(m, u)
	}
	return m
}

func (r *RAS) meanUtility() float64 {
	us := r.utilities()
	if len(us) == 0 {
		return 0
	}
	sum := 0.0
	for _, u := range us {
		sum += u
	}
	return sum / float64(len(us))
}

func (r *RAS) belowGoal() float64 {
	k := 0
	for _, u := range r.utilities() {
		if u < 0 {
			k++
		}
	}
	return float64(k)
}

func (r *RAS) planned(reduce bool) float64 {
	if r.plan == nil {
		return 0
	}
	t := 0
	for i := range r.plan.Jobs {
		if reduce {
			t += r.plan.rAlloc[i]
		} else {
			t += r.plan.sAlloc[i]
		}
	}
	return float64(t)
}
