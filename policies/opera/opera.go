// Package opera is OPERA (Yang et al., "New YARN Non-Exclusive Resource
// Management Scheme through Opportunistic Idle Resource Assignment"): on top
// of the Fair scheduler, resources that running containers hold but do not
// use are given to pending short tasks as opportunistic containers, which the
// NodeManager kills when the node runs into contention.
//
//   - the task classifier (classifier.go, Sec. III-B, Eq. 1-3) learns online
//     which tasks are short;
//   - the node monitor (monitor.go, Sec. III-C, Alg. 1, Eq. 4) watches actual
//     usage and relieves contention by the AGGRESSIVE, NEUTRAL or PRESERVE
//     policy;
//   - the opportunistic scheduler (assign.go, Sec. III-D, Alg. 2, Eq. 6-7)
//     assigns guaranteed resources first, then opportunistic ones;
//   - task reservation (reserve.go, Sec. III-E, Alg. 3-4), strict or
//     multi-chance, handles tasks that fit neither.
//
// It is registered as "opera"; the relief policy and the reservation
// approach are parameters.
package opera

import (
	"yarngym/env/sim"
	"yarngym/policies/base"
	"yarngym/policies/fair"
)

// Opera is the OPERA allocator: Fair's allocator wrapped with opportunistic
// assignment and reservation. It also listens to task ends for the
// classifier.
type Opera struct {
	Fair *base.Allocator
	Cls  *Classifier
	Mon  *Monitor
	// Reservation selects ReserveOff, ReserveStrict or ReserveMulti.
	Reservation float64
	// EpsR is the multi-chance reservation queue length, EpsS the number of
	// times a reserved task may be skipped.
	EpsR, EpsS float64
	// OppLaunched counts opportunistic containers OPERA launched.
	OppLaunched int64

	beat   beat
	queues [][]reserved // multi-chance reservation queue per node
	resvAt []int32      // per task ID: 1 + the node whose queue holds it, 0 if none
	tried  []*sim.Task  // multi-chance: tasks reserved elsewhere, tried this heartbeat
	run    sim.Handle   // the run, as the engine last handed it over
}

// Allocate implements sim.Allocator: NodeUpdate on node n's heartbeat.
func (o *Opera) Allocate(h sim.Handle, n *sim.Node) {
	o.run = h
	switch int(o.Reservation) {
	case ReserveStrict:
		o.strict(h, n)
	case ReserveMulti:
		o.multiChance(h, n)
	default:
		o.begin(n)
		o.Fair.Allocate(h, n)
		o.opportunisticPass(h, n)
	}
	o.beat.active = false
}

// TaskEnded implements sim.TaskListener (the classifier learns).
func (o *Opera) TaskEnded(h sim.Handle, t *sim.Task, out sim.Outcome) { o.Cls.TaskEnded(h, t, out) }

// New builds OPERA on the Fair scheduler with the paper's defaults: relief
// policy PRESERVE (the policy the paper presents as its contribution for
// guaranteeing reserved resources "without killing too many tasks"; the paper
// names no default), reservation off (the paper enables it for the
// interactive experiment of Sec. IV-E).
//
// Reference: OPERA Sec. III, Sec. IV ("we modify the scheduler component ...
// on top of the Fair scheduler").
func New(sp base.Spec) (*sim.Policy, error) {
	p, err := fair.New(sp)
	if err != nil {
		return nil, err
	}
	fa := p.Allocate.(*base.Allocator)
	o := &Opera{Fair: fa, Cls: NewClassifier(), Mon: NewMonitor()}
	fa.Hooks = append(fa.Hooks, o)
	p.Name = "opera"
	p.Allocate = o
	p.Monitors = append(p.Monitors, o.Mon)
	p.Params.Merge(o.params())
	p.State = append(p.State, o.stateVars()...)
	return p, nil
}

