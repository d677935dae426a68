package task

// Seeds shared by the tasks: learners train on seeds 1000 to 10999, may
// select models on seeds 100 to 119, and are judged on seeds 1 to 20
// (disjoint; 20 paired seeds per comparison).
var (
	trainSeeds      = Seeds{First: 1000, Count: 10000}
	validationSeeds = Seeds{First: 100, Count: 20}
	testSeeds       = Seeds{First: 1, Count: 20}
)

// stallAfter300s makes the simulator call a cluster stalled (its jobs stuck,
// the episode over) after 300 simulated seconds without any progress, well
// inside the tasks' horizons: a deadlock then ends the episode and is
// counted as a stall (the default, an hour, would leave it running to the
// horizon). Both are charged alike: every unfinished job to the horizon.
var stallAfter300s = []string{"run.stall_s=300"}
