package learn

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"yarngym/env/sim"
	"yarngym/env/task"
)

// Bayesian optimisation's settings. The search runs in the unit box
// [0, 1]^d, each parameter's range mapped linearly onto it.
const (
	// boBatch is how many candidates a round proposes (by the kriging
	// believer: each next one chosen as if the ones before had returned the
	// surrogate's mean there) and scores together, their episodes stepped
	// side by side in one env.Batch.
	boBatch = 3
	// boCandidates is how many points the acquisition is maximised over:
	// uniform ones, plus boLocal drawn around the best points so far.
	boCandidates = 2000
	boLocal      = 500
	// boLocalSD is the spread of the local candidates (unit-box units).
	boLocalSD = 0.05
	// boXi is expected improvement's exploration margin, in units of the
	// returns' standard deviation (Lizotte 2008; 0.01 is the common choice).
	boXi = 0.01
	// boOutlierMADs is how far below the median return, in scaled median
	// absolute deviations, a return is clipped for the surrogate
	// (winsorize).
	boOutlierMADs = 3
)

// BO is Bayesian optimisation of a static action, as OtterTune tunes a
// database's knobs (Van Aken et al., SIGMOD 2017): a Gaussian-process
// surrogate of the mean train return, its outliers clipped (winsorize)
// (Rasmussen and Williams, "Gaussian
// Processes for Machine Learning", 2006: Matern 5/2 kernel with a length
// scale per parameter, its signal and noise variances fitted by maximising
// the marginal likelihood, Alg. 2.1 for the posterior) and expected
// improvement (Jones, Schonlau and Welch 1998) as the acquisition.
//
// The loop: score an initial design (the paper default and a Latin
// hypercube), then, round after round until the budget is spent, fit the
// surrogate to every mean return so far, propose boBatch candidates and
// score them together. Integer parameters are rounded before a candidate is
// judged, and a candidate already scored is never proposed again (a small
// integer box may be exhausted before the budget: the search then stops).
// Every draw comes from the run's seeded generator and candidates are
// scored on the same train seeds, so the same seed gives the same model
// whatever the worker count. The best candidate scored is kept.
func BO(t task.Task, o Options) (*Result, error) {
	obj, err := NewObjective(t, o.TrainSeeds, o.Workers)
	if err != nil {
		return nil, err
	}
	rng := sim.NewRand(sim.DeriveSeed(o.Seed, sim.HashString("learn.bo")))
	d := len(obj.Low)
	toUnit := func(a []float64) []float64 {
		u := make([]float64, d)
		for i, v := range a {
			if r := obj.High[i] - obj.Low[i]; r > 0 {
				u[i] = (v - obj.Low[i]) / r
			}
		}
		return u
	}
	fromUnit := func(u []float64) []float64 {
		a := make([]float64, d)
		for i, v := range u {
			a[i] = obj.Low[i] + (obj.High[i]-obj.Low[i])*min(max(v, 0), 1)
		}
		return obj.Clip(a)
	}
	seen := map[string]bool{}
	key := func(a []float64) string { return fmt.Sprint(a) } // exact: %v round-trips a float64
	score := func(batch [][]float64) error {
		sts, err := obj.ScoreBatch(batch)
		if err != nil {
			return err
		}
		for i, st := range sts {
			seen[key(obj.Clip(batch[i]))] = true
			report(o, obj, st)
		}
		return nil
	}

	// 1. The initial design: the paper default, then a Latin hypercube (one
	// point in each of n strata of every parameter).
	n0 := min(o.Budget, max(4, 2*d+2))
	design := [][]float64{obj.Clip(t.Default)}
	perms := make([][]int, d)
	for i := range perms {
		perms[i] = permutation(rng, n0-1)
	}
	for k := range n0 - 1 {
		u := make([]float64, d)
		for i := range u {
			u[i] = (float64(perms[i][k]) + rng.Float64()) / float64(n0-1)
		}
		if a := fromUnit(u); !seen[key(a)] && !containsAction(design, a) {
			design = append(design, a)
		}
	}
	if err := score(design); err != nil {
		return nil, err
	}

	// 2. Rounds: fit the surrogate, propose a batch, score it.
	for len(obj.Log) < o.Budget {
		xs := make([][]float64, len(obj.Log))
		ys := make([]float64, len(obj.Log))
		for i, e := range obj.Log {
			xs[i], ys[i] = toUnit(e.Action), e.Return.Mean
		}
		gp := fitGP(xs, winsorize(ys))
		var batch [][]float64
		for len(batch) < min(boBatch, o.Budget-len(obj.Log)) {
			best, bestEI := []float64(nil), -1.0
			for _, u := range boCandidatesFor(rng, xs, ys, d) {
				a := fromUnit(u)
				if seen[key(a)] || containsAction(batch, a) {
					continue
				}
				if ei := gp.expectedImprovement(toUnit(a)); ei > bestEI {
					best, bestEI = a, ei
				}
			}
			if best == nil {
				break // every candidate is scored already
			}
			batch = append(batch, best)
			gp.believe(toUnit(best)) // the kriging believer
		}
		if len(batch) == 0 {
			break
		}
		if err := score(batch); err != nil {
			return nil, err
		}
	}
	return staticResult("bo", t, o, obj), nil
}

