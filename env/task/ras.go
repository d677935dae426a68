package task

import "yarngym/env"

// rasCycle: RAS's control cycle T, how often the placement of job slots is
// recomputed (Sec. 3.2: "of the order of tens of seconds"). A short cycle
// reacts to every finished task and moves slots between jobs often; a long
// one keeps placements that a job's phases have outgrown.
func rasCycle() *Task {
	return &Task{
		ID:    "RAS-v0",
		Doc:   "RAS on its nine Gridmix jobs (Sec. 4.1) with Table 1's completion-time goals (Exp. 2); the agent sets T, the control cycle of the utility-driven slot placement",
		Paper: "RAS",
		Ref:   "RAS Sec. 3.2 (T: tens of seconds; 30 s assumed), Alg. 1, Sec. 4.1",
		Env: env.Config{Scenario: "ras", Policy: "ras", Controlled: []string{"control_interval_s"},
			Bounds:           map[string][2]float64{"control_interval_s": {5, 300}},
			ControlIntervalS: 60, HorizonS: 14400, Reward: map[string]float64{"slowdown": 1}},
		Train: trainSeeds, Validation: validationSeeds, Test: testSeeds,
		Default: []float64{30},
		Grid:    []int{9},
	}
}
