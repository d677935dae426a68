package task

import "yarngym/env"

// operaRhoCutoff: OPERA's contention threshold rho and its classifier's
// posterior cutoff on the Sec. IV-B MapReduce experiment.
func operaRhoCutoff() *Task {
	return &Task{
		ID:    "OPERA-v0",
		Doc:   "OPERA on its MapReduce experiment (Sec. IV-B); the agent sets rho, the contention threshold of the node monitor, and the posterior cutoff above which a task is classified short and may run in an opportunistic container",
		Paper: "OPERA",
		Ref:   "OPERA Sec. III-B (classifier), III-C (rho = 0.95), IV-B",
		Env: env.Config{Scenario: "opera-mr", Policy: "opera", Controlled: []string{"rho", "posterior_cutoff"},
			Bounds:           map[string][2]float64{"rho": {0.5, 2}},
			ControlIntervalS: 60, HorizonS: 7200, Reward: map[string]float64{"slowdown": 1}},
		Train: trainSeeds, Validation: validationSeeds, Test: testSeeds,
		Default: []float64{0.95, 0.5},
		Grid:    []int{5, 5},
	}
}
