package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"yarngym/env/task"
)

// TestEvaluateOtherWorkload: a model trained on a task is evaluated on its
// own test workload and, without retraining, on another one (--set); the
// output names the workload, the baselines are played again on it, and
// every number is paired on the same seeds.
func TestEvaluateOtherWorkload(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	if code := run([]string{"learn", "AutoAdmin66-Fair-v0", "--algo", "grid", "--budget", "2", "--train-seeds", "2", "--workers", "2", "--out", dir}, &out, &errb); code != 0 {
		t.Fatalf("learn: exit %d: %s", code, errb.String())
	}
	model := filepath.Join(dir, "AutoAdmin66-Fair-v0", "grid")
	tk, _ := task.Lookup("AutoAdmin66-Fair-v0")
	for _, c := range []struct {
		name       string
		args       []string
		recomputed bool
		overrides  []string
		split      string
		code       int
		errWant    string
	}{
		{name: "own test workload", split: "test"},
		{name: "another workload", args: []string{"--set", "workload.options.jobs=72"}, recomputed: true, overrides: []string{"workload.options.jobs=72"}, split: "test"},
		{name: "validation split", args: []string{"--split", "validation"}, recomputed: true, split: "validation"},
		{name: "not a workload key", args: []string{"--set", "max_am_share=0.2"}, code: 2, errWant: "workload key"},
		{name: "unknown split", args: []string{"--split", "dev"}, code: 2, errWant: `split "dev"`},
		{name: "bad workload", args: []string{"--set", "workload.options.jobs=-3"}, code: 2, errWant: "workload.options.jobs=-3"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			args := append([]string{"evaluate", "AutoAdmin66-Fair-v0", "--model", model, "--workers", "2", "--format", "json"}, c.args...)
			code := run(args, &out, &errb)
			if code != c.code {
				t.Fatalf("exit %d, want %d: %s", code, c.code, errb.String())
			}
			if c.code != 0 {
				if !strings.Contains(errb.String(), c.errWant) {
					t.Errorf("error %q does not say %q", errb.String(), c.errWant)
				}
				return
			}
			var res struct {
				Workload evalWorkload         `json:"workload"`
				Rows     []compareRow         `json:"rows"`
				Returns  map[string][]float64 `json:"returns"`
			}
			if err := json.Unmarshal(out.Bytes(), &res); err != nil {
				t.Fatal(err)
			}
			w := res.Workload
			seedRun, _ := tk.SeedsOf(c.split)
			if w.Scenario != "autoadmin-66" || w.Split != c.split || w.BaselinesRecomputed != c.recomputed ||
				!slices.Equal(w.Overrides, c.overrides) || !slices.Equal(w.Seeds, seedRun.List()) {
				t.Errorf("workload %+v: want split %s, seeds %v, overrides %v, recomputed %v", w, c.split, seedRun.List(), c.overrides, c.recomputed)
			}
			for _, o := range c.overrides {
				if !slices.Contains(w.Sets, o) {
					t.Errorf("sets %v do not hold the override %s", w.Sets, o)
				}
			}
			for k, r := range res.Returns {
				if len(r) != len(w.Seeds) {
					t.Errorf("%s: %d returns for %d seeds", k, len(r), len(w.Seeds))
				}
			}
			m, d := res.Returns["model"], res.Returns["paper default"]
			last := res.Rows[len(res.Rows)-1]
			if last.VsDefault != task.Paired(m, d) {
				t.Errorf("model vs default %v, want the paired %v", last.VsDefault, task.Paired(m, d))
			}
			// The table says the same workload.
			var tab bytes.Buffer
			targs := append([]string{"evaluate", "AutoAdmin66-Fair-v0", "--model", model, "--workers", "2"}, c.args...)
			if code := run(targs, &tab, &errb); code != 0 || !strings.Contains(tab.String(), "workload: scenario autoadmin-66") ||
				!strings.Contains(tab.String(), c.split+" split") {
				t.Errorf("table (exit %d) does not state the workload:\n%s", code, tab.String())
			}
		})
	}
}