func (o *Opera) params() *sim.Params {
	ps := &sim.Params{}
	c, m := o.Cls, o.Mon
	ps.Add(sim.Param{Name: "duration_cutoff_s", Doc: "a finished task is short if it ran for less than this (s)",
		Ref: "OPERA Sec. III-B (1 minute)", Min: 1, Max: 3600, Default: 60, Value: &c.CutoffS})
	ps.Add(sim.Param{Name: "posterior_cutoff", Doc: "a task is classified short when P(short|features) exceeds this (0.5: the higher posterior wins)",
		Ref: "OPERA Sec. III-B", Min: 0, Max: 1, Default: 0.5, Value: &c.PosteriorCutoff})
	ps.Add(sim.Param{Name: "classifier", Doc: "the short/long posterior: 0 naive Bayes (the paper, Eq. 2-3), 1 logistic regression over the same features, trained online in gorgonia",
		Ref: "OPERA Sec. III-B (0: the paper)", Min: 0, Max: 1, Default: ModelBayes, Integer: true, Value: &c.Model})
	ps.Add(sim.Param{Name: "progress_buckets", Doc: "buckets of job progress for the classifier's P feature (assumed: the paper does not say how progress is discretised)",
		Ref: "OPERA Sec. III-B (P_t)", Min: 1, Max: 20, Default: 4, Integer: true, Value: &c.Buckets})
	ps.Add(sim.Param{Name: "rho", Doc: "contention threshold: usage above rho x capacity is contention",
		Ref: "OPERA Sec. III-C (rho = 0.95)", Min: 0.1, Max: 2, Default: 0.95, Value: &m.Rho})
	ps.Add(sim.Param{Name: "monitor_interval_s", Doc: "node monitor period (s); assumed: Alg. 1 gives no value, 3 s is YARN's ContainersMonitor interval, where the paper puts the monitor",
		Ref: "OPERA Alg. 1, Sec. IV", Min: 0.1, Max: 600, Default: 3, Value: &m.IntervalS})
	ps.Add(sim.Param{Name: "relief_policy", Doc: "contention relief: 0 AGGRESSIVE (kill on memory contention), 1 NEUTRAL (CPU or memory), 2 PRESERVE (NEUTRAL + blocked resources)",
		Ref: "OPERA Sec. III-C, Alg. 1", Min: 0, Max: 2, Default: Preserve, Integer: true, Value: &m.Relief})
	ps.Add(sim.Param{Name: "alpha", Doc: "PRESERVE: factor by which BR and BT grow on contention and shrink after a quiet BT",
		Ref: "OPERA Sec. III-C (\"we double\")", Min: 1, Max: 10, Default: 2, Value: &m.Alpha})
	ps.Add(sim.Param{Name: "block_vcores", Doc: "PRESERVE: initial (and least) blocked vCores BR per node",
		Ref: "OPERA Fig. 12 (2 vCores before contention)", Min: 0, Max: 1024, Default: 2, Value: &m.BlockVCores})
	ps.Add(sim.Param{Name: "block_mem_mb", Doc: "PRESERVE: initial (and least) blocked memory BR per node (MB); assumed: one MapReduce container",
		Ref: "OPERA Sec. III-C (BR_i)", Min: 0, Max: 1 << 20, Default: 1024, Value: &m.BlockMemMB})
	ps.Add(sim.Param{Name: "block_time_s", Doc: "PRESERVE: initial (and least) block time BT (s); assumed: the short-task cutoff, time for opportunistic tasks to drain",
		Ref: "OPERA Sec. III-C (BT_i)", Min: 1, Max: 3600, Default: 60, Value: &m.BlockTimeS})
	ps.Add(sim.Param{Name: "grow_always", Doc: "PRESERVE: 0 grows BR and BT on a contention within the current block window only (the text), 1 on every contention (Alg. 1 lines 24-27 as printed)",
		Ref: "OPERA Sec. III-C (\"if a new resource contention is detected within the current block time window\"; 0: the text)", Min: 0, Max: 1, Default: 0, Integer: true, Value: &m.GrowAlways})
	ps.Add(sim.Param{Name: "reservation", Doc: "task reservation: 0 off (Fair's node reservation), 1 strict (Alg. 3), 2 multi-chance (Alg. 4)",
		Ref: "OPERA Sec. III-E", Min: 0, Max: 2, Default: ReserveOff, Integer: true, Value: &o.Reservation})
	ps.Add(sim.Param{Name: "epsilon_r", Doc: "multi-chance: most tasks in a node's reservation queue; assumed",
		Ref: "OPERA Sec. III-E 2) (epsilon_r)", Min: 1, Max: 100, Default: 3, Integer: true, Value: &o.EpsR})
	ps.Add(sim.Param{Name: "epsilon_s", Doc: "multi-chance: most times a reserved task may be skipped; assumed",
		Ref: "OPERA Sec. III-E 2) (epsilon_s)", Min: 0, Max: 1000, Default: 5, Integer: true, Value: &o.EpsS})
	return ps
}

