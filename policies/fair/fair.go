// Package fair is Hadoop 3.3.6's FairScheduler at its defaults:
//
//   - one container per node heartbeat (yarn.scheduler.fair.assignmultiple
//     false; with it on, max.assign and dynamic.max.assign cap a heartbeat),
//     FairScheduler.attemptScheduling;
//   - an update() every 500 ms caches each job's demand and recomputes the
//     fair shares (memory only); between updates only jobs whose cached
//     demand differs from what they hold are offered a node (update.go);
//   - queues, then jobs in a queue, are ranked by memory held per unit of
//     weight, then by submission (FairSharePolicy's comparator; order.go);
//   - maxAMShare against the queue's fair share in memory and the cluster's
//     unallocated vCores (amshare.go);
//   - the allocation file's queues, nested as PARENT.CHILD (root.PARENT.CHILD
//     in Hadoop; shares, order and limits apply at every level): weight,
//     minResources (the fair share's
//     floor, and a queue below it is served first), maxResources (the
//     share's ceiling; a queue is offered nothing its usage would exceed it
//     by) and maxRunningApps (later jobs wait, limits.go); fair shares as
//     ComputeFairShares computes them (shares.go);
//   - a node is reserved only for a starved job's request of at least 2 GB
//     (reserve.go), and a reserved node serves its request alone; one
//     request may hold several nodes (up to reservable-nodes off its
//     block's node), and those left when it is met elsewhere stand until
//     their nodes' next heartbeats;
//   - jobs ended but not yet removed (their AM container unreported) still
//     share their queue and count against its AM limit;
//   - requests are rounded up to 1024 MB (increment-allocation), and fit a
//     node only if both memory and vCores do;
//   - delay scheduling, when locality_delay is set, counts every offer of
//     a node to a job's maps and relaxes their level node, rack, any
//     (FSAppAttempt.getAllowedLocalityLevel; base.Allocator.FairLocality).
//
// Reference: Hadoop 3.3.6, org.apache.hadoop.yarn.server.resourcemanager.
// scheduler.fair: FairScheduler, FSLeafQueue, FSAppAttempt, FairSharePolicy,
// ComputeFairShares. Where yarngym differs, and by how much, oracle/README.md
// says (the comparison with the real scheduler, yarngym oracle).
package fair

import (
	"fmt"

	"yarngym/env/sim"
	"yarngym/policies/base"
)

