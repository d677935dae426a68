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
		{[]string{"cluster.nodes.0.count=100000000"}, "cluster.nodes[0].count: 100000000 nodes, 1 job and 4 tasks (about 4 in flight at once) " +
			"need about 59.6 GB of memory to simulate (about 640 bytes a node, 768 a job, 16 a task and 512 more while in flight), over the 16 GB limit"},
		{[]string{"workload.jobs.0.count=100000000"}, "workload.jobs[0].count: 2 nodes, 100000000 jobs and 400000000 tasks (about 400000000 in flight at once) need about 268 GB of memory"},
		// Copies 5 s apart of a job that runs 10 s alone: 3 in flight at once.
		{[]string{"workload.jobs.0.count=40000000", "workload.jobs.0.interval_s=5"}, "workload.jobs[0].count: 2 nodes, 40000000 jobs and 160000000 tasks (about 12 in flight at once) need about 31 GB"},
		{[]string{"workload.jobs.0.stages.0.tasks=100000000"}, "workload.jobs[0].stages: 2 nodes, 1 job and 100000000 tasks (about 100000000 in flight at once) need about 49.2 GB"},
		{[]string{"cluster.nodes.0.count=10000000", "run.memory_limit_gb=2"}, "cluster.nodes[0].count: 10000000 nodes, 1 job and 4 tasks (about 4 in flight at once) " +
			"need about 5.96 GB of memory to simulate (about 640 bytes a node, 768 a job, 16 a task and 512 more while in flight), over the 2 GB limit"},
	} {
		if _, _, err := load(good, c.sets...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v; want an error with %q", c.sets, err, c.want)
		}
	}
	// Over the warning size: loads (without building: the field checks
	// suffice for explicit jobs), and warns once.
	sc, told, err := load(good, "cluster.nodes.0.count=5000000")
	want := "with --set cluster.nodes.0.count=5000000: 5000000 nodes, 1 job and 4 tasks (about 4 in flight at once) need about 2.98 GB of memory to simulate"
	if err != nil || len(told) != 1 || !strings.Contains(told[0], want) || len(sc.Warnings) != 1 || sc.Warnings[0] != told[0] {
		t.Fatalf("err %v, told %q, warnings %v; want one warning with %q", err, told, sc, want)
	}
	if sc, told, err = load(good); err != nil || len(told) != 0 || len(sc.Warnings) != 0 {
		t.Fatalf("a small scenario: err %v, warnings %q", err, told)
	}
	// A generator's jobs are counted once it has generated them.
	gen := strings.Replace(good, "[[workload.jobs]]", "[run]\nmemory_limit_gb = 0.0001\n[workload]\ngenerator = \"autoadmin\"\n[[workload.jobs]]", 1)
	if _, _, err := load(gen); err == nil || !strings.Contains(err.Error(), "workload.options: 2 nodes, ") || !strings.Contains(err.Error(), "over the 105 kB limit") {
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

// TestMemoryEstimate: the estimate (scenario.EstimateBytes of SizeOf) is
// within a factor of two of the most heap a run holds, for runs whose
// memory goes to nodes, to tasks all in flight at once, and to many jobs
// run one after another (their tasks released as they end), with and
// without task records; and the tasks in flight at once that SizeOf
// estimates for a generated workload are within a factor of two of the
// run's.
func TestMemoryEstimate(t *testing.T) {
	heap := func() float64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return float64(m.HeapAlloc)
	}
	for _, c := range []struct {
		nodes, jobs, tasks int
		intervalS          float64
		record             bool
	}{{50000, 1, 10, 0, false}, {10, 40, 1000, 0, false}, {10, 2000, 20, 30, false}, {10, 2000, 20, 30, true}} {
		text := fmt.Sprintf("name = \"m\"\n[cluster]\n[[cluster.nodes]]\ncount = %d\nvcores = 8\nmem_mb = 8192\n[policy]\nname = \"fair\"\n"+
			"[[workload.jobs]]\nname = \"j\"\ncount = %d\ninterval_s = %v\nam_vcores = 1\nam_mem_mb = 1024\n"+
			"[[workload.jobs.stages]]\nkind = \"map\"\ntasks = %d\nvcores = 1\nmem_mb = 1024\nduration_s = 10\n",
			c.nodes, c.jobs, c.intervalS, c.tasks)
		sc, err := scenario.Parse([]byte(text), "m.toml", ".", nil)
		if err != nil {
			t.Fatal(err)
		}
		before := heap()
		cfg, err := sc.Build(1, "")
		if err != nil {
			t.Fatal(err)
		}
		cfg.RecordTasks = c.record
		size := sc.SizeOf(&cfg)
		s, err := sim.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		// The heap is sampled about 100 times over the run.
		step := max(60*sim.MsPerS, sim.Ms(float64(c.jobs)*c.intervalS*10))
		peak := 0.0
		for done := false; !done; {
			done = s.RunUntil(s.Now() + step)
			peak = max(peak, heap()-before)
		}
		runtime.KeepAlive(s)
		if est := scenario.EstimateBytes(size); peak > 2*est || peak < est/2 {
			t.Errorf("%+v: estimate %.0f bytes for %+v, the run held up to %.0f", c, est, size, peak)
		}
	}
	for _, name := range []string{"swim-hour", "opera-mr"} {
		sc, err := scenario.Load(name, nil)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := sc.Build(1, "")
		if err != nil {
			t.Fatal(err)
		}
		est := sc.SizeOf(&cfg).Live
		s, err := sim.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		peak := 0
		for done := false; !done; {
			done = s.RunUntil(s.Now() + 10*sim.MsPerS)
			live := 0
			for id := range s.TaskIDs() {
				if s.Task(id) != nil {
					live++
				}
			}
			peak = max(peak, live)
		}
		if float64(peak) > 2*est || float64(peak) < est/2 {
			t.Errorf("%s: %.0f tasks estimated in flight at once, the run held up to %d", name, est, peak)
		}
	}
}