func (o *Opera) stateVars() []sim.StateVar {
	c := o.Cls
	conf := func(a, p int) func() float64 { return func() float64 { return float64(c.Confusion[a][p]) } }
	return []sim.StateVar{
		{Name: "opera_short_as_short", Doc: "finished short tasks predicted short at launch (Table III)", Get: conf(Short, Short), Min: 0, Max: 1e3, Per: sim.PerJob, Log: true},
		{Name: "opera_short_as_long", Doc: "finished short tasks predicted long at launch (Table III)", Get: conf(Short, Long), Min: 0, Max: 1e3, Per: sim.PerJob, Log: true},
		{Name: "opera_long_as_short", Doc: "finished long tasks predicted short at launch (Table III)", Get: conf(Long, Short), Min: 0, Max: 1e3, Per: sim.PerJob, Log: true},
		{Name: "opera_long_as_long", Doc: "finished long tasks predicted long at launch (Table III)", Get: conf(Long, Long), Min: 0, Max: 1e3, Per: sim.PerJob, Log: true},
		{Name: "opera_short_accuracy", Doc: "share of finished short tasks predicted short (Table III)", Get: func() float64 { return c.Accuracy(Short) }, Min: 0, Max: 1},
		{Name: "opera_long_accuracy", Doc: "share of finished long tasks predicted long (Table III)", Get: func() float64 { return c.Accuracy(Long) }, Min: 0, Max: 1},
		{Name: "opera_blocked_vcores", Doc: "PRESERVE: mean blocked vCores BR per node (Fig. 12)", Get: func() float64 { v, _, _ := o.Mon.meanBlocked(o.run); return v }, Min: 0, Max: 1024, Log: true},
		{Name: "opera_blocked_mem_mb", Doc: "PRESERVE: mean blocked memory BR per node (MB)", Get: func() float64 { _, v, _ := o.Mon.meanBlocked(o.run); return v }, Min: 0, Max: 1 << 20, Log: true},
		{Name: "opera_block_time_s", Doc: "PRESERVE: mean block time BT per node (s)", Get: func() float64 { _, _, v := o.Mon.meanBlocked(o.run); return v }, Min: 0, Max: 3600, Log: true},
		{Name: "opera_monitor_kills", Doc: "opportunistic tasks killed by the node monitor (Fig. 9)", Get: func() float64 { return float64(o.Mon.Kills) }, Min: 0, Max: 1e3, Per: sim.PerJob, Log: true},
		{Name: "opera_wasted_s", Doc: "run time lost by the tasks the node monitor killed (s, Fig. 9)", Get: func() float64 { return float64(o.Mon.WastedMs) / 1000 }, Min: 0, Max: 1e5, Per: sim.PerJob, Log: true},
		{Name: "opera_opp_launched", Doc: "opportunistic containers launched", Get: func() float64 { return float64(o.OppLaunched) }, Min: 0, Max: 1e4, Per: sim.PerJob, Log: true},
		{Name: "opera_reserved_tasks", Doc: "tasks reserved now (node reservations, or multi-chance queue entries)", Get: func() float64 { return o.reservedCount(o.run) }, Min: 0, Max: 100, Per: sim.PerNode, Log: true},
	}
}
