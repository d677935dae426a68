package ikayak

import (
	"math"
	"testing"

	"yarngym/env/sim"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// TestFuzzyByHand: memberships, normalised firing strengths and the model
// output match a hand computation.
// Reference: iKayak Sec. 3.1.2, Eq. (4)-(5): y = sum_j sigma_j (zeta_j xi + ... + theta_j).
func TestFuzzyByHand(t *testing.T) {
	rules := []Rule{{Class: 0, Center: 0, Width: 0.5}, {Class: 0, Center: 1, Width: 0.5}, {Class: 1, Center: 0, Width: 0.5}}
	tau := 1.0
	m := NewTSModel(rules, 3, []float64{0, 0, 0}, 1, &tau)
	copy(m.Phi[0:3], []float64{1, 2, 3})
	copy(m.Phi[3:6], []float64{-1, 0.5, 2})
	copy(m.Phi[6:9], []float64{100, 100, 100})
	// u = 0.8: mu_1 = exp(-0.5 (0.8/0.5)^2) = exp(-1.28) = 0.2780373,
	// mu_2 = exp(-0.5 (0.2/0.5)^2) = exp(-0.08) = 0.9231163, mu_3 = 0 (class 1).
	cases := []struct {
		name    string
		rule    Rule
		class   int
		u, want float64
	}{
		{"low set at u=0.8", rules[0], 0, 0.8, 0.2780373},
		{"high set at u=0.8", rules[1], 0, 0.8, 0.9231163},
		{"other class", rules[2], 0, 0.8, 0},
		{"centre", rules[1], 0, 1, 1},
		{"one width off", rules[0], 0, 0.5, math.Exp(-0.5)},
	}
	for _, c := range cases {
		if got := c.rule.Membership(c.class, c.u); !near(got, c.want, 1e-6) {
			t.Errorf("%s: membership %.7f, want %.7f", c.name, got, c.want)
		}
	}
	sig := m.Firing(0, 0.8)
	s1, s2 := 0.2780373/(0.2780373+0.9231163), 0.9231163/(0.2780373+0.9231163) // 0.2314752, 0.7685248
	if !near(sig[0], s1, 1e-6) || !near(sig[1], s2, 1e-6) || sig[2] != 0 {
		t.Fatalf("firing %v, want [%.7f %.7f 0]", sig, s1, s2)
	}
	// x = [0.5, 2, 1]: y_1 = 0.5 + 4 + 3 = 7.5, y_2 = -0.5 + 1 + 2 = 2.5;
	// y = 0.2314752 x 7.5 + 0.7685248 x 2.5 = 3.6573761.
	if got := m.Predict(0, 0.8, []float64{0.5, 2, 1}); !near(got, 3.6573761, 1e-6) {
		t.Fatalf("output %.7f, want 3.6573761", got)
	}
	// Class 1 fires only rule 3: y = 100 (0.5 + 2 + 1) = 350.
	if got := m.Predict(1, 0.3, []float64{0.5, 2, 1}); !near(got, 350, 1e-9) {
		t.Fatalf("class 1 output %v, want 350", got)
	}
	if got := m.Predict(7, 0.3, []float64{0.5, 2, 1}); got != 0 {
		t.Fatalf("a class without rules predicts %v, want 0", got)
	}
}

// TestRLSReducesError: on a synthetic reducer whose log progress rate
// follows y(t) = 0.6 y(t-1) + 0.2 y(t-2) + u(t) - 0.8 + noise (sd 0.1)
// under a varying allocation u, started away from its steady state, the
// RLS-adapted model (started as a persistence predictor, y = y(t-1)) ends with
// a one-step error near the noise, well below persistence's on the same
// samples, and recovers the dynamics.
// Reference: iKayak Sec. 3.1.2, Eq. (5)-(6) (online self-learning).
func TestRLSReducesError(t *testing.T) {
	for _, tau := range []float64{1, 0.95} {
		p := NewPredictor()
		p.Tau = tau
		m := p.Model()
		rng := sim.NewRand(7)
		truth := func(y1, y2, u float64) float64 { return 0.6*y1 + 0.2*y2 + u - 0.8 }
		y1, y2, u1 := -4.0, -4.0, 1.0
		var early, late, persist float64
		const steps, first, window = 400, 10, 50
		class := phaseClass0 + 2 // the reduce phase
		for k := 0; k < steps; k++ {
			u := 0.1 + 0.9*rng.Float64()
			x := []float64{y1, y2, u, u1, 0.5, 1}
			y := truth(y1, y2, u) + 0.1*rng.NormFloat64()
			e := m.Update(class, u, x, y)
			if k < first {
				early += e * e
			}
			if k >= steps-window {
				late += e * e
				persist += (y - y1) * (y - y1)
			}
			y2, y1, u1 = y1, y, u
		}
		early, late, persist = math.Sqrt(early/first), math.Sqrt(late/window), math.Sqrt(persist/window)
		if !(late < 0.5*early) || !(late < 0.5*persist) || late > 0.13 {
			t.Errorf("tau %v: RMS one-step error %.4f at the end (start %.4f, persistence %.4f, noise 0.1)", tau, late, early, persist)
		}
		for _, q := range [][3]float64{{-1, -1.2, 0.9}, {-0.4, -0.6, 0.5}, {-2, -1.5, 0.35}} {
			x := []float64{q[0], q[1], q[2], q[2], 0.5, 1}
			if got, want := m.Predict(class, q[2], x), truth(q[0], q[1], q[2]); !near(got, want, 0.1) {
				t.Errorf("tau %v: prediction %.3f at %v, want %.3f", tau, got, q, want)
			}
		}
	}
}
