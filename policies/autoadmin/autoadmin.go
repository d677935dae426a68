// Package autoadmin is AutoAdmin (Yang et al., "AutoAdmin: Automatic and
// Dynamic Resource Reservation Admission Control in Hadoop YARN Clusters"):
// admission control in front of the Fair scheduler that reserves vCores for
// processing tasks so that ApplicationMasters, which hold their containers
// until their job ends, cannot take the whole cluster (the AM deadlock of
// Sec. 2.2) nor starve the tasks.
//
//   - RIC (ric.go, Alg. 1) records AM and task containers per node at every
//     node heartbeat;
//   - RRP (rrp.go, Alg. 2, Eq. 3.1-3.3) predicts the reservation R_R from them;
//   - ARC (arc.go, Alg. 3) admits a job only if its AM leaves R_R for tasks.
//
// Two policies are registered: "autoadmin" (the dynamic mechanism) and
// "static-reserve" (the static reservation of Sec. 2.3, the baseline the
// paper's Perf. Score compares against, Eq. 4.1). Both are Fair underneath.
package autoadmin

import (
	"yarngym/env/sim"
	"yarngym/policies/base"
	"yarngym/policies/fair"
)

// New builds AutoAdmin: Fair with the RIC as a node monitor, the RRP fed by
// it and the ARC as admitter.
//
// Reference: AutoAdmin Sec. 3, Alg. 1-3; Sec. 4.1 ("We implement our new
// admission control mechanism in the Fair scheduler").
func New(sp base.Spec) (*sim.Policy, error) {
	p, err := fairBase(sp, "autoadmin")
	if err != nil {
		return nil, err
	}
	ric := &RIC{}
	rrp := &RRP{RIC: ric}
	ric.OnUpdate = rrp.Update
	arc := &ARC{Reserve: rrp.Reservation}
	p.Monitors = append(p.Monitors, ric)
	p.Admission = append(p.Admission, arc)
	p.Params.Add(sim.Param{Name: "rrp_floor", Doc: "lower bound of the reservation R_R as a share of the cluster's vCores; also R_R when no AM or no task runs",
		Ref: "AutoAdmin Sec. 3.2, Alg. 2 lines 7-8, 11-12 (40%)", Min: 0, Max: 1, Default: 0.4, Value: &rrp.Floor})
	p.Params.Add(sim.Param{Name: "rrp_scale_up", Doc: "1: scale R_R up by (R_R + TotalAMC_R) / C_R when R_R > C_R - TotalAMC_R; 0: off (ablation)",
		Ref: "AutoAdmin Sec. 3.2, Eq. 3.3, Alg. 2 lines 5-6", Min: 0, Max: 1, Default: 1, Integer: true, Value: &rrp.ScaleUp})
	p.Params.Add(sim.Param{Name: "rrp_scale", Doc: "multiplies the RRP's prediction R_R (after the floor, before the cap at C_R - Avg_AMC_R); 1 is the paper's Alg. 2, a tuner's handle on the reservation",
		Ref: "AutoAdmin Sec. 3.2, Alg. 2 (1: the paper)", Min: 0, Max: 2, Default: 1, Value: &rrp.Scale})
	p.State = append(p.State,
		sim.StateVar{Name: "rrp_reserved_vcores", Doc: "R_R: vCores the RRP reserves for processing tasks (Alg. 2)", Get: func() float64 { return rrp.rr }, Min: 0, Max: 1, Per: sim.PerVCore},
		sim.StateVar{Name: "rrp_avg_amc_vcores", Doc: "Avg_AMC_R: mean vCores of running AMs, from the RIC (Alg. 1)", Get: ric.AvgAMC, Min: 0, Max: 64, Log: true},
		sim.StateVar{Name: "rrp_avg_tc_vcores", Doc: "Avg_TC_R: mean vCores of running task containers, from the RIC (Alg. 1)", Get: ric.AvgTC, Min: 0, Max: 64, Log: true},
		sim.StateVar{Name: "rrp_total_amc_vcores", Doc: "TotalAMC_R: vCores held by running AMs, from the RIC (Eq. 3.3)",
			Get: func() float64 { return float64(ric.Totals().TotalAMC) }, Min: 0, Max: 1, Per: sim.PerVCore},
		sim.StateVar{Name: "rrp_running_ams", Doc: "N_AMC: running AM containers, from the RIC (Alg. 1)",
			Get: func() float64 { return float64(ric.Totals().NAMC) }, Min: 0, Max: 1, Per: sim.PerJob},
		sim.StateVar{Name: "rrp_running_tasks", Doc: "N_TC: running task containers, from the RIC (Alg. 1)",
			Get: func() float64 { return float64(ric.Totals().NTC) }, Min: 0, Max: 1, Per: sim.PerVCore},
	)
	p.State = append(p.State, arc.state()...)
	return p, nil
}

// NewStatic builds the static reservation of Sec. 2.3: Fair "modified ... to
// support the static resource reservation", i.e. a fixed amount of vCores
// reserved for non-AM processing tasks. A job is admitted while the vCores
// not held by the running jobs' AMs, less its own AM, stay at least
// reserved_vcores (the ARC test with a constant R_R); the rest waits.
// A reservation above C_R - AM_J admits nothing: such jobs are reported stuck.
//
// Reference: AutoAdmin Sec. 2.3, Figs. 2.2 and 2.3; Eq. 4.1 (the optimal
// static setting is the Perf. Score's Min_Makespan).
func NewStatic(sp base.Spec) (*sim.Policy, error) {
	p, err := fairBase(sp, "static-reserve")
	if err != nil {
		return nil, err
	}
	var reserved float64
	arc := &ARC{Reserve: func(sim.Handle) float64 { return reserved }}
	p.Admission = append(p.Admission, arc)
	p.Params.Add(sim.Param{Name: "reserved_vcores", Doc: "vCores reserved for processing (non-AM) tasks; assumed default 32: the paper sweeps it (Figs. 2.2/2.3), 32 is the best static reservation of three of the four AMC = TC cells of Table 3.1 on its 64 vCores",
		Ref: "AutoAdmin Sec. 2.3 (static reservation), Table 3.1", Min: 0, Max: 1e6, Default: 32, Integer: true, Value: &reserved})
	p.State = append(p.State, arc.state()...)
	return p, nil
}

// fairBase is the paper's Fair scheduler: YARN v2.2.0 (Sec. 6), which has no
// maxAMShare (added later by YARN-1913 precisely against the AM deadlock), so
// the limit defaults to off here; it stays a parameter.
func fairBase(sp base.Spec, name string) (*sim.Policy, error) {
	p, err := fair.New(sp)
	if err != nil {
		return nil, err
	}
	p.Name = name
	// YARN v2.2.0's FairScheduler never set an application's headroom
	// (fair.New's zero_headroom, before YARN-1959 in Hadoop 2.6.0): the
	// paper's stack, so on by default here.
	if q := p.Params.Get("zero_headroom"); q != nil {
		q.Default = 1
		q.Doc += "; on by default here: the paper's YARN v2.2.0"
		q.Ref = "AutoAdmin Sec. 6 (YARN v2.2.0); " + q.Ref
		*q.Value = 1
	}
	if q := p.Params.Get("max_am_share"); q != nil {
		q.Default = -1
		q.Doc += "; off by default here: the paper's YARN v2.2.0 Fair scheduler has no maxAMShare"
		q.Ref = "AutoAdmin Sec. 6 (YARN v2.2.0); YARN FairScheduler maxAMShare"
		*q.Value = -1
	}
	return p, nil
}
