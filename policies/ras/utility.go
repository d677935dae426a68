package ras

import "math"

// MapUtility is u^M_j of RAS Eq. 2: the satisfaction of a job with sAlloc
// map slots when it needs sReq concurrent maps to meet its goal and has sPend
// maps left. Below sReq it grows logarithmically from -Inf (no slot) to 0;
// from sReq it grows linearly to 1 at sPend (every remaining map placed).
//
// Reference: RAS Sec. 3.3, Eq. 2. Where Eq. 2 divides by zero (sReq = sPend,
// a job that needs every remaining map at once) the linear branch is 1 once
// sAlloc reaches sPend; a job with no map left has nothing to want (1).
func MapUtility(sAlloc, sReq, sPend float64) float64 {
	if sPend <= 0 {
		return 1
	}
	if sAlloc >= sReq {
		if sPend <= sReq {
			return 1
		}
		return (sAlloc - sReq) / (sPend - sReq)
	}
	if sAlloc <= 0 {
		return math.Inf(-1)
	}
	// 0 < sAlloc < sReq, so sReq > 1 and log(sReq) > 0.
	return math.Log(sAlloc)/math.Log(sReq) - 1
}

// ReduceUtility is u^R_j of RAS Eq. 3: log(rAlloc)/log(rPend) - 1, in
// [-1, 0]: 0 once every reducer left is placed.
//
// Reference: RAS Sec. 3.3, Eq. 3 ("The range of this function is [-1, 0]"):
// no reducer placed is -1, as one is (log 1 = 0); a single pending reducer
// (log rPend = 0) is -1 until placed.
func ReduceUtility(rAlloc, rPend float64) float64 {
	if rPend <= 0 || rAlloc >= rPend {
		return 0
	}
	if rAlloc <= 1 {
		return -1
	}
	return math.Log(rAlloc)/math.Log(rPend) - 1
}

// Utility is u_j of RAS Eq. 1, u^M + u^R, capped at 1.
//
// Reference: RAS Sec. 3.3, Eq. 1 ("we cap the utility at u_j(P) = 1").
func Utility(sAlloc, sReq, sPend, rAlloc, rPend float64) float64 {
	return math.Min(1, MapUtility(sAlloc, sReq, sPend)+ReduceUtility(rAlloc, rPend))
}

// RequiredSlots is s_req, the Job Completion Time Estimator: the number of
// maps that must run concurrently for the job's sPend remaining maps, each
// taking meanS seconds (the observed average task length; the profiled one
// before any has finished), to finish within leftS seconds of its
// completion-time goal. Without a goal, without any task length, or with
// less than one task length left, the job needs every remaining map at once
// (sPend). At least 1 while maps remain.
//
// Reference: RAS Sec. 3.2 (Job Completion Time Estimator: from T_goal,
// s_pend and the observed average task length, after [6]); Sec. 3.1 ("When
// no completion time goal is provided, the assumption is that the job needs
// to be completed at the earliest possible time"); Sec. 4.2, Fig. 5 (with
// lax goals a job's utility is "above 0 immediately after one task for each
// job is placed": s_req = 1).
func RequiredSlots(sPend int, meanS, leftS float64, hasGoal bool) float64 {
	if sPend <= 0 {
		return 0
	}
	if !hasGoal || meanS <= 0 || leftS <= meanS {
		return float64(sPend)
	}
	req := math.Ceil(float64(sPend) * meanS / leftS)
	return math.Max(1, math.Min(req, float64(sPend)))
}
