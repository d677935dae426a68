package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func call(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return code, o.String(), e.String()
}

// TestRunJSON: the JSON summary has the documented fields and the DRESS
// Fig. 1 first-come-first-serve numbers (Reference: DRESS Sec. I).
func TestRunJSON(t *testing.T) {
	code, out, errOut := call("run", "dress-fig1", "--policy", "fifo", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, out)
	}
	for _, k := range []string{"scenario", "policy", "seed", "makespan_s", "mean_wait_s", "mean_completion_s", "jobs_completed",
		"jobs_stuck", "tasks_killed", "wasted_work_s", "vcores_reserved_mean", "vcores_used_mean", "events"} {
		if _, ok := m[k]; !ok {
			t.Fatalf("summary lacks %q: %s", k, out)
		}
	}
	if m["makespan_s"] != 40.0 || m["mean_wait_s"] != 16.0 || m["policy"] != "fifo" {
		t.Fatalf("makespan %v, mean wait %v, policy %v; want 40, 16, fifo", m["makespan_s"], m["mean_wait_s"], m["policy"])
	}
}

func TestRunOutDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "res")
	code, _, errOut := call("run", "quick", "--seed", "3", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, f := range []string{"summary.json", "jobs.csv", "tasks.csv"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil || len(b) == 0 {
			t.Fatalf("%s: %v", f, err)
		}
	}
	jobs, _ := os.ReadFile(filepath.Join(dir, "jobs.csv"))
	if n := strings.Count(string(jobs), "\n"); n != 5 {
		t.Fatalf("jobs.csv has %d lines, want a header and 4 jobs", n)
	}
	sum, _ := os.ReadFile(filepath.Join(dir, "summary.json"))
	if !strings.Contains(string(sum), `"seed": 3`) {
		t.Fatalf("summary does not record seed 3: %s", sum)
	}
}

func TestExitCodes(t *testing.T) {
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"run", "no-such-scenario"}, 2, "no built-in scenario"},
		{[]string{"run", "quick", "--set", "rho=0.9"}, 2, "unknown parameter"},
		{[]string{"run", "quick", "--set", "workload.jobs.0.stages.0.duration_s=-1"}, 2, "duration_s"},
		{[]string{"run", "quick", "--format", "xml"}, 2, "--format"},
		{[]string{"run"}, 2, "one SCENARIO"},
		{[]string{"run", "quick", "--bogus"}, 2, "bogus"},
		{[]string{"frobnicate"}, 2, "unknown command"},
		{[]string{"run", filepath.Join(os.TempDir(), "missing.toml")}, 2, "missing.toml"},
		{[]string{"run", "terasort-burst", "--set", "max_am_share=-1"}, 0, "stuck"},
	}
	for _, c := range cases {
		code, _, errOut := call(c.args...)
		if code != c.code || !strings.Contains(errOut, c.msg) {
			t.Fatalf("%v: exit %d, stderr %q; want exit %d mentioning %q", c.args, code, errOut, c.code, c.msg)
		}
	}
}

func TestListings(t *testing.T) {
	code, out, _ := call("policies")
	if code != 0 || !strings.Contains(out, "max_am_share") || !strings.Contains(out, "backfill") {
		t.Fatalf("policies: exit %d\n%s", code, out)
	}
	code, out, _ = call("scenarios")
	if code != 0 || !strings.Contains(out, "dress-fig1") || !strings.Contains(out, "swim-fb2009") {
		t.Fatalf("scenarios: exit %d\n%s", code, out)
	}
}
