// Package policies is the registry of yarngym's scheduling policies by name.
// A policy lives in its own folder; adding one means writing that folder and
// one line in the registry below.
package policies

import (
	"fmt"
	"sort"

	"yarngym/env/sim"
	"yarngym/policies/autoadmin"
	"yarngym/policies/base"
	"yarngym/policies/capacity"
	"yarngym/policies/dress"
	"yarngym/policies/fair"
	"yarngym/policies/fifo"
	"yarngym/policies/ikayak"
	"yarngym/policies/opera"
	"yarngym/policies/ras"
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
	{"ikayak", "iKayak: Capacity with reservation-aware executor placement, reducer suspension, locality-aware map shrinking", ikayak.New}, {"spreadout", "iKayak Sec. 5.2 baseline: Capacity with Spark's SpreadOut executor placement", ikayak.NewSpreadOut}, {"nonspreadout", "iKayak Sec. 5.2 baseline: Capacity with Spark's NonSpreadOut executor placement", ikayak.NewNonSpreadOut}, {"yarn-client", "iKayak Sec. 5.1 baseline: Capacity hosting one Spark application at a time (YARN-client model)", ikayak.NewYARNClient},
	{"opera", "OPERA: Fair plus opportunistic containers for classified-short tasks, node monitor (relief_policy), reservation", opera.New},
	{"dress", "DRESS: Capacity with small/large-demand pools, reserve ratio delta from predicted container releases", dress.New},
	{"ras", "RAS: resource-aware job-slot placement maximising the lowest goal utility, in control cycles", ras.New},
	{"autoadmin", "AutoAdmin: Fair with dynamic reservation admission control (RIC, RRP, ARC)", autoadmin.New}, {"static-reserve", "AutoAdmin Sec. 2.3 baseline: Fair admitting jobs while reserved_vcores stay free of AMs", autoadmin.NewStatic},
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
