package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"yarngym/env/task"
	"yarngym/learn"
)

// TestEvaluateExplains: evaluate --explain on the committed AutoAdmin-v0
// PPO says, over every test seed, what its action follows, plays its
// median action held fixed on the same seeds (paired), and --report draws
// the first seed's episode; without --explain the output has none of it.
func TestEvaluateExplains(t *testing.T) {
	model := filepath.Join("..", "..", "benchmarks", "models", "AutoAdmin-v0", "ppo")
	report := filepath.Join(t.TempDir(), "explain.html")
	var out, errb bytes.Buffer
	if code := run([]string{"evaluate", "AutoAdmin-v0", "--model", model, "--workers", "2", "--format", "json", "--report", report}, &out, &errb); code != 0 {
		t.Fatalf("evaluate: exit %d: %s", code, errb.String())
	}
	var res struct {
		Rows    []compareRow             `json:"rows"`
		Returns map[string][]float64     `json:"returns"`
		Explain []learn.ParamExplanation `json:"explain"`
		VsHeld  task.Stat                `json:"vs_median_held"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Explain) != 1 {
		t.Fatalf("%d explanations, want 1 (rrp_scale)", len(res.Explain))
	}
	e := res.Explain[0]
	if e.Param != "rrp_scale" || len(e.Seeds) != 20 || e.Seeds[0] != 1 || !e.Moves || e.Follows == "" || len(e.Links) == 0 || e.Sentence == "" {
		t.Errorf("explanation %+v: want rrp_scale over test seeds 1-20, moving, following a feature", e)
	}
	held := res.Returns["median held"]
	if len(held) != 20 || res.VsHeld != task.Paired(res.Returns["model"], held) {
		t.Errorf("vs median held %v over %d returns: want the paired difference on the 20 seeds", res.VsHeld, len(held))
	}
	if n := len(res.Rows); n < 2 || !strings.Contains(res.Rows[n-2].Method, "median action, held fixed") || !strings.HasPrefix(res.Rows[n-1].Method, "ppo") {
		t.Errorf("rows %v: want the held median before the model's row, the model's last", res.Rows)
	}
	page, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"What the controller's actions follow (test seeds 1-20)", `id="chart_follow_autoadmin_v0_ppo_rrp_scale"`, `id="chart_load_autoadmin_v0_ppo"`} {
		if !strings.Contains(string(page), want) {
			t.Errorf("report does not hold %s", want)
		}
	}

	var tab bytes.Buffer
	if code := run([]string{"evaluate", "AutoAdmin-v0", "--model", model, "--workers", "2", "--explain"}, &tab, &errb); code != 0 ||
		!strings.Contains(tab.String(), "what the actions follow (test seeds 1-20):\n  rrp_scale moves") ||
		!strings.Contains(tab.String(), "against its median action held fixed, paired on the same seeds: ") {
		t.Errorf("table (exit %d) does not say what the action follows:\n%s", code, tab.String())
	}
	var plain bytes.Buffer
	if code := run([]string{"evaluate", "AutoAdmin-v0", "--model", model, "--workers", "2", "--format", "json"}, &plain, &errb); code != 0 ||
		strings.Contains(plain.String(), `"explain"`) || strings.Contains(plain.String(), "median held") {
		t.Errorf("without --explain (exit %d), the output explains", code)
	}
}
