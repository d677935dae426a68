package base

import (
	"yarngym/env/sim"
	"yarngym/registry"
)

// Policies is the registry of scheduling policies by name. Package
// policies fills it (one line per policy); this package, which imports
// only the core, holds it, so that loading a scenario needs no policy
// implementation (the layers: ARCHITECTURE.md).
var Policies = registry.New[Factory]("policy").FilledBy("yarngym/policies")

// NewPolicy builds a fresh instance of the policy registered as name.
func NewPolicy(name string, sp Spec) (*sim.Policy, error) {
	e, err := Policies.Get(name)
	if err != nil {
		return nil, err
	}
	return e.Value(sp)
}
