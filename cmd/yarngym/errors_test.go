package main

import (
	"strings"
	"testing"
)

// TestSyntaxErrorShowsReason: a TOML syntax error prints the file, the
// line, the column and the reason, and exits 2 (it printed "line 9: " and
// nothing after it).
func TestSyntaxErrorShowsReason(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "bad/syntax.toml", `name = "syntax"
[cluster]
[[cluster.nodes]]
count = 2
vcores = 8
mem_mb = 8192
[policy]
name = "fifo"
description = "a string
that breaks"
`)
	code, stdout, stderr := runBin(t, dir, "run", "bad/syntax.toml")
	want := "yarngym: bad/syntax.toml: line 9, column 24: strings cannot contain newlines (after key policy.description)\n"
	if code != 2 || stderr != want || stdout != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q; want exit 2 and stderr %q", code, stdout, stderr, want)
	}
}

// TestJobCountZeroRefused: count = 0 in a [[workload.jobs]] group is bad
// input naming its key (it ran one job and exited 0, like count = 1).
func TestJobCountZeroRefused(t *testing.T) {
	code, stdout, stderr := runBin(t, "", "run", "quick", "--set", "workload.jobs.0.count=0")
	want := "workload.jobs[0].count: must be at least 1 (omit it for one job), got 0\n"
	if code != 2 || stdout != "" || !strings.HasSuffix(stderr, want) {
		t.Fatalf("exit %d, stdout %q, stderr %q; want exit 2 and an error ending %q", code, stdout, stderr, want)
	}
}
