package task

// alibabaHourSplits cut the Alibaba 2017 batch trace's 17 hours of
// submissions (16 whole, a 37-minute 17th; scenario alibaba-hour draws one
// per seed with window = -1) into parts that share no hour, by a rule fixed
// before any return was measured: the first two thirds train (hours 0-10),
// the next sixth validates (11-13), the last sixth tests (14-16).
var alibabaHourSplits = map[string][]string{
	SplitTrain:      {"workload.options.windows_from=0", "workload.options.windows_to=10"},
	SplitValidation: {"workload.options.windows_from=11", "workload.options.windows_to=13"},
	SplitTest:       {"workload.options.windows_from=14", "workload.options.windows_to=16"},
}

// dressAlibabaHour: DRESS-FB-v0's definition (DRESS-v0's action, the
// stall rule, the shared seeds) on one hour of the Alibaba 2017 batch
// trace per seed (scenario alibaba-hour, 43 nodes of 64 vCores). DRESS,
// because its premise is this trace's shape: jobs of very different
// container demand on a congested cluster, small-demand ones waiting behind
// large ones (Sec. III), each job a run of phases whose tasks have one
// length (Sec. III-A; a row of the csv is instances_num instances of one
// mean duration).
//
// Horizon: 28,800 s, the smallest whole number of hours by which every
// hour of the trace finishes under the paper default (seed 1: the longest,
// hour 9, at 28,161 s, hour 14 at 27,304 s; `yarngym run alibaba-hour
// --policy dress --set workload.options.window=K`), set from the default's
// runs, as DRESS-FB-v0's was, never from the grid's.
//
// Measured (`yarngym baselines DRESS-Ali-v0 --grid`, 20 test seeds, 6,537 s
// on two cores): the grid responds, its best non-stalling setting (theta
// 0.26, Alg. 3) minus its worst (theta 0.02, delta_fixed 0.75) is 353.5 +-
// 40 of slowdown on the test seeds (8.8 s.e.) and 18.4 +- 2.0 on held-out
// train seeds (9.0 s.e.); delta_fixed 0 and 1 stall on every seed (no pool
// for one of the two classes). The paper default returns -101.1 +- 12, the
// best static setting (chosen on the train hours: theta 0.14, Alg. 3)
// -89.2 +- 11, +12.0 +- 1.0 paired; the test grid's best, theta 0.26 to 0.5
// with Alg. 3 (-69.8 to -73.4), is not what the train hours pick: the test
// hours (14-16) are the trace's heaviest (slowdown ~-100 against ~-2 on
// the train hours), a shift between the parts a tuner must survive.
func dressAlibabaHour() *Task {
	t := dressFBHour()
	t.ID = "DRESS-Ali-v0"
	t.Doc = "DRESS on one hour of the Alibaba 2017 batch trace per seed (43 nodes of 64 vCores; train hours 0-10, validation 11-13, test 14-16); " + dressAction
	t.Ref = "DRESS Sec. III, Sec. IV-C (theta = 10%, delta), Alg. 3; Alibaba cluster-trace-v2017 batch tables (CloudSimPy's jobs.csv)"
	t.Env.Scenario = "alibaba-hour"
	t.Env.HorizonS = 28800
	t.Splits = alibabaHourSplits
	return t
}
