package learn

import (
	"math"
	"slices"
	"testing"

	"yarngym/env/sim"
)

// TestScoreBatchMatchesScore: candidates scored together in one batch
// return what each scores alone, and are logged in order.
func TestScoreBatchMatchesScore(t *testing.T) {
	tk := mustTask(t, "AutoAdmin66-Fair-v0")
	alone, err := NewObjective(tk, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	together, _ := NewObjective(tk, 3, 1)
	as := [][]float64{{0.25}, {-1}, {0.75}}
	sts, err := together.ScoreBatch(as)
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range as {
		st, err := alone.Score(a)
		if err != nil {
			t.Fatal(err)
		}
		if st != sts[i] || !slices.Equal(together.Log[i].Action, a) {
			t.Errorf("candidate %v: batched %+v (logged %v), alone %+v", a, sts[i], together.Log[i].Action, st)
		}
	}
	if together.EnvSteps != alone.EnvSteps {
		t.Errorf("env steps %d batched, %d alone", together.EnvSteps, alone.EnvSteps)
	}
}

// TestGPInterpolates: on noiseless samples of a smooth function the fitted
// surrogate's mean is close to it between the samples, its spread small
// at a sample and larger between samples, and expected improvement is
// highest near the function's maximum.
func TestGPInterpolates(t *testing.T) {
	f := func(x float64) float64 { return math.Sin(6*x) + 0.5*x }
	var xs [][]float64
	var ys []float64
	for i := range 9 {
		x := float64(i) / 8
		xs, ys = append(xs, []float64{x}), append(ys, f(x))
	}
	g := fitGP(xs, ys)
	mu, sd := meanSD(ys) // predict is in standardised units
	for _, x := range []float64{0.06, 0.31, 0.56, 0.81} {
		m, _ := g.predict([]float64{x})
		if got := m*sd + mu; math.Abs(got-f(x)) > 0.05 {
			t.Errorf("mean at %v: %.3f, f %.3f", x, got, f(x))
		}
	}
	_, atSample := g.predict([]float64{0.5})
	_, between := g.predict([]float64{0.5625})
	if !(atSample < between) {
		t.Errorf("spread %.4f at a sample, %.4f between samples", atSample, between)
	}
	// f peaks near x = 0.27 (sin(6x) = 1 at x = pi/12).
	best, bestEI := 0.0, -1.0
	for i := range 101 {
		x := float64(i) / 100
		if ei := g.expectedImprovement([]float64{x}); ei > bestEI {
			best, bestEI = x, ei
		}
	}
	if math.Abs(best-math.Pi/12) > 0.1 {
		t.Errorf("expected improvement peaks at %v, f at %.3f", best, math.Pi/12)
	}
}

// TestPermutation: a permutation of 0..n-1, drawn from the generator.
func TestPermutation(t *testing.T) {
	p := permutation(sim.NewRand(3), 10)
	q := slices.Clone(p)
	slices.Sort(q)
	for i, v := range q {
		if v != i {
			t.Fatalf("%v is not a permutation of 0..9", p)
		}
	}
	if slices.Equal(p, permutation(sim.NewRand(4), 10)) {
		t.Error("two seeds gave the same permutation")
	}
}

// TestWinsorize: returns far below the rest are clipped to the median
// less 3 scaled MADs; the others keep their values; returns that do not
// vary are left alone.
func TestWinsorize(t *testing.T) {
	ys := []float64{-3.2, -11, -3.1, -3.2, -3.0, -3.15}
	got := winsorize(ys)
	// median -3.2 (gonum's empirical quantile: the lower middle), MAD 0.05
	// (scaled 0.07413): bound -3.4224
	if math.Abs(got[1]-(-3.2-3*1.4826*0.05)) > 1e-9 {
		t.Errorf("the outlier became %v", got[1])
	}
	for i, y := range ys {
		if i != 1 && got[i] != y {
			t.Errorf("return %d: %v became %v", i, y, got[i])
		}
	}
	if flat := winsorize([]float64{-2, -2, -2}); !slices.Equal(flat, []float64{-2, -2, -2}) {
		t.Errorf("flat returns became %v", flat)
	}
}
