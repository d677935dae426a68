package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestBenchTableCounts: the bench table prints the STUCK and KILLED means
// over seeds as counts (0, not 0.0), matching summary.json. Runs the built
// binary.
func TestBenchTableCounts(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "q")
	code, stdout, stderr := runBin(t, "", "bench", "quick", "--seeds", "2", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sum struct {
		Aggregates []struct {
			Scenario, Variant string
			Metrics           map[string]struct{ Mean float64 }
		}
	}
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	cols := regexp.MustCompile(` {2,}`)
	rows := map[string][]string{}
	var head []string
	for _, line := range strings.Split(stdout, "\n") {
		f := cols.Split(strings.TrimSpace(line), -1)
		if len(f) > 0 && f[0] == "SCENARIO" {
			head = f
		} else if head != nil && len(f) == len(head) {
			rows[f[0]+" "+f[1]] = f
		}
	}
	if len(rows) != len(sum.Aggregates) || len(rows) == 0 {
		t.Fatalf("%d table rows for %d aggregates:\n%s", len(rows), len(sum.Aggregates), stdout)
	}
	for _, a := range sum.Aggregates {
		r := rows[a.Scenario+" "+a.Variant]
		for _, c := range []struct{ col, metric string }{{"STUCK", "jobs_stuck"}, {"KILLED", "tasks_killed"}} {
			got := r[col(t, head, c.col)]
			if want := countMean(a.Metrics[c.metric].Mean); got != want || strings.HasSuffix(got, ".0") {
				t.Errorf("%s %s: %s %q, want %q (mean %v)", a.Scenario, a.Variant, c.col, got, want, a.Metrics[c.metric].Mean)
			}
		}
	}
}

func TestCountMean(t *testing.T) {
	for x, want := range map[float64]string{0: "0", 2: "2", 0.5: "0.5", 1.0 / 3: "0.33", 2.999: "3"} {
		if got := countMean(x); got != want {
			t.Errorf("countMean(%v) = %q, want %q", x, got, want)
		}
	}
}
