// Package ikayak is iKayak (Cheng et al., "Cross-platform Resource Scheduling
// for Spark and MapReduce on YARN"): a scheduling middleware for Spark and
// MapReduce sharing a YARN cluster, and the baselines it is compared with.
//
// iKayak composes three mechanisms on YARN's scheduler:
//   - reservation-aware executor placement (Sec. 3.1, Alg. 1-2; placement.go)
//     driven by a Takagi-Sugeno fuzzy predictor of reduce tasks' remaining
//     time adapted online by recursive least squares (Sec. 3.1.2, Eq. 1-6;
//     fuzzy.go, predictor.go);
//   - dependency-aware resource adjustment: reduce tasks idling for map
//     outputs are suspended for (lambda^v - theta) x T, their CPU released
//     at once and their memory once the OS has paged them out (Sec. 3.2;
//     suspend.go);
//   - locality-aware assignment coordination: map containers are shrunk (no
//     lower than mu of their request) so that more maps run where their data
//     is (Sec. 3.3, Alg. 3; shrink.go).
//
// The scheduler underneath is the CapacityScheduler: the paper builds on
// Hadoop 2.6.0 and does not name one; 2.6.0's default
// (yarn.resourcemanager.scheduler.class) is the CapacityScheduler.
//
// Baselines (Sec. 5): the YARN-cluster model is the stock "capacity" policy
// with the ikayak generator's spark_mode = "cluster"; the YARN-client model
// is "yarn-client" (one Spark application at a time, client.go) with
// spark_mode = "client"; Spark's executor placements are "spreadout" and
// "nonspreadout".
package ikayak

import (
	"fmt"

	"yarngym/env/sim"
	"yarngym/policies/base"
	"yarngym/policies/capacity"
)

func capacityBase(sp base.Spec) (*sim.Policy, *base.Allocator, error) {
	p, err := capacity.New(sp)
	if err != nil {
		return nil, nil, err
	}
	a, ok := p.Allocate.(*base.Allocator)
	if !ok {
		return nil, nil, fmt.Errorf("ikayak: the capacity policy's allocator is %T, not a base.Allocator", p.Allocate)
	}
	return p, a, nil
}

func onOff(ps *sim.Params, name, doc, ref string, v *float64) {
	ps.Add(sim.Param{Name: name, Doc: doc + " (1 on, 0 off)", Ref: ref, Min: 0, Max: 1, Default: 1, Integer: true, Value: v})
}

