package autoadmin

import "yarngym/env/sim"

// Inputs are what the RRP predicts from (vCores; Alg. 2 reads them from RIC).
type Inputs struct {
	C        float64 // C_R, the cluster's vCores
	NAMC     int     // running AM containers
	NTC      int     // running task containers
	AvgAMC   float64 // Avg_AMC_R
	AvgTC    float64 // Avg_TC_R
	TotalAMC float64 // TotalAMC_R, vCores held by running AMs
}

// Predict is AutoAdmin's Reserved Resource Predictor, Alg. 2: the vCores to
// reserve for processing (non-AM) tasks,
//
//	R_R = C_R x AvgTC_R / (AvgAMC_R + AvgTC_R)                  (Eq. 3.2)
//	if R_R > C_R - TotalAMC_R: R_R = R_R x (R_R + TotalAMC_R) / C_R  (Eq. 3.3, lines 5-6)
//	R_R = max(R_R, floor x C_R)                                  (lines 7-8)
//	R_R = min(R_R, C_R - AvgAMC_R)                               (lines 9-10)
//
// and floor x C_R when no AM or no task is running (lines 11-12). The paper's
// floor is 40 % ("we simply set a lower bound for resource reservation as 40%
// of the total cluster resources", Sec. 3.2). scaleUp switches Eq. 3.3 off for
// ablations. With one job type Eq. 3.2 is Eq. 3.1, C_R x TC_R / (AMC_R + TC_R).
//
// Reference: AutoAdmin Sec. 3.2, Alg. 2, Eq. 3.1-3.3.
func Predict(in Inputs, floor float64, scaleUp bool) float64 {
	if in.NAMC == 0 || in.NTC == 0 || in.AvgAMC+in.AvgTC <= 0 {
		return floor * in.C
	}
	r := in.C * in.AvgTC / (in.AvgAMC + in.AvgTC)
	if scaleUp && r > in.C-in.TotalAMC {
		r = r * (r + in.TotalAMC) / in.C
	}
	if r < floor*in.C {
		r = floor * in.C
	}
	if r > in.C-in.AvgAMC {
		r = in.C - in.AvgAMC
	}
	return r
}

// RRP keeps the current prediction R_R, recomputed from the RIC's records
// whenever a node updates (Alg. 2 runs on NodeUpdate).
type RRP struct {
	RIC *RIC
	// Floor is the lower bound as a share of C_R (parameter rrp_floor).
	Floor float64
	// ScaleUp is 1 to apply Eq. 3.3 (parameter rrp_scale_up).
	ScaleUp float64
	// Scale multiplies the prediction (parameter rrp_scale, 1 in the
	// paper): a tuner's handle on how much Alg. 2 reserves. It applies
	// after the floor and before the cap of lines 9-10, so R_R never keeps
	// a job's AM from starting on an AM-free cluster.
	Scale float64

	rr     float64
	inputs Inputs
	valid  bool
}

// Update recomputes R_R from the RIC.
func (p *RRP) Update(h sim.Handle) {
	t := p.RIC.Totals()
	p.inputs = Inputs{C: float64(h.Capacity().VCores), NAMC: t.NAMC, NTC: t.NTC,
		AvgAMC: p.RIC.AvgAMC(), AvgTC: p.RIC.AvgTC(), TotalAMC: float64(t.TotalAMC)}
	p.rr = Predict(p.inputs, p.Floor, p.ScaleUp > 0)
	if p.Scale != 1 {
		in := p.inputs
		p.rr = p.rr * p.Scale
		if in.NAMC > 0 && p.rr > in.C-in.AvgAMC {
			p.rr = in.C - in.AvgAMC
		}
		p.rr = min(max(p.rr, 0), in.C)
	}
	p.valid = true
}

// Reservation returns the current R_R; before any node has reported it is
// the floor (no AM or task is running yet).
func (p *RRP) Reservation(h sim.Handle) float64 {
	if !p.valid {
		p.Update(h)
	}
	return p.rr
}

// Inputs returns the RIC figures of the last prediction.
func (p *RRP) Inputs() Inputs { return p.inputs }
