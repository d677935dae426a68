// Package policies registers yarngym's scheduling policies by name in
// env/policy's registry (base.Policies; it lives below every policy, so
// that nothing under env/ imports one). A policy lives in its own folder;
// adding one means writing that folder and one line in the table below.
// Whatever builds policies by name imports this package (runner, the
// command, the C ABI, tests).
package policies

import (
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

var table = []Info{
	{"fifo", "first-come-first-serve (backfill = 1: YARN FifoScheduler)", fifo.New},
	{"fair", "YARN FairScheduler: fair share by memory, maxAMShare, node reservation", fair.New},
	{"capacity", "YARN CapacityScheduler: queue capacities, max-capacity, AM limit, node reservation", capacity.New},
	{"ikayak", "iKayak: Capacity with reservation-aware executor placement, reducer suspension, locality-aware map shrinking", ikayak.New}, {"spreadout", "iKayak Sec. 5.2 baseline: Capacity with Spark's SpreadOut executor placement", ikayak.NewSpreadOut}, {"nonspreadout", "iKayak Sec. 5.2 baseline: Capacity with Spark's NonSpreadOut executor placement", ikayak.NewNonSpreadOut}, {"yarn-client", "iKayak Sec. 5.1 baseline: Capacity hosting one Spark application at a time (YARN-client model)", ikayak.NewYARNClient},
	{"opera", "OPERA: Fair plus opportunistic containers for classified-short tasks, node monitor (relief_policy), reservation", opera.New},
	{"dress", "DRESS: Capacity with small/large-demand pools, reserve ratio delta from predicted container releases", dress.New},
	{"ras", "RAS: resource-aware job-slot placement maximising the lowest goal utility, in control cycles", ras.New},
	{"autoadmin", "AutoAdmin: Fair with dynamic reservation admission control (RIC, RRP, ARC)", autoadmin.New}, {"static-reserve", "AutoAdmin Sec. 2.3 baseline: Fair admitting jobs while reserved_vcores stay free of AMs", autoadmin.NewStatic},
}

func init() {
	for _, in := range table {
		base.Policies.MustAdd(in.Name, in.Doc, in.New)
	}
}

// All returns the registered policies sorted by name.
func All() []Info {
	var out []Info
	for _, e := range base.Policies.All() {
		out = append(out, Info{Name: e.Name, Doc: e.Doc, New: e.Value})
	}
	return out
}

// New builds a fresh instance of the policy called name.
func New(name string, sp base.Spec) (*sim.Policy, error) { return base.NewPolicy(name, sp) }
