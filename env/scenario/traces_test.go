package scenario_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"yarngym/data"
	"yarngym/env/scenario"
	"yarngym/internal/simtest"
)

// TestShippedTracesFromAnyFolder: the built-in trace scenarios read the
// traces shipped with yarngym whatever the working directory, with nothing
// beside the clone (issue 29: `cd /tmp && yarngym run sls-2jobs` failed).
func TestShippedTracesFromAnyFolder(t *testing.T) {
	t.Setenv("YARNGYM_TRACES", "")
	t.Chdir(t.TempDir())
	for _, c := range []struct {
		name string
		jobs int
	}{{"sls-2jobs", 2}, {"swim-hour", 0}, {"swim-fb2009", 0}, {"alibaba-hour", 0}} {
		sc, err := scenario.Load(c.name, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if p := sc.TracePath(); !data.Shipped(p) {
			t.Errorf("%s: trace path %q, want a shipped trace", c.name, p)
		}
		cfg, err := sc.Build(1, "")
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(cfg.Jobs) == 0 || (c.jobs > 0 && len(cfg.Jobs) != c.jobs) {
			t.Errorf("%s: %d jobs, want %d (0: any)", c.name, len(cfg.Jobs), c.jobs)
		}
	}
}

// TestTracesOverride: $YARNGYM_TRACES replaces the shipped folder; a
// folder that does not exist is named as such, not answered with "set
// YARNGYM_TRACES".
func TestTracesOverride(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "hadoop-sls"), 0o755); err != nil {
		t.Fatal(err)
	}
	src, err := data.Open("${traces}/hadoop-sls/2jobs2min-rumen-jh.json")
	if err != nil {
		t.Fatal(err)
	}
	// The first job only (a stream of JSON objects): the override is read,
	// not the shipped file.
	var first json.RawMessage
	err = json.NewDecoder(src).Decode(&first)
	src.Close()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "hadoop-sls", "2jobs2min-rumen-jh.json"), first, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("YARNGYM_TRACES", dir)
	sc, err := scenario.Load("sls-2jobs", nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "hadoop-sls", "2jobs2min-rumen-jh.json"); sc.TracePath() != want {
		t.Errorf("trace path %q, want %q", sc.TracePath(), want)
	}
	cfg, err := sc.Build(1, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Jobs) != 1 {
		t.Errorf("%d jobs, want the override's 1", len(cfg.Jobs))
	}

	t.Setenv("YARNGYM_TRACES", filepath.Join(dir, "nonexistent"))
	_, err = scenario.Load("sls-2jobs", nil)
	if err == nil {
		t.Fatal("a missing YARNGYM_TRACES folder was accepted")
	}
	if msg := err.Error(); !strings.Contains(msg, "YARNGYM_TRACES: no such folder") || strings.Contains(msg, "set YARNGYM_TRACES") {
		t.Errorf("error %q: want it to name the missing YARNGYM_TRACES folder", msg)
	}
}

// TestRumenKilledJobSkipped: a real job history holds a job killed before
// any attempt ran. It is skipped, the others replay, and the load says so
// (issue 29: the whole trace was refused); strict = true refuses it.
func TestRumenKilledJobSkipped(t *testing.T) {
	path := simtest.KilledJobHistory(t)
	var told []string
	sc, err := scenario.LoadWith(path, nil, scenario.LoadOptions{Warn: func(m string) { told = append(told, m) }})
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := sc.Build(1, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Jobs) != 1 || len(told) != 1 || !strings.Contains(told[0], "1 job(s) skipped") || !strings.Contains(told[0], "job 1") {
		t.Errorf("%d jobs, warnings %q: want the second job replayed and the first reported skipped", len(cfg.Jobs), told)
	}
	_, err = scenario.Load(path, []string{"workload.options.strict=true"})
	if err == nil || !strings.Contains(err.Error(), "no map or reduce task with an attempt (strict)") {
		t.Errorf("strict: %v, want the job refused", err)
	}
}
