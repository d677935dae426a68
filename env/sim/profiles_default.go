package sim

// Default usage profiles.
//
// MapProfile is shaped on the 192 TeraGen map attempts of the Apache Hadoop
// SLS sample trace (data/traces/hadoop-sls/2jobs2min-rumen-jh.json). Each
// attempt carries 12 per-split cpuUsages (CPU ms spent in each twelfth of its
// progress, not cumulative: the 12 values add up to the attempt's total CPU),
// physMemKbytes and clockSplits (the wall ms of each twelfth). Dividing CPU ms
// by the real wall ms of each split gives about 0.6 of a core over the first
// ~45% of wall time (JVM start, first reads), 0.8 in the steady middle and
// about 0.55 with large spread in the final commit; 0.69 over a whole attempt.
// Resident memory ramps to its level by the middle and then stays at 0.98-0.99
// of its peak, which is about 0.29 of the 1024 MB container request. The
// spread of CPU between attempts at the same split is about 0.25 of its mean.
// That spread is two parts of about the same size (log CPU rate per split,
// an attempt level plus a split shape fitted, 1.4826 x the median absolute
// deviation): the attempt's own level, 0.16, and the fluctuation from
// split to split within an attempt, 0.15, over splits of ~1-1.5 s (splits
// 4-9, workload.TestMapUsageSpreadMeasured; Rumen spreads the first half of
// an attempt's CPU evenly over splits 1-6). The engine draws the whole of Jitter afresh at each usage
// sample (setUsage, every Model.UsageSampleMs) and at each phase change:
// over a 5 s sample that is more oscillation than the trace's, whose split
// fluctuation would average to about 0.07 over 5 s if independent, and a
// task keeps no level of its own.
// Those TeraGen maps only write, so the IO figures are ours, not measured.
var MapProfile = &Profile{
	Name: "mr-map",
	Phases: []Phase{
		{Name: "launch", Frac: 0.15, CPU: 0.60, Mem: 0.12},
		{Name: "read-map", Frac: 0.70, CPU: 0.80, Mem: 0.29, IOMBps: 20, Read: true},
		{Name: "spill-commit", Frac: 0.15, CPU: 0.55, Mem: 0.29, IOMBps: 40, Spill: true},
	},
	Jitter: 0.25,
}

// ReduceProfile: a reducer shuffles (fetches map outputs: low CPU, moderate
// memory, progress gated by finished maps), merges, then reduces (CPU heavy).
// The trace has no reducers, so these levels follow the design's description
// (DESIGN.md: "a reducer shuffles (low CPU, waits for map outputs) then
// reduces (CPU heavy)") and iKayak Sec. 2.2, which observes reducers idling in
// shuffle while holding their containers.
var ReduceProfile = &Profile{
	Name: "mr-reduce",
	Phases: []Phase{
		{Name: "shuffle", Frac: 0.35, CPU: 0.15, Mem: 0.45, IOMBps: 10, Shuffle: true},
		{Name: "merge", Frac: 0.15, CPU: 0.50, Mem: 0.60, IOMBps: 40},
		{Name: "reduce", Frac: 0.50, CPU: 0.90, Mem: 0.60, IOMBps: 20},
	},
	Jitter: 0.25,
}

// AMProfile: an ApplicationMaster is mostly idle book-keeping.
var AMProfile = &Profile{
	Name:   "am",
	Phases: []Phase{{Name: "run", Frac: 1, CPU: 0.10, Mem: 0.50}},
	Jitter: 0.20,
}

// ExecutorProfile: a Spark executor computes its share of the job's stages;
// interactive idle periods are added by the workload as Wall phases.
var ExecutorProfile = &Profile{
	Name: "spark-executor",
	Phases: []Phase{
		{Name: "start", Frac: 0.05, CPU: 0.40, Mem: 0.30},
		{Name: "compute", Frac: 0.95, CPU: 0.85, Mem: 0.65, IOMBps: 15},
	},
	Jitter: 0.20,
}

// FlatProfile uses exactly its request with no fluctuation: for toy examples
// such as DRESS Fig. 1, where a job is an abstract block of containers.
var FlatProfile = &Profile{
	Name:   "flat",
	Phases: []Phase{{Name: "run", Frac: 1, CPU: 1, Mem: 1}},
}

// Profiles lists the built-in profiles by name, for scenario files.
var Profiles = map[string]*Profile{
	MapProfile.Name:      MapProfile,
	ReduceProfile.Name:   ReduceProfile,
	AMProfile.Name:       AMProfile,
	ExecutorProfile.Name: ExecutorProfile,
	FlatProfile.Name:     FlatProfile,
}
