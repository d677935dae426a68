// Package fifo is first-come-first-serve: jobs are served strictly in
// submission order. When the first job's next request does not fit on a node,
// the node is reserved for it and nobody behind it jumps the queue there:
// the FCFS of DRESS Sec. I / Fig. 1. With backfill = 1 it is YARN's
// FifoScheduler instead, which passes over a job whose request does not fit
// and serves the next one. No delay scheduling.
package fifo

import (
	"yarngym/env/sim"
	"yarngym/policies/base"
)

// Order serves jobs in submission order.
type Order struct{}

// Prepare implements base.Order.
func (Order) Prepare(sim.Handle) {}

// IdleNoop implements sim.IdleNoop: Prepare does nothing.
func (Order) IdleNoop() bool { return true }

// Less implements base.Order.
func (Order) Less(_ sim.Handle, a, b *sim.Job) bool { return a.ID < b.ID }

// Keys implements base.KeyOrder: the job ID.
func (Order) Keys(_ sim.Handle, jobs []*sim.Job, keys []uint64) bool {
	for i, j := range jobs {
		keys[i] = uint64(j.ID)
	}
	return true
}

// New builds a FIFO policy.
func New(base.Spec) (*sim.Policy, error) {
	a := &base.Allocator{Order: Order{}, Reserve: true}
	p := &sim.Policy{Name: "fifo", Allocate: a, Params: &sim.Params{}}
	p.Params.Add(sim.Param{Name: "backfill", Doc: "1: pass over a job whose request does not fit (YARN FifoScheduler); 0: strict first-come-first-serve",
		Ref: "DRESS Sec. I (FCFS); YARN FifoScheduler", Min: 0, Max: 1, Default: 0, Integer: true, Value: &a.Backfill})
	a.Params(p.Params, 0)
	return p, nil
}
