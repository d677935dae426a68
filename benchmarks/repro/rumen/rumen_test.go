package rumen

import (
	"math"
	"strings"
	"testing"

	"yarngym/benchmarks/repro"
)

// TestReplayBesideRecorded replays the SLS sample trace on one seed: every
// row has the recorded figure beside a simulated one; the maps end within
// 5 % of their recorded last end (their durations are replayed; each wave
// also waits up to a node heartbeat for the container's release and an AM
// heartbeat for its pick-up, Model.AMHeartbeatMs, at the model's 1 s
// defaults, which the recorded cluster's settings need not match: job 2
// measured +3.7 %), keep their recorded mean run time (the replayed usage
// never overcommits a node; run time from the process start, Task.RunMs),
// run on their recorded hosts, each job commits for as long as it
// recorded, and completes within 5 % of its recorded completion.
func TestReplayBesideRecorded(t *testing.T) {
	rows, err := Run(repro.Context{Seeds: repro.Seeds(1), Parallel: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 12 {
		t.Fatalf("%d rows, want 6 per job", len(rows))
	}
	for _, r := range rows {
		if math.IsNaN(r.Paper) || math.IsNaN(r.Simulated) {
			t.Fatalf("%s %s: recorded %v, simulated %v", r.Experiment, r.Metric, r.Paper, r.Simulated)
		}
		off := math.Abs(r.Simulated-r.Paper) / r.Paper
		switch {
		case strings.HasPrefix(r.Metric, "completion") && off > 0.05,
			r.Metric == "job commit after the last map" && off > 0.001,
			r.Metric == "last map end" && off > 0.05,
			r.Metric == "mean map run time" && off > 0.01,
			r.Metric == "maps on their recorded host" && r.Simulated < 90:
			t.Errorf("%s %s: simulated %.2f, recorded %.2f", r.Experiment, r.Metric, r.Simulated, r.Paper)
		}
	}
}
