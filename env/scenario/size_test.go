package scenario_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"yarngym/env/scenario"
	"yarngym/env/sim"
)

// TestMemoryLimit: a scenario too large to hold in memory is refused at
// load, before anything is built, with the key that makes it large and the
// estimate (a 100,000,000-node cluster started a run that printed nothing
// for minutes); a large one loads with a warning, told as soon as it is
// known; run.memory_limit_gb moves the limit.
func TestMemoryLimit(t *testing.T) {
	load := func(text string, sets ...string) (*scenario.Scenario, []string, error) {
		var told []string
		sc, err := scenario.LoadWith(writeTemp(t, text), sets, scenario.LoadOptions{Warn: func(m string) { told = append(told, m) }})
		return sc, told, err
	}
	for _, c := range []struct {
		sets []string
		want string
	}{
		{[]string{"cluster.nodes.0.count=100000000"}, "cluster.nodes[0].count: 100000000 nodes and 4 tasks need about 47.7 GB of memory to simulate (about 512 bytes a node or task), over the 16 GB limit"},
		{[]string{"workload.jobs.0.count=100000000"}, "workload.jobs[0].count: 2 nodes and 400000000 tasks need about 191 GB of memory"},
		{[]string{"workload.jobs.0.stages.0.tasks=100000000"}, "workload.jobs[0].stages: 2 nodes and 100000000 tasks need about 47.7 GB"},
		{[]string{"cluster.nodes.0.count=10000000", "run.memory_limit_gb=2"}, "cluster.nodes[0].count: 10000000 nodes and 4 tasks need about 4.77 GB of memory to simulate (about 512 bytes a node or task), over the 2 GB limit"},
	} {
		if _, _, err := load(good, c.sets...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v; want an error with %q", c.sets, err, c.want)
		}
	}
	// Over the warning size: loads (without building: the field checks
	// suffice for explicit jobs), and warns once.
	sc, told, err := load(good, "cluster.nodes.0.count=5000000")
	want := "with --set cluster.nodes.0.count=5000000: 5000000 nodes and 4 tasks need about 2.38 GB of memory to simulate"
	if err != nil || len(told) != 1 || !strings.Contains(told[0], want) || len(sc.Warnings) != 1 || sc.Warnings[0] != told[0] {
		t.Fatalf("err %v, told %q, warnings %v; want one warning with %q", err, told, sc, want)
	}
	if sc, told, err = load(good); err != nil || len(told) != 0 || len(sc.Warnings) != 0 {
		t.Fatalf("a small scenario: err %v, warnings %q", err, told)
	}
	// A generator's jobs are counted once it has generated them.
	gen := strings.Replace(good, "[[workload.jobs]]", "[run]\nmemory_limit_gb = 0.0001\n[workload]\ngenerator = \"autoadmin\"\n[[workload.jobs]]", 1)
	if _, _, err := load(gen); err == nil || !strings.Contains(err.Error(), "workload.options: 2 nodes and ") || !strings.Contains(err.Error(), "over the 105 kB limit") {
		t.Fatalf("generated jobs over the limit: %v", err)
	}
	if _, _, err := load(good, "run.memory_limit_gb=-1"); err == nil || !strings.Contains(err.Error(), "run.memory_limit_gb: must not be negative") {
		t.Fatalf("negative limit: %v", err)
	}
}

func writeTemp(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "case.toml")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestMemoryEstimate: the estimate (scenario.EstimateBytes) is within a
// factor of two of the heap a built and started run holds, for a run with
// many nodes and one with many tasks.
func TestMemoryEstimate(t *testing.T) {
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	for _, c := range []struct{ nodes, jobs, tasks int }{{50000, 1, 10}, {10, 40, 1000}} {
		text := fmt.Sprintf("name = \"m\"\n[cluster]\n[[cluster.nodes]]\ncount = %d\nvcores = 8\nmem_mb = 8192\n[policy]\nname = \"fair\"\n"+
			"[[workload.jobs]]\nname = \"j\"\ncount = %d\nam_vcores = 1\nam_mem_mb = 1024\n[[workload.jobs.stages]]\nkind = \"map\"\ntasks = %d\nvcores = 1\nmem_mb = 1024\nduration_s = 10\n",
			c.nodes, c.jobs, c.tasks)
		sc, err := scenario.Parse([]byte(text), "m.toml", ".", nil)
		if err != nil {
			t.Fatal(err)
		}
		before := heap()
		cfg, err := sc.Build(1, "")
		if err != nil {
			t.Fatal(err)
		}
		s, err := sim.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		s.RunUntil(20_000)
		used := float64(heap()) - float64(before)
		runtime.KeepAlive(s)
		est := scenario.EstimateBytes(float64(c.nodes), float64(c.jobs*(c.tasks+1)))
		if used > 2*est || used < est/2 {
			t.Errorf("%d nodes, %d tasks: estimate %.0f bytes, the run holds %.0f", c.nodes, c.jobs*(c.tasks+1), est, used)
		}
	}
}
