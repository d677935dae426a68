package learn

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/optimize"

	"yarngym/env/sim"
	"yarngym/env/task"
)

// CMA-ES's settings. The search runs in the unit box [-1, 1]^d, each
// parameter's range mapped linearly onto it, starting at the paper default.
// A sample outside the box is reflected back into it (a triangle wave,
// Hansen's tutorial's alternative to a penalty): clipping would make the
// outside one flat plateau on which a generation collapses.
const (
	// cmaesStep is the initial step size sigma in unit-box coordinates: a
	// quarter of the box's width (2), pycma's recommendation for sigma0
	// ("about 1/4th of the search domain width"), so that the first
	// generations spread over the box.
	cmaesStep = 0.5
	// cmaesPopulation is the population per generation (0: gonum's default,
	// 4 + floor(3 ln d), i.e. 4 for one parameter and 6 for two).
	cmaesPopulation = 0
)

// CMAES is the covariance matrix adaptation evolution strategy, from gonum
// (optimize.CmaEsChol, the Cholesky variant of Hansen's CMA-ES, "The CMA
// Evolution Strategy: A Tutorial", 2016), minimising minus the mean train
// return of a static action. Candidates are scored in turn (gonum's
// Concurrent = 1), each on every train seed at once through env.Batch, so
// the run does not depend on the worker count. It stops after o.Budget
// evaluations and keeps the best candidate scored.
//
// In one dimension the covariance is moot: CMA-ES is a weighted
// recombination evolution strategy with cumulative step-size adaptation
// (Hansen, pycma issue #86, which refuses d = 1 for that reason). With a
// third of an 81-point grid (27 evaluations, about 7 generations of 4) it
// does not reliably find a narrow optimum that the grid lands on (the
// one-parameter tasks AutoAdmin-v0, AutoAdmin66-Fair-v0 and RAS-v0;
// README, "Learners", has CMA-ES over 10 seeds against the grid).
func CMAES(t task.Task, o Options) (*Result, error) {
	obj, err := NewObjective(t, o.TrainSeeds, o.Workers)
	if err != nil {
		return nil, err
	}
	var scoreErr error
	problem := optimize.Problem{Func: func(u []float64) float64 {
		if scoreErr != nil {
			return 0
		}
		st, err := obj.Score(obj.FromUnit(reflect(u)))
		if err != nil {
			scoreErr = err
			return 0
		}
		report(o, obj, st)
		return -st.Mean
	}}
	s := sim.DeriveSeed(o.Seed, sim.HashString("learn.cmaes"))
	method := &optimize.CmaEsChol{
		InitStepSize: cmaesStep,
		Population:   cmaesPopulation,
		Src:          rand.NewPCG(s, sim.DeriveSeed(s, 1)),
	}
	settings := &optimize.Settings{
		FuncEvaluations: o.Budget,
		Concurrent:      1,
		// Stop on the budget only: return noise must not end the search.
		Converger: &optimize.FunctionConverge{Iterations: o.Budget + 1},
	}
	_, err = optimize.Minimize(problem, obj.ToUnit(t.Default), settings, method)
	switch {
	case scoreErr != nil:
		return nil, scoreErr
	case err != nil && len(obj.Log) == 0:
		return nil, err
	}
	return staticResult("cmaes", t, o, obj), nil
}

// reflect folds u into [-1, 1]^d: the identity inside, a mirror at each
// face outside (period 4).
func reflect(u []float64) []float64 {
	out := make([]float64, len(u))
	for i, v := range u {
		t := math.Mod(v+1, 4)
		if t < 0 {
			t += 4
		}
		if t > 2 {
			t = 4 - t
		}
		out[i] = t - 1
	}
	return out
}
