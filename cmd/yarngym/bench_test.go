package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// yarngym bench writes the tidy tables, the summary and the report, shows
// plain progress lines when stderr is not a terminal, and yarngym report
// rebuilds the same report from the folder.
func TestBenchAndReport(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "res")
	code, out, errOut := call("bench", "quick", "--seeds", "1", "--out", dir, "--parallel", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, f := range []string{"summary.json", "runs.csv", "jobs.csv", "timeline.csv", "policy_state.csv", "report.html"} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Size() == 0 {
			t.Fatalf("%s missing or empty: %v", f, err)
		}
	}
	if !strings.Contains(out, "report:  "+filepath.Join(dir, "report.html")) || !strings.Contains(out, "dress-fig1") {
		t.Fatalf("output does not list the results and the report:\n%s", out)
	}
	if !strings.Contains(errOut, "[6/6] ") || strings.Contains(errOut, "\r") {
		t.Fatalf("want plain progress lines up to [6/6] on a non-terminal:\n%q", errOut)
	}
	runs, _ := os.ReadFile(filepath.Join(dir, "runs.csv"))
	if n := strings.Count(string(runs), "\n"); n != 1+6 {
		t.Fatalf("runs.csv has %d lines, want a header and 6 runs", n)
	}
	before, _ := os.ReadFile(filepath.Join(dir, "report.html"))
	if err := os.Remove(filepath.Join(dir, "report.html")); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = call("report", dir)
	if code != 0 || !strings.Contains(out, "report.html") {
		t.Fatalf("report: exit %d: %s %s", code, out, errOut)
	}
	after, _ := os.ReadFile(filepath.Join(dir, "report.html"))
	if !bytes.Equal(before, after) {
		t.Fatal("yarngym report rebuilt a different report.html than yarngym bench wrote")
	}
}

func TestBenchBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"bench"}, "quick"},
		{[]string{"bench", "nope"}, `unknown suite "nope"`},
		{[]string{"bench", "quick", "--seeds", "0"}, "at least 1"},
		{[]string{"report"}, "one results folder"},
		{[]string{"report", t.TempDir()}, "summary.json"},
	} {
		code, _, errOut := call(c.args...)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", c.args, code, errOut, c.want)
		}
	}
}

func TestProgressBar(t *testing.T) {
	var b bytes.Buffer
	p := newProgress(&b)
	p.tty = true
	at := p.start
	p.now = func() time.Time { return at }
	at = p.start.Add(3 * time.Second) // 1 of 4 in 3 s: 9 s left
	p.update(1, 4, "a long first message")
	at = p.start.Add(4 * time.Second) // 2 of 4 in 4 s: 4 s left
	p.update(2, 4, "b")
	p.finish()
	got := b.String()
	if !strings.Contains(got, "\r[=======                       ] 1/4 ETA 9s a long first message") ||
		!strings.Contains(got, "\r[===============               ] 2/4 ETA 4s b") || !strings.HasSuffix(got, "\n") {
		t.Fatalf("%q", got)
	}
	// the shorter second line blanks what is left of the first
	if !strings.Contains(got, "2/4 ETA 4s b"+strings.Repeat(" ", len("a long first message")-1)) {
		t.Fatalf("second line not padded: %q", got)
	}
}
