package dress

import "slices"

// Demand is what Alg. 3 sees at one control step, in containers.
type Demand struct {
	// TotR is the cluster's total containers.
	TotR float64
	// Ac1, Ac2 are the containers available now in the small-demand (SD)
	// and large-demand (LD) pools.
	Ac1, Ac2 float64
	// F1, F2 are the releases predicted for t+1 from the pools' running
	// jobs (Eq. 1-3).
	F1, F2 float64
	// SD, LD are the pending demands r_i of the jobs in each category.
	SD, LD []float64
}

// Adjust is Alg. 3: it returns the new reserve ratio from delta.
//
//   - If the SD pool's predicted availability covers its pending demand P1,
//     the surplus goes to LD: delta -= (Ac1 + F1 - P1) / TotR (l. 7-8).
//   - Else, if LD's covers P2, LD's surplus goes to SD: delta += (Ac2 + F2 -
//     P2) / TotR (l. 9-11).
//   - Else both pools are short: jobs are sorted by demand, ascending; the
//     smallest SD jobs take SD's availability, the smallest LD jobs LD's;
//     then further SD jobs, smallest first, take what is left over in both
//     while they fit, and what they take from LD's leftover moves to SD
//     (delta += that / TotR) (l. 12-24).
//
// Reading of l. 12-24: l. 14 adds F1 to both pools, a typo for F2; the loops
// stop at the first job that does not fit (l. 21 continues from there); a
// demand that fits exactly is met (the paper's "> 0" would leave a container
// idle); of a job moved to SD only the part beyond SD's own leftover comes
// from LD (the literal "A_c2 -= r_i, delta += r_i / Tot_R" would count SD's
// leftover twice).
//
// Reference: DRESS Sec. IV-C, Alg. 3.
func Adjust(delta float64, d Demand) float64 {
	if d.TotR <= 0 {
		return delta
	}
	p1, p2 := sum(d.SD), sum(d.LD)
	a1, a2 := d.Ac1+d.F1, d.Ac2+d.F2
	switch {
	case a1 >= p1:
		return delta - (a1-p1)/d.TotR
	case a2 >= p2:
		return delta + (a2-p2)/d.TotR
	}
	sd, ld := slices.Clone(d.SD), slices.Clone(d.LD)
	slices.Sort(sd)
	slices.Sort(ld)
	i := 0
	for ; i < len(sd) && sd[i] <= a1; i++ {
		a1 -= sd[i]
	}
	for _, r := range ld {
		if r > a2 {
			break
		}
		a2 -= r
	}
	for ; i < len(sd) && sd[i] <= a1+a2; i++ {
		fromLD := max(sd[i]-a1, 0)
		a1 = max(a1-sd[i], 0)
		a2 -= fromLD
		delta += fromLD / d.TotR
	}
	return delta
}

func sum(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s
}
