package policies_test

import (
	"fmt"
	"strings"
	"testing"

	"yarngym/env/scenario"
	"yarngym/env/sim"
	"yarngym/internal/simtest"
	"yarngym/policies"
)

// matrixShrink bounds the built-in scenarios too large to run 12 x 3 times
// in a test: the trace days run their first hour (swim-fb2009), an Alibaba
// hour (46,000 to 650,000 task instances) its first quarter hour, or one copy
// of the day on 1,000 nodes for a minute (scale-50k). The matrix asks
// whether a policy ends cleanly on a scenario's kind of cluster and
// workload, not what the whole day comes to.
var matrixShrink = map[string][]string{
	"swim-fb2009":  {"run.max_s=3600"},
	"alibaba-hour": {"run.max_s=900"},
	"scale-50k":    {"workload.options.repeat=1", "cluster.nodes.0.count=1000", "run.max_s=60"},
}

// matrixSeeds: seed 1 with the invariants checked as it runs, two more with
// them checked at the end. A check visits every node and task, so seed 1
// checks after every k-th event, k = 1 + (nodes + tasks) / 250: every event
// on a toy cluster, every 13th on OPERA's 20 nodes and 2,900 tasks (the
// scenarios' own tests check every event under their own policy).
var matrixSeeds = []uint64{1, 2, 3}

// matrixEventBudget bounds the CPU of any one run: a run that processes more
// events than this is a loop, not a workload (the largest, swim-hour under
// the slowest policy, processes about 3M; see the log with -v).
const matrixEventBudget = 20_000_000

// TestEveryPolicyOnEveryScenario runs every built-in scenario under every
// registered policy that accepts it and checks that each run ends (its jobs
// completed, reported stuck with a reason, or truncated at run.max_s) with
// the model's invariants intact, without a panic and within the event
// budget; a pair the policy refuses must be refused up front, naming the
// policy and the scenario.
func TestEveryPolicyOnEveryScenario(t *testing.T) {
	for _, name := range scenario.Builtins() {
		for _, pol := range policies.All() {
			t.Run(name+"/"+pol.Name, func(t *testing.T) {
				t.Parallel()
				for _, seed := range matrixSeeds {
					runPair(t, name, pol.Name, seed, seed == matrixSeeds[0])
				}
			})
		}
	}
}

func runPair(t *testing.T, name, policy string, seed uint64, everyEvent bool) {
	t.Helper()
	sc, err := scenario.Load(name, matrixShrink[name])
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := sc.Build(seed, policy)
	if err != nil {
		if !strings.Contains(err.Error(), policy) || !strings.Contains(err.Error(), name) {
			t.Fatalf("seed %d: refused without naming the policy %q and the scenario %q: %v", seed, policy, name, err)
		}
		t.Logf("refused up front: %v", err)
		return
	}
	tasks := 0
	for _, j := range cfg.Jobs {
		for _, st := range j.Stages {
			tasks += st.NumTasks()
		}
	}
	opts := []simtest.Option{simtest.Unfinished(), simtest.EndOnly()}
	if everyEvent {
		opts = []simtest.Option{simtest.Unfinished(), simtest.Every(1 + (len(cfg.Nodes)+tasks)/250)}
	}
	var events int64
	opts = append(opts, simtest.Watch(func(s *sim.Sim) {
		events++
		if events > matrixEventBudget {
			t.Fatalf("seed %d: more than %d events by t=%d ms: the run loops", seed, matrixEventBudget, s.Now())
		}
	}))
	t.Logf("seed %d:", seed) // simtest's failures, logged next, name no seed
	var s *sim.Sim
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("seed %d: panic: %v", seed, r)
			}
		}()
		s = simtest.Run(t, cfg, opts...)
	}()
	sum := s.Summary()
	if !s.Done() {
		t.Fatalf("seed %d: the run did not end", seed)
	}
	if got := sum.JobsCompleted + sum.JobsStuck + sum.JobsUnfinished; got != len(cfg.Jobs) {
		t.Fatalf("seed %d: %d jobs accounted for of %d: %+v", seed, got, len(cfg.Jobs), sum)
	}
	switch {
	case sum.Truncated:
		if cfg.MaxMs <= 0 || sum.EndMs != cfg.MaxMs {
			t.Fatalf("seed %d: truncated at %d ms without reaching run.max_s (%d ms)", seed, sum.EndMs, cfg.MaxMs)
		}
	case sum.Stuck:
		if sum.StuckReason == "" {
			t.Fatalf("seed %d: %d jobs stuck without a reason", seed, sum.JobsStuck)
		}
		if strings.HasPrefix(sum.StuckReason, "livelock") {
			// The guard ended a loop: the policy launches what it cannot
			// finish or kills what it launches. A defect, not a result.
			t.Fatalf("seed %d: %s", seed, sum.StuckReason)
		}
	case sum.JobsCompleted != len(cfg.Jobs):
		t.Fatalf("seed %d: ended with %d of %d jobs completed, neither stuck nor truncated", seed, sum.JobsCompleted, len(cfg.Jobs))
	}
	t.Logf("seed %d: %s", seed, outcome(sum, events))
}

