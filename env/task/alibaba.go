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
// Not registered yet: its baselines are not measured (registry.go).
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
