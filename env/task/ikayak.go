package task

import "yarngym/env"

// ikayakSuspend: iKayak's dependency-aware suspension (Sec. 3.2), whose
// length T_suspend = (lambda^v - theta) x T the weight v and the overhead
// threshold theta set. It is a control task (Task.Control): its grid's
// spread is not confirmed on held-out seeds. Before the CapacityScheduler
// under it followed Hadoop's reservation rules (oracle/README.md) the 5 x 5
// grid's best minus worst was 2.4 s.e. on the test seeds and 0.0 on
// held-out ones; then 24.2 +- 3.4 s of mean completion on the test seeds
// (7.2 s.e.) but 13.0 +- 4.7 s (2.8 s.e.) on held-out seeds; on the
// DominantResourceCalculator the paper's cluster used (scenario ikayak,
// since the commit after 9119aff) it is 27.6 +- 7.3 s (3.8 s.e.) on the
// test seeds and 13.8 +- 7.2 s (1.9 s.e.) held out, below the 3 s.e. a task
// must show on both (benchmarks/baselines/iKayak-v0.json, 20 paired seeds
// each): suspension frees a reducer's vCores, which the scheduler now
// counts, but maps rarely wait behind idle reducers at the scenario's load.
// A learner's gain here is to be read against that.
func ikayakSuspend() *Task {
	return &Task{
		ID:      "iKayak-v0",
		Doc:     "control task: iKayak on its Sec. 4.3 mix of 87 MapReduce and 87 Spark jobs; the agent sets v and theta of the reducer suspension length T_suspend = (lambda^v - theta) x T every control interval T; the grid's spread (3.8 s.e. on the test seeds) is not confirmed on held-out seeds (1.9 s.e.)",
		Paper:   "iKayak",
		Control: true,
		Ref:     "iKayak Sec. 3.2 (T_suspend), 4.2 (v = 1, theta = 0.15, T = 5 min), 4.3",
		Env: env.Config{Scenario: "ikayak", Policy: "ikayak", Controlled: []string{"suspend_v", "suspend_theta"},
			Bounds:           map[string][2]float64{"suspend_v": {0.25, 4}, "suspend_theta": {0, 1}},
			ControlIntervalS: 300, HorizonS: 14400, Reward: map[string]float64{"completion": 1}},
		Train: trainSeeds, Validation: validationSeeds, Test: testSeeds,
		Default: []float64{1, 0.15},
		Grid:    []int{5, 5},
	}
}
