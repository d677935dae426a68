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
// since 9185c4f; queue and user limits by dominant share since the commit
// after 93084fe) it was 19.5 +- 6.8 s (2.9 s.e.) on the test seeds and 9.7
// +- 6.0 s (1.6 s.e.) held out; since iKayak no longer suspends a reducer
// its AM has not yet been given (a suspension that could leave a job
// waiting forever for a reducer it never asked for again) it was 22.0 +-
// 6.6 s (3.3 s.e.) on the test seeds and 12.5 +- 5.2 s (2.4 s.e.) held
// out; since the CapacityScheduler's containers are typed by its
// assignment path (a map given through the off-switch path is
// OFF_SWITCH) it is 20.7 +- 6.8 s (3.0 s.e.) on the test seeds and 15.5
// +- 8.1 s (1.9 s.e.) held out, the best static setting (v 1.19, theta
// 0.5) 4.9 +- 4.7 s above the paper default, below the 3 s.e. a task must
// show on both (benchmarks/baselines/iKayak-v0.json, 20 paired seeds
// each): suspension
// frees a reducer's vCores, which the scheduler now counts, but maps rarely
// wait behind idle reducers at the scenario's load, and the maps it lets
// in share the machines' one hard disk each (repro ikayak, Fig. 7(b)
// rows). A learner's gain here is to be read against that.
func ikayakSuspend() *Task {
	return &Task{
		ID:      "iKayak-v0",
		Doc:     "control task: iKayak on its Sec. 4.3 mix of 87 MapReduce and 87 Spark jobs; the agent sets v and theta of the reducer suspension length T_suspend = (lambda^v - theta) x T every control interval T; the grid's spread (3.0 s.e. on the test seeds) is not confirmed on held-out seeds (1.9 s.e.)",
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

// ikayakCase: the same action on iKayak's own case study (Sec. 2.2), the
// setting where the paper shows what suspension is for: WordCount's reduces
// hold their containers through twice the map waves ("from 5 waves to 10
// waves") while a Spark application holds half the cluster. Defined before
// its returns were measured, as iKayak-v0 with the scenario ikayak-case
// and a horizon of 7,200 s (its eight rounds end by ~5,000 s). Measured
// (yarngym baselines, 20 paired seeds each, with the CapacityScheduler's
// queue and user limits by dominant share): the grid's best minus worst
// non-stalling setting is 18.4 +- 3.8 s of mean completion on the test
// seeds (4.9 s.e.) and 9.4 +- 2.4 s (3.9 s.e.) on held-out seeds; the best
// static setting (v 0.72, theta 0.25) is the paper default's return (+0.04
// +- 0.14 s) and long suspensions (v 0.25, theta 0) cost most: at a control
// tick few reducers are idle yet, and the suspended ones resume after their
// maps have ended (the repro's Fig. 10 rows). (Before the limits were by
// dominant share: 6.3 and 5.2 s.e., the best static setting suspending
// nothing.) Whether a controller that suspends by state (reducers idle,
// maps pending) gains is the task's question.
func ikayakCase() *Task {
	t := ikayakSuspend()
	t.ID = "iKayakCase-v0"
	t.Control = false
	t.Doc = "iKayak on its Sec. 2.2 case study (WordCount on 30 GB beside Spark Logistic Regression on six 8-core nodes, eight rounds); the agent sets v and theta of the reducer suspension length T_suspend = (lambda^v - theta) x T every control interval T"
	t.Ref = "iKayak Sec. 2.2 (case study, Fig. 3), 3.2 (T_suspend), 4.2 (v = 1, theta = 0.15, T = 5 min)"
	t.Env.Scenario = "ikayak-case"
	t.Env.HorizonS = 7200
	return t
}
