// Package capacity is Hadoop 3.3.6's CapacityScheduler at its defaults:
//
//   - each queue is guaranteed a capacity; the least used queue (used over
//     guaranteed, memory, reservations included) is served first, jobs in a
//     queue first in, first out (queues.go);
//   - queues nest as PARENT.CHILD (root.PARENT.CHILD), a child's capacity
//     and max-capacity shares of its parent's; siblings are ranked where
//     two jobs' paths part, a parent's usage is its children's, and every
//     parent's max-capacity bounds its children together (tree.go);
//   - one user: it may hold its queue's capacity plus a container
//     (user-limit-factor 1), so a queue grows towards its max-capacity only
//     with a larger factor;
//   - the AM limit gates which jobs are activated (activate.go);
//   - requests are compared with a node's free resources on memory only
//     (DefaultResourceCalculator: vCores may be over-committed) and rounded
//     up to 1024 MB;
//   - on a node heartbeat, containers are assigned until the first
//     off-switch one (per-node-heartbeat.maximum-offswitch-assignments 1: a
//     request for any node, as AMs, reducers and executors make, is
//     off-switch) or 100 in all; a request first in line that does not fit
//     reserves the node, which at its next heartbeat serves the
//     reservation alone, whatever becomes of it;
//   - a request holds at most as many reservations as it asks containers
//     (plus its re-reservation starvation), reserves nothing while over its
//     queue headroom or user limit, and then takes a container only in
//     place of one of its reservations (reservations-continue-looking;
//     base.Allocator.CapacityReservations, AssignHeadroom, OverUserLimit);
//   - preemption, when switched on (off by default, as in Hadoop): the
//     ProportionalCapacityPreemptionPolicy monitor (preempt.go);
//   - delay scheduling: node-locality-delay (40, at most the node count)
//     missed opportunities before rack-local, and off-switch once they
//     exceed the pending maps times the locality wait factor.
//
// Reference: Hadoop 3.3.6 org.apache.hadoop.yarn.server.resourcemanager.
// scheduler.capacity: CapacityScheduler.allocateContainersToNode, ParentQueue,
// LeafQueue, UsersManager, allocator.RegularContainerAllocator. Where yarngym
// differs, and by how much, oracle/README.md says.
package capacity

import (
	"slices"

	"yarngym/env/sim"
	"yarngym/policies/base"
)

// New builds a Capacity policy.
func New(sp base.Spec) (*sim.Policy, error) {
	q, err := NewQueues(sp)
	if err != nil {
		return nil, err
	}
	var multiple, maxContainers, maxOffSwitch float64
	a := &base.Allocator{Order: q, Limits: []base.Limit{q}, Hooks: []base.Launched{q}, Reserve: true, ReservedAlone: true, CapacityLocality: true, CapacityReservations: true, AssignHeadroom: q.AssignHeadroom, OverUserLimit: q.OverUserLimit,
		Continue: func(b base.Beat) bool {
			return multiple != 0 && float64(b.OffSwitch) < maxOffSwitch && (maxContainers < 0 || float64(b.Containers) < maxContainers)
		}}
	p := &sim.Policy{Name: "capacity", Allocate: a, Params: &sim.Params{}, Admission: []sim.Admitter{&Activation{q: q}},
		CalculatorParam: &q.Calculator, Headroom: q.Headroom, KeepReservations: true}
	const ref = "Hadoop 3.3.6 CapacityScheduler yarn.scheduler.capacity."
	p.Params.Add(sim.Param{Name: "max_am_percent", Doc: "share of a queue's capacity (or current limit, if larger) its activated jobs' AMs may hold (one always); -1 switches it off",
		Ref: ref + "maximum-am-resource-percent (default 0.1)", Min: -1, Max: 1, Default: 0.1, Value: &q.MaxAMPercent})
	p.Params.Add(sim.Param{Name: "user_limit_factor", Doc: "how many times its queue's capacity one user (here: all jobs) may hold, within max-capacity",
		Ref: ref + "<queue>.user-limit-factor (default 1)", Min: 0.01, Max: 100, Default: 1, Value: &q.UserLimitFactor})
	p.Params.Add(sim.Param{Name: "resource_calculator", Doc: "how requests are compared with free resources: 0 memory only (DefaultResourceCalculator: a node's vCores may be over-committed), 1 every resource (DominantResourceCalculator); set before the run",
		Ref: ref + "resource-calculator (default DefaultResourceCalculator)", Min: 0, Max: 1, Default: 0, Integer: true, Value: &q.Calculator})
	p.Params.Add(sim.Param{Name: "multiple_assignments", Doc: "1: several containers per node heartbeat; 0: one",
		Ref: ref + "per-node-heartbeat.multiple-assignments-enabled (default true)", Min: 0, Max: 1, Default: 1, Integer: true, Value: &multiple})
	p.Params.Add(sim.Param{Name: "max_container_assignments", Doc: "containers per node heartbeat at most (-1: unlimited)",
		Ref: ref + "per-node-heartbeat.maximum-container-assignments (default 100)", Min: -1, Max: 10000, Default: 100, Integer: true, Value: &maxContainers})
	p.Params.Add(sim.Param{Name: "max_offswitch_assignments", Doc: "off-switch containers (requests for any node, maps off their data's rack) per node heartbeat at most",
		Ref: ref + "per-node-heartbeat.maximum-offswitch-assignments (default 1)", Min: 1, Max: 10000, Default: 1, Integer: true, Value: &maxOffSwitch})
	normalize := base.NormalizationParams(p.Params, p, ref[:len("Hadoop 3.3.6 CapacityScheduler ")], false)
	pre := &Preemption{q: q}
	pre.params(p.Params)
	p.Setup = func() {
		normalize()
		// The monitor runs only when switched on: a run without it has no
		// control cycle (and the same events as before it existed).
		if pre.On != 0 && !slices.Contains(p.Controls, sim.Controller(pre)) {
			p.Controls = append(p.Controls, pre)
		}
	}
	a.Params(p.Params, 40)
	p.State = []sim.StateVar{{Name: "max_queue_load", Doc: "largest guaranteed memory used / capacity over the queues, at the last heartbeat",
		Get: q.maxLoad, Min: 0, Max: 100, Log: true}}
	return p, nil
}
