package base

import (
	"yarngym/env/policy"
	"yarngym/env/sim"
)

// The spec a policy is built from and the factory type live in env/policy
// (below the policies, so that loading a scenario needs none of them); the
// policies name them through this toolkit.
type (
	// Queue is a scheduler queue as a scenario declares it.
	Queue = policy.Queue
	// Spec is what a policy factory is built from.
	Spec = policy.Spec
	// Factory builds a fresh policy (with its own state) for one run.
	Factory = policy.Factory
)

// DefaultQueue is the queue of jobs that name none.
const DefaultQueue = policy.DefaultQueue

// QueueOf returns the job's queue name.
func QueueOf(j *sim.Job) string {
	if j.Spec.Queue == "" {
		return DefaultQueue
	}
	return j.Spec.Queue
}
