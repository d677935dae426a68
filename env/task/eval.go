package task

import (
	"fmt"
	"runtime"
	"slices"

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

// evalSlotsPerWorker bounds how many episodes Evaluate keeps in flight:
// that many per worker goroutine, enough to keep every worker busy while
// slots refill. Without the bound a batch of 1,620 episodes (the best
// static setting's 81 points x 20 train seeds) held every one of its
// simulations at once: 20 GB on DRESS-Ali-v0's Alibaba hours.
const evalSlotsPerWorker = 8

// Evaluate plays one episode per seed with agent, the episodes stepped side
// by side by an env.Batch of `workers` goroutines (0: GOMAXPROCS), at most
// evalSlotsPerWorker per worker in flight: a slot whose episode ends takes
// the next seed, so memory follows the episodes in flight, not the seeds.
// The result is in seed order and does not depend on workers: every
// episode runs alone, agent is told of episode i as slot i (Begin(i, seed),
// Act(i, ...)) whichever environment plays it, and is called on the
// calling goroutine.
func Evaluate(cfg env.Config, seeds []uint64, agent Agent, workers int) ([]Episode, error) {
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	return evaluate(cfg, seeds, agent, workers, evalSlotsPerWorker*max(1, workers))
}

// evaluate is Evaluate with at most live episodes in flight.
func evaluate(cfg env.Config, seeds []uint64, agent Agent, workers, live int) ([]Episode, error) {
	n := len(seeds)
	if n == 0 {
		return nil, nil
	}
	w := min(n, live)
	b, err := env.NewBatch(cfg, w, workers)
	if err != nil {
		return nil, err
	}
	defer b.Close()
	od, ad := b.ObsDim(), b.ActDim()
	obs := make([]float32, w*od)
	act := make([]float64, w*ad)
	rew := make([]float64, w)
	term, trunc := make([]bool, w), make([]bool, w)
	playing := make([]bool, w) // the slot's episode has not ended
	start := make([]bool, w)   // the slot takes a new episode before the next step
	episode := make([]int, w)  // the episode index the slot plays
	slotSeeds := make([]uint64, w)
	out := make([]Episode, n)
	next, left := 0, n
	// take gives slot s the next episode; it starts at the next Reset.
	take := func(s int) {
		episode[s], slotSeeds[s], playing[s], start[s] = next, seeds[next], true, true
		out[next].Seed = seeds[next]
		next++
	}
	for s := range w {
		take(s)
	}
	for left > 0 {
		if slices.Contains(start, true) {
			if err := b.Reset(slotSeeds, start, obs); err != nil {
				return nil, err
			}
			for s := range w {
				if start[s] {
					agent.Begin(episode[s], slotSeeds[s])
					start[s] = false
				}
			}
		}
		for s := range w {
			if playing[s] {
				agent.Act(episode[s], obs[s*od:(s+1)*od], act[s*ad:(s+1)*ad])
			}
		}
		if err := b.StepSome(playing, act, obs, rew, term, trunc); err != nil {
			return nil, err
		}
		infos := b.Infos()
		for s := range w {
			if !playing[s] {
				continue
			}
			e := &out[episode[s]]
			e.Return += rew[s]
			e.Steps++
			if term[s] || trunc[s] {
				e.Final = infos[s]
				playing[s] = false
				left--
				if next < n {
					take(s)
				}
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