// winsorize clips the returns far below the typical ones to a bound: the
// median less boOutlierMADs scaled median absolute deviations (Tukey's
// robust rule for outliers; Leys et al., J. Exp. Soc. Psychol. 2013,
// recommend 2.5 to 3). Returns are heavy-tailed: a setting that stalls
// jobs scores several times worse than the rest, and on the raw scale those
// few set the surrogate's variance, so that the differences that matter,
// among the good settings, vanish in it. Clipped, they still say "bad
// here" without drowning the rest; the returns above the bound keep their
// magnitudes (a rank transform would lose them, and with them a narrow
// optimum's height). Only the surrogate sees clipped values: the model
// kept is the best return scored.
func winsorize(ys []float64) []float64 {
	med := stat.Quantile(0.5, stat.Empirical, sortedCopy(ys), nil)
	dev := make([]float64, len(ys))
	for i, y := range ys {
		dev[i] = math.Abs(y - med)
	}
	mad := 1.4826 * stat.Quantile(0.5, stat.Empirical, sortedCopy(dev), nil) // consistent with the SD for normal data
	out := slices.Clone(ys)
	if mad == 0 {
		return out
	}
	lo := med - boOutlierMADs*mad
	for i := range out {
		out[i] = max(out[i], lo)
	}
	return out
}

func sortedCopy(xs []float64) []float64 {
	out := slices.Clone(xs)
	slices.Sort(out)
	return out
}

// boCandidatesFor draws the points the acquisition is maximised over:
// uniform in the box, and around the three best points scored.
func boCandidatesFor(rng *sim.Rand, xs [][]float64, ys []float64, d int) [][]float64 {
	out := make([][]float64, 0, boCandidates+boLocal)
	for range boCandidates {
		u := make([]float64, d)
		for i := range u {
			u[i] = rng.Float64()
		}
		out = append(out, u)
	}
	order := make([]int, len(ys))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return -cmp.Compare(ys[a], ys[b]) })
	top := order[:min(3, len(order))]
	for k := range boLocal {
		c := xs[top[k%len(top)]]
		u := make([]float64, d)
		for i := range u {
			u[i] = min(max(c[i]+boLocalSD*rng.NormFloat64(), 0), 1)
		}
		out = append(out, u)
	}
	return out
}

// gp is a Gaussian-process regression of standardised returns on unit-box
// points.
type gp struct {
	xs       [][]float64
	y        []float64 // standardised
	ls       []float64 // length scale per parameter
	sf2, sn2 float64   // signal and noise variances
	chol     mat.Cholesky
	alpha    *mat.VecDense // K^-1 y
	best     float64       // the incumbent: the highest posterior mean at a scored point
}

// fitGP standardises ys and fits the kernel's hyper-parameters (log length
// scales, log signal and noise variances) by maximising the log marginal
// likelihood with Nelder-Mead from a few fixed starts (gonum/optimize).
func fitGP(xs [][]float64, ys []float64) *gp {
	mean, sd := meanSD(ys)
	y := make([]float64, len(ys))
	for i, v := range ys {
		y[i] = (v - mean) / sd
	}
	d := len(xs[0])
	unpack := func(th []float64) ([]float64, float64, float64) {
		ls := make([]float64, d)
		for i := range ls {
			ls[i] = math.Exp(min(max(th[i], math.Log(0.01)), math.Log(10)))
		}
		return ls, math.Exp(min(max(th[d], math.Log(0.01)), math.Log(100))), math.Exp(min(max(th[d+1], math.Log(1e-6)), math.Log(1)))
	}
	nll := func(th []float64) float64 {
		ls, sf2, sn2 := unpack(th)
		g := &gp{xs: xs, y: y, ls: ls, sf2: sf2, sn2: sn2}
		lml, ok := g.factor()
		if !ok {
			return math.Inf(1)
		}
		return -lml
	}
	bestTh, bestV := []float64(nil), math.Inf(1)
	for _, l := range []float64{0.1, 0.3, 1} {
		start := make([]float64, d+2)
		for i := range d {
			start[i] = math.Log(l)
		}
		start[d], start[d+1] = 0, math.Log(0.1)
		res, err := optimize.Minimize(optimize.Problem{Func: nll}, start, &optimize.Settings{FuncEvaluations: 300}, &optimize.NelderMead{})
		th, v := start, nll(start)
		if err == nil && res != nil && res.F < v {
			th, v = res.X, res.F
		}
		if v < bestV {
			bestTh, bestV = th, v
		}
	}
	ls, sf2, sn2 := unpack(bestTh)
	g := &gp{xs: xs, y: y, ls: ls, sf2: sf2, sn2: sn2}
	if _, ok := g.factor(); !ok {
		g.sn2 = 1 // a kernel matrix that will not factorise: fall back to noise alone
		g.factor()
	}
	g.best = math.Inf(-1)
	for _, x := range xs {
		m, _ := g.predict(x)
		g.best = max(g.best, m)
	}
	return g
}

