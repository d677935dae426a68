package autoadmin

import "yarngym/env/sim"

// ARC is AutoAdmin's Application Resource Controller, a sim.Admitter in
// front of the scheduler. A job J enters the running list only if the
// vCores left for processing tasks after its AM still cover the reservation:
//
//	C_R - TotalApp_R - AM_J >= R_R                     (Alg. 3 line 2)
//
// else it waits; the engine keeps refused jobs in submission order and
// retries them on heartbeats, job ends and control cycles. TotalApp_R is what
// the applications of the running list hold as AMs: Fig. 3.4 reserves 21
// vCores for tasks, leaves "6 remaining vcores ... to AM tasks", and job3
// waits because "the AMs of currently running jobs ... have already occupied
// all 6 vcores". It counts every admitted, unfinished job's AM, also one not
// yet launched, so a burst cannot overshoot the AM budget.
//
// A waiting job is released at a NodeUpdate only if, in addition, a node has
// room for its AM (line 10, AV_A_R,i >= WaitingJobAM_R): the engine does not
// tell the admitter which node heartbeats, so any unreserved node whose free
// resources fit the AM counts. A job checked at its submission instant takes
// the first test only (lines 1-5).
//
// R_R comes from Reserve: the RRP's prediction (AutoAdmin) or a constant
// (the static reservation of Sec. 2.3).
//
// Reference: AutoAdmin Sec. 3.3, Alg. 3, Fig. 3.4.
type ARC struct {
	Reserve func(h sim.Handle) float64

	run sim.Handle // the run, as the engine last handed it over
}

// TotalApp is TotalApp_R: the AM vCores of the admitted, unfinished jobs.
func TotalApp(h sim.Handle) int64 {
	var v int64
	for _, j := range h.Active() {
		v += j.Spec.AM.VCores
	}
	return v
}

// Admit implements sim.Admitter.
func (a *ARC) Admit(h sim.Handle, j *sim.Job) bool {
	a.run = h
	free := float64(h.Capacity().VCores - TotalApp(h) - j.Spec.AM.VCores)
	if free < a.Reserve(h) {
		return false
	}
	if h.Now() > j.Spec.SubmitMs && !amFits(h, j) {
		return false
	}
	return true
}

// amFits reports whether some node could launch j's AM now.
func amFits(h sim.Handle, j *sim.Job) bool {
	if j.Spec.AM.IsZero() {
		return true
	}
	for _, n := range h.Nodes() {
		if n.Reserved == nil && h.FitsFree(j.Spec.AM, n) {
			return true
		}
	}
	return false
}

// state returns the ARC's state variables.
func (a *ARC) state() []sim.StateVar {
	return []sim.StateVar{
		{Name: "arc_total_app_vcores", Doc: "TotalApp_R: vCores of the AMs of admitted, unfinished jobs (Alg. 3)",
			Get: func() float64 {
				if a.run == nil {
					return 0
				}
				return float64(TotalApp(a.run))
			}, Min: 0, Max: 1, Per: sim.PerVCore},
		{Name: "arc_waiting_jobs", Doc: "jobs in the ARC's waiting list (APPLIST_WAIT, Alg. 3)",
			Get: func() float64 {
				if a.run == nil {
					return 0
				}
				return float64(len(a.run.Waiting()))
			}, Min: 0, Max: 1, Per: sim.PerJob},
	}
}
