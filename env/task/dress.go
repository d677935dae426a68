package task

import "yarngym/env"

// dressAction is what a DRESS task's agent sets, for its Doc.
const dressAction = "the agent sets theta, the share of the cluster's containers below which a job is small-demand, and the reserve ratio delta of the small-demand pool directly (delta_fixed in [0, 1]; below 0 Alg. 3 adapts delta, the paper)"

// dressThetaDelta: DRESS's job indicator theta and its reserve ratio delta,
// set by the agent directly as the alternative to Alg. 3; a negative
// delta_fixed hands delta back to Alg. 3, the paper's mechanism and
// default.
func dressThetaDelta() *Task {
	return &Task{
		ID:    "DRESS-v0",
		Doc:   "DRESS on its Spark-on-YARN experiment (Sec. V-B); " + dressAction,
		Paper: "DRESS",
		Ref:   "DRESS Sec. IV-C (theta = 10%, delta), Alg. 3, V-B",
		Env: env.Config{Scenario: "dress-spark", Policy: "dress", Controlled: []string{"theta", "delta_fixed"},
			Bounds:           map[string][2]float64{"theta": {0.02, 0.5}, "delta_fixed": {-0.25, 1}},
			ControlIntervalS: 30, HorizonS: 3600, Reward: map[string]float64{"slowdown": 1}},
		Train: trainSeeds, Validation: validationSeeds, Test: testSeeds,
		Default: []float64{0.1, -0.25},
		Grid:    []int{5, 6},
	}
}

// dressMRThetaDelta: DRESS-v0's action on DRESS's MapReduce experiment
// (Sec. V-B2), whose block-sized tasks (Sec. III-A) release containers every
// few seconds, where the Spark run's executors hold theirs to their jobs'
// ends.
func dressMRThetaDelta() *Task {
	t := dressThetaDelta()
	t.ID = "DRESS-MR-v0"
	t.Doc = "DRESS on its MapReduce experiment (Sec. V-B2: 20 jobs, block-sized tasks, Sec. III-A); " + dressAction
	t.Ref = "DRESS Sec. IV-C (theta = 10%, delta), Alg. 3, V-B2, III-A"
	t.Env.Scenario = "dress-mr"
	return t
}
