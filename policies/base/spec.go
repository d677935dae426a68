package base

import "yarngym/env/sim"

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

// QueueOf returns the job's queue name.
func QueueOf(j *sim.Job) string {
	if j.Spec.Queue == "" {
		return DefaultQueue
	}
	return j.Spec.Queue
}

// Factory builds a fresh policy (with its own state) for one run.
type Factory func(Spec) (*sim.Policy, error)