// New builds a Fair policy.
func New(sp base.Spec) (*sim.Policy, error) {
	if err := checkNames(sp); err != nil {
		return nil, err
	}
	for _, q := range sp.Queues {
		if q.Weight < 0 {
			return nil, fmt.Errorf("fair: queue %q has negative weight", q.Name)
		}
	}
	c := newConf(sp)
	u := newUpdate(c)
	o := newOrder(c, u)
	am := &AMShare{u: u, conf: c, am: map[string]sim.Res{}}
	o.onPrepare = am.stale
	rs := &reservable{u: u}
	limits, hooks := []base.Limit{am}, []base.Launched{am}
	if c.bounded() {
		ms := &maxShare{conf: c}
		limits, hooks = append(limits, ms), append(hooks, ms)
		o.onPrepare = func() { am.stale(); ms.stale() }
	}
	var assignMultiple, maxAssign, dynamic float64
	a := &base.Allocator{Order: o, Limits: limits, Hooks: hooks, Reserve: true, ReservedAlone: true, FairLocality: true,
		Considers: u.Offers, Reservable: rs.ok,
		Continue: func(b base.Beat) bool {
			switch {
			case assignMultiple == 0:
				return false
			case dynamic != 0:
				half := sim.Res{VCores: b.FreeAtStart.VCores / 2, MemMB: b.FreeAtStart.MemMB / 2}
				return b.Assigned.Fits(half)
			default:
				return maxAssign <= 0 || float64(b.Containers) < maxAssign
			}
		}}
	// zeroHeadroom: YARN before 2.6.0 never set an application's headroom
	// (FSSchedulerApp.getHeadroom returned its resourceLimit, a record
	// created empty that no caller set, and FairScheduler.allocate returned
	// it as is), so every AM was told it could get nothing more. YARN-1959
	// ("Fix headroom calculation in FairScheduler", Hadoop 2.6.0) computed
	// it as Hadoop 3.3.6 does (AMShare.headroom). A MapReduce AM builds its
	// resource limit from the headroom plus what it holds (RMContainer-
	// Allocator.scheduleReduces, preemptReducesIfNeeded): with none it ramps
	// its reducers up only within what its job already holds and preempts
	// them as soon as its maps wait with none of them in a container. The
	// papers that ran YARN 2.2 (AutoAdmin) and 2.5 (OPERA) ran this.
	var zeroHeadroom float64
	headroom := func(h sim.Handle, j *sim.Job) sim.Res {
		if zeroHeadroom >= 1 {
			return sim.Res{}
		}
		return am.headroom(h, j)
	}
	p := &sim.Policy{Name: "fair", Allocate: a, Controls: []sim.Controller{u}, Params: &sim.Params{},
		Headroom: headroom, KeepReservations: true}
	for _, q := range sp.Queues {
		if q.MaxRunningApps > 0 {
			p.Admission = []sim.Admitter{&maxRunning{conf: c}}
			break
		}
	}
	const ref = "Hadoop 3.3.6 FairScheduler "
	p.Params.Add(sim.Param{Name: "max_am_share", Doc: "share of a queue's fair share (memory; vCores: of the cluster's unallocated vCores) its AMs may hold; -1 switches the limit off",
		Ref: ref + "maxAMShare (queueMaxAMShareDefault, default 0.5)", Min: -1, Max: 1, Default: 0.5, Value: &am.MaxAMShare})
	p.Params.Add(sim.Param{Name: "zero_headroom", Doc: "1: tell every AM its headroom is zero, as the FairScheduler did before Hadoop 2.6.0 (YARN 2.2, 2.5); 0: Hadoop 3.3.6's headroom",
		Ref: "FSSchedulerApp.getHeadroom before YARN-1959 (Hadoop 2.6.0)", Min: 0, Max: 1, Default: 0, Integer: true, Value: &zeroHeadroom})
	p.Params.Add(sim.Param{Name: "assignmultiple", Doc: "1: assign several containers per node heartbeat (capped by max_assign or dynamic_max_assign); 0: one",
		Ref: ref + "yarn.scheduler.fair.assignmultiple (default false)", Min: 0, Max: 1, Default: 0, Integer: true, Value: &assignMultiple})
	p.Params.Add(sim.Param{Name: "dynamic_max_assign", Doc: "with assignmultiple: 1 assigns up to half of the node's free resources per heartbeat; 0 uses max_assign",
		Ref: ref + "yarn.scheduler.fair.dynamic.max.assign (default true)", Min: 0, Max: 1, Default: 1, Integer: true, Value: &dynamic})
	p.Params.Add(sim.Param{Name: "max_assign", Doc: "with assignmultiple and not dynamic_max_assign: containers per heartbeat (-1: unlimited)",
		Ref: ref + "yarn.scheduler.fair.max.assign (default -1)", Min: -1, Max: 1000, Default: -1, Integer: true, Value: &maxAssign})
	p.Params.Add(sim.Param{Name: "update_interval_ms", Doc: "how often demand and fair shares are recomputed (ms)",
		Ref: ref + "yarn.scheduler.fair.update-interval-ms (default 500)", Min: 10, Max: 60000, Default: 500, Integer: true, Value: &u.IntervalMs})
	p.Params.Add(sim.Param{Name: "reservation_threshold_mb", Doc: "smallest request (MB) a starved job reserves a node for",
		Ref: ref + "yarn.scheduler.reservation-threshold.increment-multiple (default 2) x increment-allocation (1024 MB)", Min: 0, Max: 1 << 20, Default: 2048, Value: &rs.ThresholdMB})
	p.Params.Add(sim.Param{Name: "reservable_nodes", Doc: "share of the nodes (of the rack, for rack-local requests) a job may hold reserved for requests off its data's node",
		Ref: ref + "yarn.scheduler.fair.reservable-nodes (default 0.05)", Min: 0, Max: 1, Default: 0.05, Value: &rs.ReservableNodes})
	p.Setup = base.NormalizationParams(p.Params, p, ref, true)
	a.Params(p.Params, 0)
	p.State = []sim.StateVar{{Name: "am_vcores_share", Doc: "vCores held by running AMs / cluster vCores (what maxAMShare bounds per queue)",
		Get: func() float64 {
			if o.run == nil {
				return 0
			}
			return am.vcoresShare(o.run)
		}, Min: 0, Max: 1}}
	return p, nil
}
