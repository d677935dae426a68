package ras

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"yarngym/benchmarks/repro"
	"yarngym/env/scenario"
)

// TestReproRows runs a reduced reproduction (Fair at 3 and 4 map slots, one
// seed) and checks that every figure is reported beside the paper's value:
// Fig. 3's best setting and gains, the concurrency of Sec. 4.2, Table 1's
// completion times of both experiments and Sec. 4.3's comparison.
// Reference: RAS Sec. 4.2-4.3, Table 1, Fig. 3.
func TestReproRows(t *testing.T) {
	rows, err := RunWith(repro.Context{Seeds: repro.Seeds(1), Parallel: 2}, Options{Slots: []int{3, 4}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]repro.Row{}
	for _, r := range rows {
		got[r.Experiment+"/"+r.Metric] = r
	}
	for key, paper := range map[string]float64{
		"exp1/Fair makespan, 4 map slots/TT": FairBestMakespan,
		"exp1/RAS makespan":                  RASExp1Makespan,
		"exp1/best Fair setting":             FairBestSlots,
		"exp1/RAS gain over best Fair":       GainOverBest,
		"exp1/RAS tasks per TaskTracker":     RASTasksPerTT,
		"exp1/RAS completion J7":             4536,
		"exp2/RAS makespan":                  RASExp2Makespan,
		"exp2/best Fair minus RAS":           167,
		"exp2/RAS goals met":                 7,
		"exp2/RAS completion J1":             3018,
	} {
		r, ok := got[key]
		if !ok {
			t.Fatalf("no row %q", key)
		}
		if r.Paper != paper {
			t.Errorf("%s: paper %v, want %v", key, r.Paper, paper)
		}
		if math.IsNaN(r.Simulated) || strings.Contains(key, "makespan") && r.Simulated <= 0 {
			t.Errorf("%s: simulated %v", key, r.Simulated)
		}
	}
	// Every job of both experiments completed (Table 1 times are positive).
	for _, r := range rows {
		if strings.Contains(r.Metric, "completion J") && !(r.Simulated > 0) {
			t.Errorf("%s/%s: %v", r.Experiment, r.Metric, r.Simulated)
		}
	}
}

// TestScenariosShareModel: Fair (scenario "ras") and RAS ("ras-adaptive")
// run on the same TaskTrackers, so both scenarios carry the same model
// constants (the swap exponent calibrated on Fig. 3's Fair curve) and the
// same node resources; only the static slot counts differ (RAS sizes job
// slots itself).
// Reference: RAS Sec. 4.1 (one cluster for both schedulers), Sec. 4.2.
func TestScenariosShareModel(t *testing.T) {
	fair, err := scenario.Load("ras", nil)
	if err != nil {
		t.Fatal(err)
	}
	adaptive, err := scenario.Load("ras-adaptive", nil)
	if err != nil {
		t.Fatal(err)
	}
	if f, a := fair.File.Model, adaptive.File.Model; !reflect.DeepEqual(f, a) {
		t.Fatalf("model: ras %+v, ras-adaptive %+v", f, a)
	}
	fn, an := fair.File.Cluster.Nodes, adaptive.File.Cluster.Nodes
	if len(fn) != 1 || len(an) != 1 {
		t.Fatalf("node groups: %d and %d, want 1 each", len(fn), len(an))
	}
	if f, a := fn[0], an[0]; f.Count != a.Count || f.Cores != a.Cores || f.MemMB != a.MemMB || f.DiskMBps != a.DiskMBps {
		t.Fatalf("nodes differ: ras %+v, ras-adaptive %+v", f, a)
	}
}
