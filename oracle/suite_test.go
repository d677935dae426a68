//go:build oracle

package oracle_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"yarngym/env/scenario"
	"yarngym/oracle"
)

// known lists the suite's pairs that do not meet the bar, each with why and
// its measured size; they run and are reported, and a known pair that
// starts to agree fails the test so that the entry is removed.
var known = map[string]string{
	"locality/capacity": "89 % of jobs within 10 %, mean ratio 0.972 (90 %, 0.971 before containers were typed by the CapacityScheduler's " +
		"assignment path; seeds 2-4 92, 92, 86 %, before 89, 92, 86 %): the first difference, the same before and after, is which of job 7's reservations its container " +
		"on node 6 at 86.2 s takes the place of (a container given in place of a reservation, RegularContainerAllocator.assignContainer): node 2 " +
		"in yarngym (the lowest node ID), node 4 in Hadoop (the first of the application's reservations, a hash map keyed by node ID: not modelled; " +
		"the driver's trace shows it at node 4's next heartbeat, 87.1 s)",
	// The DominantResourceCalculator, first checked in this suite at
	// 9119aff (seed 1; each scenario passes under the memory-only
	// calculator). onestage and hetero agree since containers are typed
	// by the assignment path (LaunchTyped); mixed stays short.
	"mixed/capacity-drc": "79 % of jobs within 10 %, mean ratio 1.008 (memory only: 93 %, 0.996; 76 % before containers were typed by the " +
		"assignment path, 84 % before queue and user limits compared by dominant share): the first difference, the same before, is job 6's maps: " +
		"Hadoop gives them nodes 6, 17, 15 and 18 at 56.3-58.9 s, yarngym node 18 at 59.9 s and the others later; later (64.85 s) a user " +
		"holding <162 vCores, 245 GB> with reservations is over its <160, 320 GB> limit by dominant share and refused, where Hadoop's state " +
		"differs already",
}

// drc names the suite scenarios that also run under capacity with the
// DominantResourceCalculator (resource_calculator=1), as pair
// NAME/capacity-drc: the calculator iKayak's cluster used (its scenario
// sets it, and its paper pair runs it).
var drc = []string{"amlimit", "captree", "hetero", "locality", "mixed", "mr", "onestage", "queues", "spark"}

// only names the suite scenarios that run under one scheduler: their
// settings have no counterpart in the other (capacity refuses Fair's queue
// limits).
var only = map[string]string{"fairlimits": "fair", "fairtree": "fair", "captree": "capacity", "preempt": "capacity"}

// paperScenarios are the papers' built-in scenarios whose stock baseline
// runs on Fair or Capacity, uncontended as the oracle requires: the
// baselines the papers' mechanisms are measured against. Where a scenario
// follows its paper's older stack, sets puts Hadoop 3.3.6's behaviour back
// for the comparison: opera-mr runs YARN v2.5's zero Fair headroom
// (zero_headroom, before YARN-1959), which Hadoop 3.3.6 does not have.
var paperScenarios = []struct {
	name, policy string
	sets         []string
}{
	{"autoadmin-66", "fair", nil}, {"opera-mr", "fair", []string{"zero_headroom=0"}}, {"dress-mr", "capacity", nil},
	{"dress-spark", "capacity", nil}, {"ikayak", "capacity", nil},
}

// TestSuite runs every scenario of the comparison suite (scenarios/*.toml)
// under yarngym's fair and capacity, and the papers' scenarios under their
// stock baseline (paperScenarios), beside Hadoop 3.3.6's own FairScheduler
// and CapacityScheduler on the same realised workload, and asks of each pair
// that at least 90 % of the jobs finish within 10 % of Hadoop's completion
// time and that the mean completion time is within 5 %.
func TestSuite(t *testing.T) {
	d := driver(t)
	files, err := filepath.Glob("scenarios/*.toml")
	if err != nil || len(files) < 8 {
		t.Fatalf("the suite has %d scenarios (want at least 8): %v", len(files), err)
	}
	type pair struct {
		name, scenario, policy string
		sets                   []string
	}
	var pairs []pair
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".toml")
		for _, policy := range []string{"fair", "capacity"} {
			if p, ok := only[name]; ok && p != policy {
				continue
			}
			pairs = append(pairs, pair{name + "/" + policy, f, policy, nil})
		}
	}
	for _, name := range drc {
		pairs = append(pairs, pair{name + "/capacity-drc", filepath.Join("scenarios", name+".toml"), "capacity", []string{"resource_calculator=1"}})
	}
	for _, p := range paperScenarios {
		pairs = append(pairs, pair{"paper/" + p.name + "/" + p.policy, p.name, p.policy, p.sets})
	}
	var mu = make(chan struct{}, 1)
	var lines []string
	for _, pr := range pairs {
		{
			name, policy := pr.name, pr.policy
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				sc, err := scenario.Load(pr.scenario, append([]string{"model.contention=false"}, pr.sets...))
				if err != nil {
					t.Fatal(err)
				}
				res, err := oracle.Run(sc, policy, sc.File.Seed, d, t.TempDir())
				if err != nil {
					t.Fatal(err)
				}
				c := res.Comparison
				line := fmt.Sprintf("%-20s %3d of %3d jobs within 10 %% (%3.0f %%), mean ratio %.3f", name, c.Within, len(c.Rows), 100*c.Share, c.MeanRatio)
				mu <- struct{}{}
				lines = append(lines, line)
				<-mu
				why, marked := known[name]
				switch {
				case !c.Agrees() && !marked:
					t.Errorf("%s: below the bar (90 %% within 10 %%, mean within 5 %%)", line)
				case c.Agrees() && marked:
					t.Errorf("%s: agrees now; remove it from known (%s)", line, why)
				case marked:
					t.Logf("%s: known difference: %s", line, why)
				}
			})
		}
	}
	t.Cleanup(func() {
		sort.Strings(lines)
		t.Log("suite:\n" + strings.Join(lines, "\n"))
	})
}

// TestDriverDeterministic: the same exchange document gives the same bytes
// from the driver, run after run.
func TestDriverDeterministic(t *testing.T) {
	d := driver(t)
	// Fair, and Capacity with its preemption monitor on the simulated clock.
	for _, c := range []struct {
		scenario, policy string
		seed             uint64
	}{{"scenarios/mr.toml", "fair", 2}, {"scenarios/preempt.toml", "capacity", 1}} {
		sc, err := scenario.Load(c.scenario, []string{"model.contention=false"})
		if err != nil {
			t.Fatal(err)
		}
		doc, err := oracle.ExportScenario(sc, c.policy, c.seed)
		if err != nil {
			t.Fatal(err)
		}
		var outs [2][2][]byte
		for i := range outs {
			dir := t.TempDir()
			if _, _, err := d.Run(doc, dir); err != nil {
				t.Fatal(err)
			}
			for k, f := range []string{"jobs.csv", "tasks.csv"} {
				if outs[i][k], err = os.ReadFile(filepath.Join(dir, "hadoop", f)); err != nil {
					t.Fatal(err)
				}
			}
		}
		for k, f := range []string{"jobs.csv", "tasks.csv"} {
			if len(outs[0][k]) < 1000 || !bytes.Equal(outs[0][k], outs[1][k]) {
				t.Errorf("%s %s: %d and %d bytes, not the same", c.scenario, f, len(outs[0][k]), len(outs[1][k]))
			}
		}
	}
}

func driver(t testing.TB) *oracle.Driver {
	t.Helper()
	d, err := oracle.FindDriver()
	if err != nil {
		t.Fatal(err)
	}
	return d
}
