// Package policy is what the layers below the policies know of them: the
// spec a policy is built from (the scenario's queues), the factory type and
// the registry of policies by name. Package policies fills the registry;
// loading a scenario (env/scenario) and the engine import no policy
// implementation (ARCHITECTURE.md). The policies' own toolkit,
// policies/base, re-exports these names.
package policy

import (
	"yarngym/env/sim"
	"yarngym/registry"
)

// Queue is a scheduler queue as a scenario declares it.
type Queue struct {
	Name string
	// Weight is the Fair scheduler's queue weight.
	Weight float64
	// Capacity and MaxCapacity are the Capacity scheduler's guaranteed and
	// maximum shares of the cluster, in [0, 1].
	Capacity    float64
	MaxCapacity float64
	// The Fair scheduler's per-queue limits (fair-scheduler.xml):
	// minResources and maxResources in memory and vCores (0: none; a
	// maximum of 0 is unbounded), maxRunningApps (0: unbounded).
	MinMemMB, MinVCores int64
	MaxMemMB, MaxVCores int64
	MaxRunningApps      int
}

// Spec is what a policy factory is built from.
type Spec struct {
	// Queues in declaration order; jobs name their queue. Empty means one
	// queue, "default".
	Queues []Queue
}

// QueueNames returns the queues' names, or ["default"].
func (sp Spec) QueueNames() []string {
	if len(sp.Queues) == 0 {
		return []string{DefaultQueue}
	}
	out := make([]string, len(sp.Queues))
	for i, q := range sp.Queues {
		out[i] = q.Name
	}
	return out
}

// DefaultQueue is the queue of jobs that name none.
const DefaultQueue = "default"

// Factory builds a fresh policy (with its own state) for one run.
type Factory func(Spec) (*sim.Policy, error)

// Registry holds the scheduling policies by name. Package policies fills
// it (one line per policy); a program that builds policies by name imports
// that package (runner, the command, the C ABI).
var Registry = registry.New[Factory]("policy").FilledBy("yarngym/policies")

// New builds a fresh instance of the policy registered as name.
func New(name string, sp Spec) (*sim.Policy, error) {
	e, err := Registry.Get(name)
	if err != nil {
		return nil, err
	}
	return e.Value(sp)
}
