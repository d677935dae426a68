package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"yarngym/benchmarks/suite"
	"yarngym/env/scenario"
)

// TestScenariosCommand: the listing marks the scenarios that replay a
// trace, 'scenarios NAME' prints a built-in's whole file, and an unknown
// name is refused with the nearest (issue 29: NAME was refused and no
// command printed a built-in's TOML).
func TestScenariosCommand(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"scenarios"}, &out, &errb); code != 0 {
		t.Fatalf("scenarios: exit %d: %s", code, errb.String())
	}
	if !regexp.MustCompile(`(?m)^swim-hour\s+SWIM\s+fair\s+\$\{traces\}/swim/FB-2009_samples_24_times_1hr_0\.tsv\s`).MatchString(out.String()) ||
		!regexp.MustCompile(`(?m)^quick\s+\S*\s*\S+\s+-\s`).MatchString(out.String()) {
		t.Errorf("the listing does not show the traces:\n%s", out.String())
	}
	out.Reset()
	if code := run([]string{"scenarios", "quick"}, &out, &errb); code != 0 {
		t.Fatalf("scenarios quick: exit %d: %s", code, errb.String())
	}
	src, err := scenario.BuiltinSource("quick")
	if err != nil || !bytes.Equal(out.Bytes(), src) || !strings.HasPrefix(out.String(), `name = "quick"`) {
		t.Errorf("scenarios quick printed %q, want the built-in's file (%v)", out.String(), err)
	}
	errb.Reset()
	if code := run([]string{"scenarios", "quik"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "did you mean quick?") {
		t.Errorf("scenarios quik: exit %d, %q", code, errb.String())
	}
}

// TestSetWithoutValue: --set followed by another flag names the missing
// KEY=VALUE (issue 29: "--set --out DIR" said "got 2 arguments").
func TestSetWithoutValue(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"run", "quick", "--set", "--out", t.TempDir()}, &out, &errb)
	if code != 2 || !strings.Contains(errb.String(), "--set") || !strings.Contains(errb.String(), "needs KEY=VALUE") || strings.Contains(errb.String(), "arguments") {
		t.Errorf("exit %d, %q", code, errb.String())
	}
}

// TestUsageListsEverySuite: the usage names every bench suite (issue 29:
// "learned" was missing) and learn --help the default budgets.
func TestUsageListsEverySuite(t *testing.T) {
	for _, name := range suite.Names() {
		if !strings.Contains(usage, name) {
			t.Errorf("the usage does not name suite %q", name)
		}
	}
	var out, errb bytes.Buffer
	run([]string{"learn", "--help"}, &out, &errb)
	if !strings.Contains(out.String()+errb.String(), "ppo=100000") || !strings.Contains(out.String()+errb.String(), "grid=81") {
		t.Errorf("learn --help does not show the default budgets:\n%s%s", out.String(), errb.String())
	}
}

// TestStuckRunUndefinedTimes: a run where no job finishes reports its
// makespan and mean wait and completion as undefined (JSON null; the table
// says why), not 0 (issue 29).
func TestStuckRunUndefinedTimes(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"run", "terasort-burst", "--set", "max_am_share=-1", "--format", "json"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var m map[string]any
	if err := json.Unmarshal(out.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"makespan_s", "mean_wait_s", "mean_completion_s"} {
		if v, ok := m[k]; !ok || v != nil {
			t.Errorf("%s = %v (present %v), want null", k, v, ok)
		}
	}
	if m["jobs_stuck"] != 80.0 {
		t.Errorf("jobs_stuck %v, want 80", m["jobs_stuck"])
	}
	out.Reset()
	run([]string{"run", "terasort-burst", "--set", "max_am_share=-1"}, &out, &errb)
	if !regexp.MustCompile(`(?m)^makespan_s\s+undefined \(no job finished; 80 stuck\)$`).MatchString(out.String()) {
		t.Errorf("table:\n%s", out.String())
	}
}

// TestProgressOffTerminal: off a terminal, progress is plain lines: repro
// writes one per 100 runs and the sweep's last (it wrote one per run,
// thousands), each with the runs done of the sweep's total and the time
// left; baselines no carriage returns (issue 29).
func TestProgressOffTerminal(t *testing.T) {
	var log bytes.Buffer
	p := reproProgress(&log)
	for i := range 250 {
		p(i+1, 250, fmt.Sprintf("run %d", i))
	}
	if got := strings.Count(log.String(), "\n"); got != 3 || strings.Contains(log.String(), "\r") || !strings.Contains(log.String(), "[100/250] ETA ") ||
		!strings.Contains(log.String(), "[250/250] run 249\n") {
		t.Errorf("250 runs logged %d lines (want 3: runs 100, 200 and the last, with the time left):\n%q", got, log.String())
	}
	var out, errb bytes.Buffer
	if code := run([]string{"baselines", "AutoAdmin-v0"}, &out, &errb); code != 0 {
		t.Fatalf("baselines: exit %d: %s", code, errb.String())
	}
	if strings.Contains(errb.String(), "\r") || !strings.Contains(errb.String(), "[12/12] AutoAdmin-v0 settings\n") {
		t.Errorf("baselines progress off a terminal:\n%q", errb.String())
	}
}

// TestProgressETA: the time left at the pace so far, on every line but
// the last (10 s for 2 of 5 steps: 15 s left).
func TestProgressETA(t *testing.T) {
	var log bytes.Buffer
	p := newProgress(&log)
	at := p.start
	p.now = func() time.Time { return at }
	at = p.start.Add(10 * time.Second)
	p.update(2, 5, "two")
	at = p.start.Add(30 * time.Second)
	p.update(5, 5, "all")
	if want := "  [2/5] ETA 15s two\n  [5/5] all\n"; log.String() != want {
		t.Errorf("progress %q, want %q", log.String(), want)
	}
}

// TestDevNullIsNotATerminal: progress written to /dev/null (a character
// device, which the earlier mode test took for a terminal) is not redrawn
// in place (x/term asks the terminal itself).
func TestDevNullIsNotATerminal(t *testing.T) {
	f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if isTerminal(f) {
		t.Errorf("isTerminal(%s) = true", os.DevNull)
	}
	var b bytes.Buffer
	if isTerminal(&b) {
		t.Error("isTerminal(a buffer) = true")
	}
}
