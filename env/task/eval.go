package task

import (
	"fmt"

	"yarngym/env"
	"yarngym/env/sim"
)

// Agent chooses actions, in the environment's action space (the controlled
// parameters' own units), for the episodes Evaluate runs side by side: slot
// i plays one episode.
type Agent interface {
	// Begin starts slot i's episode, of the given seed.
	Begin(i int, seed uint64)
	// Act writes slot i's action for observation obs into action.
	Act(i int, obs []float32, action []float64)
}

// Episode is one evaluated episode.
type Episode struct {
	Seed   uint64
	Return float64
	// Final is the Info of the step that ended it (its Episode* values are
	// the objectives in their own units).
	Final env.Info
	// Steps is the number of steps taken.
	Steps int
}

// Stalled reports whether the cluster stalled: jobs were left stuck.
func (e Episode) Stalled() bool { return e.Final.JobsStuck > 0 }

// Evaluate plays one episode per seed with agent, the episodes stepped side
// by side by an env.Batch of `workers` goroutines (0: GOMAXPROCS). The
// result is in seed order and does not depend on workers: every episode
// runs alone, and agent is called on the calling goroutine in slot order.
func Evaluate(cfg env.Config, seeds []uint64, agent Agent, workers int) ([]Episode, error) {
	n := len(seeds)
	if n == 0 {
		return nil, nil
	}
	b, err := env.NewBatch(cfg, n, workers)
	if err != nil {
		return nil, err
	}
	defer b.Close()
	od, ad := b.ObsDim(), b.ActDim()
	obs := make([]float32, n*od)
	act := make([]float64, n*ad)
	rew := make([]float64, n)
	term, trunc := make([]bool, n), make([]bool, n)
	live := make([]bool, n)
	if err := b.Reset(seeds, nil, obs); err != nil {
		return nil, err
	}
	out := make([]Episode, n)
	for i, s := range seeds {
		out[i].Seed = s
		live[i] = true
		agent.Begin(i, s)
	}
	for left := n; left > 0; {
		for i := range live {
			if live[i] {
				agent.Act(i, obs[i*od:(i+1)*od], act[i*ad:(i+1)*ad])
			}
		}
		if err := b.StepSome(live, act, obs, rew, term, trunc); err != nil {
			return nil, err
		}
		infos := b.Infos()
		for i := range live {
			if !live[i] {
				continue
			}
			out[i].Return += rew[i]
			out[i].Steps++
			if term[i] || trunc[i] {
				out[i].Final = infos[i]
				live[i] = false
				left--
			}
		}
	}
	return out, nil
}

// Returns lists the episodes' returns.
func Returns(eps []Episode) []float64 {
	out := make([]float64, len(eps))
	for i, e := range eps {
		out[i] = e.Return
	}
	return out
}

// PerSlot is an agent that plays, in each environment slot i, its own
// action PerSlot[i] throughout (several static settings scored in one
// batch).
type PerSlot [][]float64

// Begin implements Agent.
func (PerSlot) Begin(int, uint64) {}

// Act implements Agent.
func (p PerSlot) Act(i int, _ []float32, action []float64) { copy(action, p[i]) }

// Static is an agent that plays one action throughout.
type Static []float64

// Begin implements Agent.
func (Static) Begin(int, uint64) {}

// Act implements Agent.
func (a Static) Act(_ int, _ []float32, action []float64) { copy(action, a) }

// Random is an agent that draws every action uniformly from the box
// [Low, High], from a generator seeded by the episode's seed and Salt: the
// same episode always sees the same actions.
type Random struct {
	Low, High []float64
	Salt      uint64
	rngs      []*sim.Rand
}

// Begin implements Agent.
func (r *Random) Begin(i int, seed uint64) {
	for len(r.rngs) <= i {
		r.rngs = append(r.rngs, nil)
	}
	r.rngs[i] = sim.NewRand(sim.DeriveSeed(seed, sim.HashString("task.Random"), r.Salt))
}

// Act implements Agent.
func (r *Random) Act(i int, _ []float32, action []float64) {
	for k := range action {
		action[k] = r.Low[k] + (r.High[k]-r.Low[k])*r.rngs[i].Float64()
	}
}

// actionBox returns cfg's action space as float64 bounds.
func actionBox(cfg env.Config) (lo, hi []float64, integer []bool, err error) {
	e, err := env.New(cfg)
	if err != nil {
		return nil, nil, nil, err
	}
	lo, hi, integer = e.ActionBounds()
	if len(lo) == 0 {
		return nil, nil, nil, fmt.Errorf("the environment controls no parameter")
	}
	return lo, hi, integer, nil
}
