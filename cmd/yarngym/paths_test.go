package main

import (
	"encoding/json"
	"path/filepath"
	"testing"
)

// TestRelativeTracePath: a scenario given as a relative path with a folder
// reads its trace relative to the scenario's folder, once: from work/,
// `yarngym run t3/fb.toml` with path = "fb.tsv" reads work/t3/fb.tsv (it
// opened t3/t3/fb.tsv before commit 387217a). The same run from the
// scenario's folder, by absolute path and as ./t3/fb.toml gives the same
// summary.
func TestRelativeTracePath(t *testing.T) {
	work := filepath.Join(t.TempDir(), "work")
	writeFile(t, work, "t3/fb.tsv", "j1\t0\t0\t300000000\t1000\t10\nj2\t5\t5\t100\t0\t0\n")
	writeFile(t, work, "t3/fb.toml", `name = "fb"
[cluster]
[[cluster.nodes]]
count = 2
vcores = 4
mem_mb = 8192
[policy]
name = "fair"
[workload]
generator = "swim"
[workload.options]
path = "fb.tsv"
`)
	var first string
	for _, c := range []struct{ dir, scenario string }{
		{work, "t3/fb.toml"},
		{work, "./t3/fb.toml"},
		{filepath.Join(work, "t3"), "fb.toml"},
		{t.TempDir(), filepath.Join(work, "t3", "fb.toml")},
	} {
		code, stdout, stderr := runBin(t, c.dir, "run", c.scenario, "--format", "json")
		if code != 0 {
			t.Fatalf("cd %s && yarngym run %s: exit %d: %s", c.dir, c.scenario, code, stderr)
		}
		var s struct {
			JobsCompleted int `json:"jobs_completed"`
		}
		if err := json.Unmarshal([]byte(stdout), &s); err != nil || s.JobsCompleted != 2 {
			t.Fatalf("yarngym run %s: %v, %d jobs completed; want the trace's 2:\n%s", c.scenario, err, s.JobsCompleted, stdout)
		}
		if first == "" {
			first = stdout
		} else if stdout != first {
			t.Fatalf("yarngym run %s from %s gives another summary:\n%s\nthan\n%s", c.scenario, c.dir, stdout, first)
		}
	}
}
