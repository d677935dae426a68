package task

import "yarngym/env"

// autoAdmin66Fair: the AM-deadlock cliff of AutoAdmin Sec. 2.2 under the
// stock Fair scheduler. 66 terasort jobs arrive at once on 64 vCores; each
// AM holds its container until its job ends, so letting AMs take the whole
// cluster (max_am_share near 1, or off) starves the tasks, and 0 admits
// none: the agent must learn a safe AM share.
func autoAdmin66Fair() *Task {
	return &Task{
		ID:    "AutoAdmin66-Fair-v0",
		Doc:   "AutoAdmin's 66 terasort jobs on 64 vCores under Fair; the agent sets maxAMShare, the share of the queue's fair share ApplicationMasters may hold (0 admits no AM: a deadlock; -1 switches the limit off)",
		Paper: "AutoAdmin",
		Ref:   "AutoAdmin Sec. 2.2 (AM deadlock), 2.3; YARN FairScheduler maxAMShare (default 0.5)",
		Env: env.Config{Scenario: "autoadmin-66", Policy: "fair", Controlled: []string{"max_am_share"}, Sets: stallAfter300s,
			ControlIntervalS: 30, HorizonS: 3600, Reward: map[string]float64{"slowdown": 1}},
		Train: trainSeeds, Validation: validationSeeds, Test: testSeeds,
		Default: []float64{0.5},
		Grid:    []int{9},
	}
}

// autoAdminScale: AutoAdmin's reservation. The RRP predicts R_R, the vCores
// kept free of AMs for processing tasks (Alg. 2); the agent scales that
// prediction each control interval.
func autoAdminScale() *Task {
	return &Task{
		ID:    "AutoAdmin-v0",
		Doc:   "AutoAdmin on its 66 terasort jobs; the agent scales the reservation R_R that Alg. 2 predicts (rrp_scale, 1 = the paper) each control interval",
		Paper: "AutoAdmin",
		Ref:   "AutoAdmin Sec. 3.2, Alg. 2, Eq. 3.1-3.3",
		Env: env.Config{Scenario: "autoadmin-66", Policy: "autoadmin", Controlled: []string{"rrp_scale"}, Sets: stallAfter300s,
			ControlIntervalS: 30, HorizonS: 3600, Reward: map[string]float64{"slowdown": 1}},
		Train: trainSeeds, Validation: validationSeeds, Test: testSeeds,
		Default: []float64{1},
		Grid:    []int{9},
	}
}
