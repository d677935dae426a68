package models

import (
	"math"
	"slices"
	"strings"
	"testing"

	"yarngym/env/task"
	"yarngym/learn"
)

// TestSavedModels: every committed model loads, is for a registered task,
// and returns today exactly what its eval.json says on the task's test
// seeds (a model change under it fails here until the models are
// retrained and re-evaluated).
func TestSavedModels(t *testing.T) {
	keys := Keys()
	if len(keys) == 0 {
		t.Fatal("no committed models")
	}
	for _, key := range keys {
		m, err := Load(key)
		if err != nil {
			t.Fatal(err)
		}
		tk, algo, _ := strings.Cut(key, "/")
		if m.Task != tk || m.Algo != algo {
			t.Errorf("%s: the model says task %s, algo %s", key, m.Task, m.Algo)
		}
		ev, err := LoadEval(key)
		if err != nil {
			t.Fatal(err)
		}
		tsk, err := task.Lookup(tk)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(ev.TestSeeds, tsk.Test.List()) {
			t.Errorf("%s: evaluated on %v, the task's test seeds are %v", key, ev.TestSeeds, tsk.Test.List())
			continue
		}
		eps, err := learn.Evaluate(m, tsk, 0)
		if err != nil {
			t.Fatal(err)
		}
		for i, e := range eps {
			if math.Float64bits(e.Return) != math.Float64bits(ev.Returns[i]) {
				t.Errorf("%s: seed %d returns %v today, eval.json %v: retrain (`yarngym learn %s --algo %s --seed 1 --out benchmarks/models`)",
					key, e.Seed, e.Return, ev.Returns[i], tk, algo)
				break
			}
		}
	}
	if _, err := Load("Nope-v0/ppo"); err == nil || !strings.Contains(err.Error(), "OPERA-v0/ppo") {
		t.Errorf("an unknown model: %v", err)
	}
}
