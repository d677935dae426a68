package learn

import (
	"encoding/json"
	"math"
	"os"
	stdreflect "reflect"
	"testing"

	"yarngym/env"
)

// TestTraceRecordsObservationAndLoad plays the committed AutoAdmin-v0 PPO
// controller on three test seeds: the traces' returns are the saved
// evaluation's (a trace plays the episode the evaluation played), every
// step carries the observation the controller acted on and the load, and
// the result does not depend on the number of workers.
func TestTraceRecordsObservationAndLoad(t *testing.T) {
	tk := mustTask(t, "AutoAdmin-v0")
	m, err := LoadModel("../benchmarks/models/AutoAdmin-v0/ppo")
	if err != nil {
		t.Fatal(err)
	}
	var saved struct {
		Returns []float64 `json:"returns"`
	}
	data, err := os.ReadFile("../benchmarks/models/AutoAdmin-v0/ppo/eval.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &saved); err != nil {
		t.Fatal(err)
	}
	seeds := tk.Test.List()[:3]
	trs, err := TraceAll(tk, m.Agent, seeds, 3)
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := tk.EnvForSeeds(seeds)
	e, err := env.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for i, tr := range trs {
		if tr.Seed != seeds[i] || math.Abs(tr.Return-saved.Returns[i]) > 1e-9 {
			t.Errorf("trace %d: seed %d return %v, want seed %d return %v", i, tr.Seed, tr.Return, seeds[i], saved.Returns[i])
		}
		if !stdreflect.DeepEqual(tr.Features, e.FeatureNames()) || !stdreflect.DeepEqual(tr.LoadNames, LoadNames) {
			t.Fatalf("features %v, load %v", tr.Features, tr.LoadNames)
		}
		n := len(tr.Actions)
		if n < 2 || len(tr.Obs) != n || len(tr.Load) != n || len(tr.TimeS) != n {
			t.Fatalf("seed %d: %d steps, %d observations, %d loads, %d times", tr.Seed, n, len(tr.Obs), len(tr.Load), len(tr.TimeS))
		}
		busy := false
		for k, l := range tr.Load {
			if len(tr.Obs[k]) != len(tr.Features) || len(l) != len(LoadNames) {
				t.Fatalf("seed %d step %d: %d features, %d load values", tr.Seed, k, len(tr.Obs[k]), len(l))
			}
			if l[0] < 0 || l[1] < 0 || l[2] < 0 || l[2] > 2 {
				t.Fatalf("seed %d step %d: load %v out of range", tr.Seed, k, l)
			}
			busy = busy || l[1] > 0
		}
		if !busy {
			t.Errorf("seed %d: no job ever running: the load is not read", tr.Seed)
		}
	}
	one, err := TraceAll(tk, m.Agent, seeds, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !stdreflect.DeepEqual(one, trs) {
		t.Error("traces on 1 and 3 workers differ")
	}
}
