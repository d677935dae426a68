package base

import (
	"yarngym/env/policy"
	"yarngym/env/sim"
)

// Policies is the registry of scheduling policies by name (env/policy's).
var Policies = policy.Registry

// NewPolicy builds a fresh instance of the policy registered as name.
func NewPolicy(name string, sp Spec) (*sim.Policy, error) { return policy.New(name, sp) }
