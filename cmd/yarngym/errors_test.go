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

// TestErrorsNameTheRightThing: the error names the key that is wrong (a
// negative duration_sigma was reported as duration_s), blames a --set value
// on the --set (it was blamed on builtin:quick), and suggests the nearest
// valid key or command.
func TestErrorsNameTheRightThing(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "quick", "--set", "workload.jobs.0.stages.0.duration_sigma=-1"},
			"yarngym: builtin:quick with --set workload.jobs.0.stages.0.duration_sigma=-1: workload.jobs[0].stages[0].duration_sigma: must not be negative, got -1\n"},
		{[]string{"run", "quick", "--set", "cluster.nodes.0.count=-3"},
			"yarngym: builtin:quick with --set cluster.nodes.0.count=-3: cluster.nodes[0].count: must be at least 1, got -3\n"},
		{[]string{"run", "quick", "--set", "cluster.nodes.0.vcore=3"},
			"yarngym: builtin:quick with --set cluster.nodes.0.vcore=3: cluster.nodes.vcore: unknown key; did you mean vcores? " +
				"(cluster.nodes takes: name, count, vcores, mem_mb, cores, disk_mbps, net_mbps, speed, reduce_slots)\n"},
		{[]string{"run", "quick", "--set", "max_am_shar=0.3"},
			"yarngym: --set: max_am_shar: unknown parameter \"max_am_shar\"; did you mean max_am_share? (policy fair has: max_am_share, locality_delay)\n"},
	} {
		code, stdout, stderr := runBin(t, "", c.args...)
		if code != 2 || stdout != "" || stderr != c.want {
			t.Errorf("%v: exit %d, stderr\n %q\nwant exit 2 and\n %q", c.args, code, stderr, c.want)
		}
	}
	if code, _, stderr := runBin(t, "", "rn", "quick"); code != 2 || !strings.HasPrefix(stderr, "yarngym: unknown command \"rn\"; did you mean run?\n") {
		t.Errorf("rn: exit %d, %q", code, stderr)
	}
}