// kernel is the Matern 5/2 covariance of a and b.
func (g *gp) kernel(a, b []float64) float64 {
	r2 := 0.0
	for i := range a {
		d := (a[i] - b[i]) / g.ls[i]
		r2 += d * d
	}
	r := math.Sqrt(5 * r2)
	return g.sf2 * (1 + r + r*r/3) * math.Exp(-r)
}

// factor factorises K + sn2 I and solves for alpha; it returns the log
// marginal likelihood (Rasmussen and Williams Alg. 2.1), false if K is not
// positive definite.
func (g *gp) factor() (float64, bool) {
	n := len(g.xs)
	k := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			v := g.kernel(g.xs[i], g.xs[j])
			if i == j {
				v += g.sn2
			}
			k.SetSym(i, j, v)
		}
	}
	if ok := g.chol.Factorize(k); !ok {
		return 0, false
	}
	g.alpha = mat.NewVecDense(n, nil)
	if err := g.chol.SolveVecTo(g.alpha, mat.NewVecDense(n, slices.Clone(g.y))); err != nil {
		return 0, false
	}
	fit := mat.Dot(mat.NewVecDense(n, slices.Clone(g.y)), g.alpha)
	return -0.5*fit - 0.5*g.chol.LogDet() - 0.5*float64(n)*math.Log(2*math.Pi), true
}

// predict is the posterior mean and standard deviation at x.
func (g *gp) predict(x []float64) (float64, float64) {
	n := len(g.xs)
	ks := mat.NewVecDense(n, nil)
	for i, xi := range g.xs {
		ks.SetVec(i, g.kernel(x, xi))
	}
	m := mat.Dot(ks, g.alpha)
	w := mat.NewVecDense(n, nil)
	if err := g.chol.SolveVecTo(w, ks); err != nil {
		return m, 0
	}
	v := g.sf2 - mat.Dot(ks, w)
	return m, math.Sqrt(max(v, 0))
}

// expectedImprovement is EI over the incumbent at x.
func (g *gp) expectedImprovement(x []float64) float64 {
	m, s := g.predict(x)
	if s <= 0 {
		return 0
	}
	z := (m - g.best - boXi) / s
	n := distuv.UnitNormal
	return (m-g.best-boXi)*n.CDF(z) + s*n.Prob(z)
}

// believe adds x with the posterior mean as its observation (the kriging
// believer: the next proposal of the batch sees x as scored) and refactors,
// keeping the hyper-parameters and the incumbent.
func (g *gp) believe(x []float64) {
	m, _ := g.predict(x)
	g.xs = append(slices.Clone(g.xs), x)
	g.y = append(slices.Clone(g.y), m)
	if _, ok := g.factor(); !ok {
		g.xs, g.y = g.xs[:len(g.xs)-1], g.y[:len(g.y)-1]
		g.factor()
	}
}

// permutation is a uniform permutation of 0..n-1 (Fisher-Yates).
func permutation(rng *sim.Rand, n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	for i := n - 1; i > 0; i-- {
		j := rng.IntN(i + 1)
		p[i], p[j] = p[j], p[i]
	}
	return p
}

// meanSD is the mean and sample standard deviation of xs (gonum/stat; 1
// where they do not vary, so that standardising never divides by 0).
func meanSD(xs []float64) (float64, float64) {
	if len(xs) < 2 {
		return xs[0], 1
	}
	m, sd := stat.MeanStdDev(xs, nil)
	if sd == 0 {
		sd = 1
	}
	return m, sd
}

func containsAction(as [][]float64, a []float64) bool {
	return slices.ContainsFunc(as, func(b []float64) bool { return slices.Equal(a, b) })
}
