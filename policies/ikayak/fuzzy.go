package ikayak

import "math"

// Rule is the antecedent of one Takagi-Sugeno rule F_j (iKayak Sec. 3.1.2):
// "IF ... u(t) is Omega_{j,rho+1} ...". Rules are grouped by a crisp class
// (the reducer's execution phase: "each fuzzy rule characterizes the
// nonlinear relationship between allocated resources and performance for a
// specific reduce task type") and a Gaussian fuzzy set on the normalised
// resource allocation u in [0, 1]; every other antecedent set is "any"
// (membership 1).
type Rule struct {
	Class  int
	Center float64
	Width  float64
}

// Membership is the rule's degree of fulfilment for a sample of class c with
// normalised allocation u: [c == Class] x exp(-(u - Center)^2 / (2 Width^2)).
func (r Rule) Membership(class int, u float64) float64 {
	if class != r.Class {
		return 0
	}
	d := (u - r.Center) / r.Width
	return math.Exp(-0.5 * d * d)
}

// TSModel is a first-order Takagi-Sugeno fuzzy model adapted online by
// recursive least squares with exponential forgetting.
//
// Reference: iKayak Sec. 3.1.2, Eq. (1)-(6). Each rule's consequent is linear
// in the regressor x = [xi(t), d, 1] (Eq. 4: y_j = zeta_j xi(t) + eta_j u(t) +
// omega_j d + theta_j, with u(t) inside xi(t) per Eq. 2); the model output is
// y = sum_j sigma_j y_j = phi X with X = [sigma_1 x, ..., sigma_J x] (Eq. 5),
// sigma_j the normalised firing strengths. RLS minimises sum_k tau^(t-k)
// e(k)^2, whose first two terms are Eq. (6) (e(t)^2 + tau e(t-1)^2): tau is the
// discount factor giving recent samples more weight.
type TSModel struct {
	Rules []Rule
	NX    int       // length of the regressor x
	Phi   []float64 // consequent parameters: rule j owns Phi[j*NX : (j+1)*NX]
	P     []float64 // RLS covariance, (J*NX)^2 row-major
	// Tau is the RLS discount (forgetting) factor in (0, 1].
	Tau *float64
	// MaxTrace bounds the covariance: forgetting is skipped while trace(P)
	// exceeds it (standard anti-windup for directions the samples do not
	// excite: the rules of phases no reducer is in, and the near-collinear
	// u(t), u(t-1) and offset of uncontended reducers). NewTSModel sets it
	// to the initial trace.
	MaxTrace float64

	sigma []float64
	big   []float64
	px    []float64
}

// NewTSModel builds a model whose every rule starts with the consequent
// init (length nx) and covariance p0 x I.
func NewTSModel(rules []Rule, nx int, init []float64, p0 float64, tau *float64) *TSModel {
	n := len(rules) * nx
	m := &TSModel{Rules: rules, NX: nx, Phi: make([]float64, n), P: make([]float64, n*n), Tau: tau,
		MaxTrace: p0 * float64(n), sigma: make([]float64, len(rules)), big: make([]float64, n), px: make([]float64, n)}
	for j := range rules {
		copy(m.Phi[j*nx:(j+1)*nx], init)
	}
	for i := 0; i < n; i++ {
		m.P[i*n+i] = p0
	}
	return m
}

// Firing returns the normalised firing strengths sigma_j for a sample (a
// fresh slice). When no rule fires at all, the rules of the class share
// equally (the Gaussian sets never vanish, so this only happens for an
// unknown class, which then fires nothing and predicts 0).
func (m *TSModel) Firing(class int, u float64) []float64 {
	out := make([]float64, len(m.Rules))
	m.firing(class, u, out)
	return out
}

func (m *TSModel) firing(class int, u float64, out []float64) {
	sum := 0.0
	for j, r := range m.Rules {
		out[j] = r.Membership(class, u)
		sum += out[j]
	}
	if sum > 0 {
		for j := range out {
			out[j] /= sum
		}
	}
}

// Predict returns y = sum_j sigma_j (Phi_j . x) (Eq. 5 without the error).
func (m *TSModel) Predict(class int, u float64, x []float64) float64 {
	m.firing(class, u, m.sigma)
	y := 0.0
	for j, s := range m.sigma {
		if s == 0 {
			continue
		}
		phi := m.Phi[j*m.NX : (j+1)*m.NX]
		dot := 0.0
		for i, v := range x {
			dot += phi[i] * v
		}
		y += s * dot
	}
	return y
}

// Update adapts Phi to the measured output y for the sample (class, u, x)
// and returns the a-priori error e = y - prediction. Standard RLS with
// forgetting tau: K = P X / (tau + X' P X); Phi += K e; P = (P - K X' P) / tau.
func (m *TSModel) Update(class int, u float64, x []float64, y float64) float64 {
	n := len(m.Phi)
	m.firing(class, u, m.sigma)
	for j, s := range m.sigma {
		for i := 0; i < m.NX; i++ {
			m.big[j*m.NX+i] = s * x[i]
		}
	}
	X := m.big
	e := y
	for i := 0; i < n; i++ {
		e -= m.Phi[i] * X[i]
	}
	tau := 1.0
	if m.Tau != nil {
		tau = *m.Tau
	}
	// px = P X; P is symmetric, so X' P = px'.
	denom := tau
	for i := 0; i < n; i++ {
		v := 0.0
		row := m.P[i*n : (i+1)*n]
		for k := 0; k < n; k++ {
			v += row[k] * X[k]
		}
		m.px[i] = v
		denom += X[i] * v
	}
	if denom <= 0 || math.IsNaN(denom) {
		return e
	}
	for i := 0; i < n; i++ {
		m.Phi[i] += m.px[i] / denom * e
	}
	trace := 0.0
	for i := 0; i < n; i++ {
		ki := m.px[i] / denom
		row := m.P[i*n : (i+1)*n]
		for k := 0; k < n; k++ {
			row[k] -= ki * m.px[k]
		}
		trace += row[i]
	}
	if tau < 1 && trace < m.MaxTrace {
		for i := range m.P {
			m.P[i] /= tau
		}
	}
	return e
}
