package main

import (
	"regexp"
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
			"yarngym: --set: max_am_shar: unknown parameter \"max_am_shar\"; did you mean max_am_share? (policy fair has: max_am_share, zero_headroom, assignmultiple, dynamic_max_assign, max_assign, " +
				"update_interval_ms, reservation_threshold_mb, reservable_nodes, minimum_allocation_mb, minimum_allocation_vcores, " +
				"increment_allocation_mb, increment_allocation_vcores, locality_delay)\n"},
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

// TestAbsurdSizeRefused: a cluster too large to simulate is refused at once
// with its key and the estimated memory (it started a run that printed
// nothing for minutes).
func TestAbsurdSizeRefused(t *testing.T) {
	code, stdout, stderr := runBin(t, "", "run", "quick", "--set", "cluster.nodes.0.count=100000000")
	want := "yarngym: builtin:quick with --set cluster.nodes.0.count=100000000: cluster.nodes[0].count: 100000000 nodes, 4 jobs and 92 tasks " +
		"(about 92 in flight at once) need about 59.6 GB of memory to simulate (about 640 bytes a node, 768 a job, 16 a task and 512 more while in flight), " +
		"over the 16 GB limit (run.memory_limit_gb, default 16)\n"
	if code != 2 || stdout != "" || stderr != want {
		t.Fatalf("exit %d, stderr %q; want exit 2 and %q", code, stderr, want)
	}
}

// TestRunProgress: --progress reports the run on stderr (simulated time,
// jobs done, events and events/s) and changes nothing on stdout.
func TestRunProgress(t *testing.T) {
	for _, format := range []string{"table", "json"} {
		_, plain, _ := runBin(t, "", "run", "opera-mr", "--format", format)
		code, stdout, stderr := runBin(t, "", "run", "opera-mr", "--format", format, "--progress")
		if code != 0 || stdout != plain {
			t.Fatalf("--progress: exit %d, stdout differs:\n%s\nwithout:\n%s", code, stdout, plain)
		}
		lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
		last := regexp.MustCompile(`^progress: done at simulated [0-9.]+ s, 6/6 jobs done, [0-9.]+[kMG]? events in [0-9.]+ s( \([0-9.]+[kMG]? events/s\))?$`)
		if !last.MatchString(lines[len(lines)-1]) || strings.Contains(stderr, "\r") {
			t.Fatalf("stderr %q; want progress lines ending in one like %s", stderr, last)
		}
	}
}

// TestReproRefusesBeforeRunning: an unknown paper (all is a name too) and
// a bad flag are refused with exit 2 before any experiment runs.
func TestReproRefusesBeforeRunning(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"repro", "opra"}, []string{`unknown paper "opra"`, "opera", "or all"}},
		{[]string{"repro", "all", "--format", "xml"}, []string{`--format "xml" is not table or json`}},
		{[]string{"repro", "all", "--seeds", "0"}, []string{"--seeds and --parallel must be at least 1"}},
	} {
		code, stdout, stderr := runBin(t, "", c.args...)
		if code != 2 || stdout != "" {
			t.Errorf("%v: exit %d, stdout %q; want exit 2 and nothing", c.args, code, stdout)
		}
		for _, w := range c.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%v: stderr %q lacks %q", c.args, stderr, w)
			}
		}
	}
}