// New builds iKayak on the Capacity scheduler.
func New(sp base.Spec) (*sim.Policy, error) {
	p, a, err := capacityBase(sp)
	if err != nil {
		return nil, err
	}
	pred := NewPredictor()
	susp := NewSuspender()
	shr := &Shrinker{On: 1}
	pl := NewPlacer(a, &Reservation{Pred: pred, Susp: susp})
	pl.Pre = []PreStep{susp, shr}
	pl.Listeners = []sim.TaskListener{shr}

	p.Name = "ikayak"
	p.Allocate = pl
	p.Monitors = append(p.Monitors, susp)
	p.Controls = append(p.Controls, pred, susp)
	ps := p.Params
	onOff(ps, "placement", "reservation-aware executor placement; off leaves executors to YARN's heartbeat allocation", "iKayak Sec. 3.1, Alg. 1-2", &pl.On)
	onOff(ps, "suspend", "dependency-aware suspension of reducers idling for map outputs", "iKayak Sec. 3.2", &susp.On)
	onOff(ps, "shrink", "locality-aware map shrinking", "iKayak Sec. 3.3, Alg. 3", &shr.On)
	ps.Add(sim.Param{Name: "suspend_v", Doc: "weight v of the delay factor in T_suspend = (lambda^v - theta) x T",
		Ref: "iKayak Sec. 3.2, 4.2 (v = 1)", Min: 0.1, Max: 10, Default: 1, Value: &susp.V})
	ps.Add(sim.Param{Name: "suspend_theta", Doc: "suspension overhead threshold theta in T_suspend = (lambda^v - theta) x T",
		Ref: "iKayak Sec. 3.2, 4.2 (theta = 0.15)", Min: 0, Max: 2, Default: 0.15, Value: &susp.Theta})
	ps.Add(sim.Param{Name: "suspend_interval_s", Doc: "suspension control interval T (s); a change takes effect after the current cycle",
		Ref: "iKayak Sec. 4.2 (T = 5 minutes)", Min: 10, Max: 3600, Default: 300, Value: &susp.T})
	onOff(ps, "suspend_swap", "a suspended reducer's JVM is paged out by the OS and its memory released until it resumes", "iKayak Sec. 3.2", &susp.Swap)
	ps.Add(sim.Param{Name: "suspend_overhead_s", Doc: "time to suspend and resume a reduce task (s): half paging it out before its memory is released, half paging it back in on resume",
		Ref: "iKayak Sec. 5.7 (2.7 s)", Min: 0, Max: 60, Default: 2.7, Value: &susp.OverheadS})
	ps.Add(sim.Param{Name: "predict_interval_s", Doc: "sampling interval of the reduce remaining-time predictor (s; assumed, the paper does not give it); a change takes effect after the current cycle",
		Ref: "iKayak Sec. 3.1.2", Min: 1, Max: 600, Default: 10, Value: &pred.IntervalS})
	ps.Add(sim.Param{Name: "rls_discount", Doc: "RLS discount factor tau of the fuzzy model (assumed, the paper does not give it)",
		Ref: "iKayak Sec. 3.1.2, Eq. 6", Min: 0.5, Max: 1, Default: 0.95, Value: &pred.Tau})
	p.State = append(p.State,
		sim.StateVar{Name: "lambda", Doc: "delay factor R_Spark / (R_Spark + R_MR) over allocated vCores (Sec. 3.2)", Get: susp.LambdaNow, Min: 0, Max: 1},
		sim.StateVar{Name: "suspended_reducers", Doc: "reducers suspended now", Get: func() float64 { return float64(susp.Suspended()) }, Min: 0, Max: 1, Per: sim.PerVCore},
		sim.StateVar{Name: "suspend_s", Doc: "the last T_suspend (s)", Get: func() float64 { return susp.lastS }, Min: 0, Max: 3600, Log: true},
		sim.StateVar{Name: "suspensions", Doc: "reducer suspensions so far", Get: func() float64 { return float64(susp.total) }, Min: 0, Max: 100, Per: sim.PerJob, Log: true},
		sim.StateVar{Name: "suspensions_maps_pending", Doc: "suspensions whose job had maps waiting for resources", Get: func() float64 { return float64(susp.withPending) }, Min: 0, Max: 100, Per: sim.PerJob, Log: true},
		sim.StateVar{Name: "resumes_after_maps", Doc: "reducers resumed after their job's maps had all finished", Get: func() float64 { return float64(susp.lateResumes) }, Min: 0, Max: 100, Per: sim.PerJob, Log: true},
		sim.StateVar{Name: "predictor_nrmse", Doc: "mean NRMSE of the reduce remaining-time predictions over finished reducers (Fig. 9)", Get: pred.NRMSE, Min: 0, Max: 10, Log: true},
		sim.StateVar{Name: "predictor_rate_error", Doc: "relative RMS one-step error of the fuzzy model on measured reduce progress", Get: pred.RateError, Min: 0, Max: 10, Log: true},
		sim.StateVar{Name: "shrink_mu", Doc: "shrinking floor mu = N_local / (N_local + N_remote) (Alg. 3)", Get: shr.Mu, Min: 0, Max: 1},
		sim.StateVar{Name: "maps_shrunk", Doc: "map containers launched shrunk", Get: func() float64 { return float64(shr.Shrunk) }, Min: 0, Max: 1000, Per: sim.PerJob, Log: true},
		sim.StateVar{Name: "executor_wait_s", Doc: "mean time executors waited from request to launch (reservation time)", Get: pl.MeanWaitS, Min: 0, Max: 3600, Log: true},
	)
	return p, nil
}

func newPlacement(name string, st Strategy) base.Factory {
	return func(sp base.Spec) (*sim.Policy, error) {
		p, a, err := capacityBase(sp)
		if err != nil {
			return nil, err
		}
		pl := NewPlacer(a, st)
		p.Name = name
		p.Allocate = pl
		p.State = append(p.State, sim.StateVar{Name: "executor_wait_s", Doc: "mean time executors waited from request to launch (reservation time)", Get: pl.MeanWaitS, Min: 0, Max: 3600, Log: true})
		return p, nil
	}
}

// NewSpreadOut builds Capacity with Spark's SpreadOut executor placement.
func NewSpreadOut(sp base.Spec) (*sim.Policy, error) {
	return newPlacement("spreadout", &SpreadOut{})(sp)
}

// NewNonSpreadOut builds Capacity with Spark's NonSpreadOut placement.
func NewNonSpreadOut(sp base.Spec) (*sim.Policy, error) {
	return newPlacement("nonspreadout", &SpreadOut{Pack: true})(sp)
}

// NewYARNClient builds the YARN-client model: Capacity hosting one Spark
// application at a time (client.go).
func NewYARNClient(sp base.Spec) (*sim.Policy, error) {
	p, err := capacity.New(sp)
	if err != nil {
		return nil, err
	}
	p.Admission = append([]sim.Admitter{OneSparkApp{}}, p.Admission...)
	p.Name = "yarn-client"
	return p, nil
}