func outcome(sum sim.Summary, events int64) string {
	out := fmt.Sprintf("%d completed, %d events", sum.JobsCompleted, events)
	if sum.Stuck {
		out += fmt.Sprintf(", %d stuck (%s)", sum.JobsStuck, sum.StuckReason)
	}
	if sum.Truncated {
		out += fmt.Sprintf(", truncated at %d s", sum.EndMs/sim.MsPerS)
	}
	return out
}

// TestUnsupportedPairRefused: a scenario a policy cannot run (queues
// declared with Fair's weights, no Capacity shares) is refused before
// anything runs, the error naming the policy and the scenario; the policy
// it was written for runs it.
func TestUnsupportedPairRefused(t *testing.T) {
	const data = `
name = "two-weighted-queues"
[cluster]
[[cluster.nodes]]
name = "n"
count = 2
vcores = 8
mem_mb = 8192
[policy]
name = "fair"
[[policy.queues]]
name = "a"
weight = 2
[[policy.queues]]
name = "b"
weight = 1
[[workload.jobs]]
name = "j"
queue = "a"
[[workload.jobs.stages]]
name = "m"
kind = "map"
tasks = 4
vcores = 1
mem_mb = 1024
duration_s = 10
`
	sc, err := scenario.Parse([]byte(data), "two.toml", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sc.Build(1, "fair"); err != nil {
		t.Fatalf("fair refuses its own scenario: %v", err)
	}
	_, err = sc.Build(1, "capacity")
	want := `two.toml: policy: policy "capacity" cannot run scenario "two-weighted-queues": capacity: queue capacities sum to 0.000, want 1`
	if err == nil || err.Error() != want {
		t.Fatalf("capacity on Fair's queues: %v, want %q", err, want)
	}
}

// TestLivelockDefault: no task of a built-in workload is nominally as long
// as the livelock guard's default (sim.DefaultLivelockMs, 24 h), so the
// guard cannot end a run in which a long task is merely running: the longest
// is well below it.
func TestLivelockDefault(t *testing.T) {
	longest, where := sim.Ms(0), ""
	for _, name := range scenario.Builtins() {
		sc, err := scenario.Load(name, matrixShrink[name])
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := sc.Build(1, "")
		if err != nil {
			t.Fatal(err)
		}
		for _, j := range cfg.Jobs {
			for _, st := range j.Stages {
				var wall sim.Ms
				for _, ph := range st.Profile.Phases {
					wall += ph.WallMs
				}
				for _, d := range st.Durations() {
					if d+wall > longest {
						longest, where = d+wall, fmt.Sprintf("%s: job %s stage %s", name, j.Name, st.Name)
					}
				}
			}
		}
	}
	t.Logf("longest nominal task: %d s (%s)", longest/sim.MsPerS, where)
	if longest*4 > sim.DefaultLivelockMs {
		t.Fatalf("the longest nominal task, %d s (%s), is over a quarter of the livelock default %d s", longest/sim.MsPerS, where, sim.DefaultLivelockMs/sim.MsPerS)
	}
}
