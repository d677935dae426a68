// Package policies is the registry of yarngym's scheduling policies by name.
// A policy lives in its own folder; adding one means writing that folder and
// one line in the registry below.
package policies

import (
	"fmt"
	"sort"

	"yarngym/env/sim"
	"yarngym/policies/base"
	"yarngym/policies/capacity"
	"yarngym/policies/fair"
	"yarngym/policies/fifo"
)

// Info describes a registered policy.
type Info struct {
	Name string
	Doc  string
	New  base.Factory
}

var registry = []Info{
	{"fifo", "first-come-first-serve (backfill = 1: YARN FifoScheduler)", fifo.New},
	{"fair", "YARN FairScheduler: fair share by memory, maxAMShare, node reservation", fair.New},
	{"capacity", "YARN CapacityScheduler: queue capacities, max-capacity, AM limit, node reservation", capacity.New},
}

// All returns the registered policies sorted by name.
func All() []Info {
	out := append([]Info(nil), registry...)
	sort.Slice(out, func(a, b int) bool { return out[a].Name < out[b].Name })
	return out
}

// New builds a fresh instance of the policy called name.
func New(name string, sp base.Spec) (*sim.Policy, error) {
	for _, in := range registry {
		if in.Name == name {
			return in.New(sp)
		}
	}
	return nil, fmt.Errorf("unknown policy %q (known: %s)", name, names())
}

func names() string {
	s := ""
	for i, in := range All() {
		if i > 0 {
			s += ", "
		}
		s += in.Name
	}
	return s
}
