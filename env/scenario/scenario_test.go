package scenario_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"yarngym/env/scenario"
	"yarngym/env/sim"
	"yarngym/internal/simtest"
	"yarngym/runner"
)

func seed(v uint64) *uint64 { return &v }

// partial lists built-ins too large to check event by event to the end in
// a test, with the settings that cut them to a prefix: swim-fb2009's,
// swim-hour's and alibaba-hour's first simulated quarter hour, decima-tpch's first 20 minutes,
// and scale-50k's first 300 jobs for 30 s on 1,000 of its nodes (the
// invariants are checked over every node after every event).
var partial = map[string][]string{
	"swim-fb2009":  {"run.max_s=900"},
	"swim-hour":    {"run.max_s=900"},
	"alibaba-hour": {"run.max_s=900"},
	"decima-tpch":  {"run.max_s=1200"},
	"scale-50k":    {"cluster.nodes.0.count=1000", "workload.options.max_jobs=300", "run.max_s=30"},
}

// TestInvariantsEveryEvent runs every built-in scenario, two seeds each,
// checking the conservation invariants after every event, and requires
// every job to complete (none of the built-ins should deadlock). The runs
// are independent: they run in parallel (TestInvariantsEveryEvent/NAME/seedN).
func TestInvariantsEveryEvent(t *testing.T) {
	for _, name := range scenario.Builtins() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			for _, sd := range []uint64{1, 2} {
				t.Run(fmt.Sprintf("seed%d", sd), func(t *testing.T) {
					t.Parallel()
					invariantsRun(t, name, sd)
				})
			}
		})
	}
}

func invariantsRun(t *testing.T, name string, sd uint64) {
	events := 0
	res, err := runner.Run(runner.Options{Scenario: name, Sets: partial[name], Seed: seed(sd), RecordTasks: true, AfterEvent: simtest.Invariants(t, func(*sim.Sim) { events++ })})
	if err != nil {
		t.Fatal(err)
	}
	sum := res.Summary
	if partial[name] != nil {
		if sum.JobsStuck != 0 || sum.JobsCompleted == 0 || !sum.Truncated {
			t.Fatalf("seed %d: %+v: want a truncated run with completed and no stuck jobs", sd, sum)
		}
		return
	}
	if sum.JobsCompleted != len(res.Sim.Jobs) {
		t.Fatalf("seed %d: %d of %d jobs completed (%d stuck)", sd, sum.JobsCompleted, len(res.Sim.Jobs), sum.JobsStuck)
	}
	if p := res.Sim.Stats().Processed; int64(events) != p || events == 0 || p > sum.Events {
		t.Fatalf("checked %d events, the engine processed %d of the model's %d", events, p, sum.Events)
	}
	checkEveryTaskEndedOnce(t, res)
}

// TestIdleHeartbeatsSkipped: skipping the heartbeats of idle nodes (the
// engine's default) gives exactly the results of processing every heartbeat
// (sim.Config.EveryHeartbeat): summary, per-job and per-task tables and the
// timeline with the policy's state, for every built-in scenario under its
// own policy and under FIFO and Fair, whose allocators let idle nodes sleep
// (ras-adaptive only under RAS: its 32 slots per node, which RAS sizes at
// run time, overcommit the nodes under Fair or FIFO for hours of simulated
// time; its workload runs under Fair and FIFO in the ras scenario).
func TestIdleHeartbeatsSkipped(t *testing.T) {
	for _, name := range scenario.Builtins() {
		for _, pol := range []string{"", "fifo", "fair"} {
			if name == "ras-adaptive" && pol != "" {
				continue
			}
			t.Run(name+"/"+pol, func(t *testing.T) {
				run := func(every bool) (*runner.Result, [4][]byte) {
					res, err := runner.Run(runner.Options{Scenario: name, Policy: pol, Sets: partial[name], RecordTasks: true,
						TimelineS: 1, EveryHeartbeat: every})
					if err != nil {
						t.Fatal(err)
					}
					var jobs, tasks, tl bytes.Buffer
					for _, r := range res.JobsCSV() {
						jobs.WriteString(strings.Join(r, ",") + "\n")
					}
					for _, r := range res.TasksCSV() {
						tasks.WriteString(strings.Join(r, ",") + "\n")
					}
					for _, smp := range res.Sim.Timeline() {
						fmt.Fprintf(&tl, "%+v\n", smp)
					}
					return res, [4][]byte{res.SummaryBytes(), jobs.Bytes(), tasks.Bytes(), tl.Bytes()}
				}
				ref, want := run(true)
				got, have := run(false)
				for i, what := range []string{"summary.json", "jobs.csv", "tasks.csv", "timeline"} {
					if !bytes.Equal(have[i], want[i]) {
						t.Fatalf("%s differs when idle heartbeats are skipped:\n%s\nwant:\n%s", what, firstDiff(have[i], want[i]), firstDiff(want[i], have[i]))
					}
				}
				rs, gs := ref.Sim.Stats(), got.Sim.Stats()
				if rs.Processed != rs.Events || gs.Events != rs.Events || gs.Processed > gs.Events {
					t.Fatalf("events: every heartbeat %d/%d, skipping %d/%d (processed/model)", rs.Processed, rs.Events, gs.Processed, gs.Events)
				}
				if name == "swim-fb2009" && (pol == "" || pol == "fair") && gs.Processed*4 > gs.Events {
					t.Fatalf("%s: processed %d of %d events: idle heartbeats were not skipped", name, gs.Processed, gs.Events)
				}
			})
		}
	}
}

// firstDiff returns the line of a where it first differs from b.
func firstDiff(a, b []byte) string {
	al, bl := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := range al {
		if i >= len(bl) || al[i] != bl[i] {
			return fmt.Sprintf("line %d: %s", i+1, al[i])
		}
	}
	return "(a prefix)"
}

// checkEveryTaskEndedOnce: each task has exactly one finished attempt, and
// its killed attempts come before it, numbered in order.
func checkEveryTaskEndedOnce(t *testing.T, res *runner.Result) {
	t.Helper()
	type key struct{ job, stage, index int }
	finished := map[key]int{}
	attempts := map[key]int32{}
	for _, r := range res.Sim.TaskRecords() {
		if r.Kind == sim.KindAM {
			continue
		}
		k := key{int(r.Job), r.Stage, r.Index}
		if r.Attempt != attempts[k] {
			t.Fatalf("task %+v: attempt %d after %d attempts", k, r.Attempt, attempts[k])
		}
		attempts[k]++
		if r.Outcome == sim.Finished {
			finished[k]++
		}
	}
	// Every task of every job's description (ended jobs' tasks are
	// released: sim.Config.KeepTasks).
	for _, j := range res.Sim.Jobs {
		for si, st := range j.Spec.Stages {
			for ti := range st.Durations() {
				if k := (key{int(j.ID), si, ti}); finished[k] != 1 {
					t.Fatalf("job %d task %d.%d finished %d times", j.ID, si, ti, finished[k])
				}
			}
		}
	}
}

// TestDeterministicOutputs: the same scenario and seed give byte-identical
// JSON and CSV; another seed changes a stochastic scenario.
func TestDeterministicOutputs(t *testing.T) {
	out := func(name string, sd uint64) [3][]byte {
		res, err := runner.Run(runner.Options{Scenario: name, Seed: seed(sd), RecordTasks: true})
		if err != nil {
			t.Fatal(err)
		}
		var jobs, tasks bytes.Buffer
		for _, r := range res.JobsCSV() {
			jobs.WriteString(strings.Join(r, ",") + "\n")
		}
		for _, r := range res.TasksCSV() {
			tasks.WriteString(strings.Join(r, ",") + "\n")
		}
		return [3][]byte{res.SummaryBytes(), jobs.Bytes(), tasks.Bytes()}
	}
	for _, name := range []string{"quick", "opera-spark", "dress-mr"} {
		a, b, c := out(name, 1), out(name, 1), out(name, 2)
		for i, what := range []string{"summary.json", "jobs.csv", "tasks.csv"} {
			if !bytes.Equal(a[i], b[i]) {
				t.Fatalf("%s: %s differs between two runs with the same seed", name, what)
			}
		}
		if bytes.Equal(a[0], c[0]) || bytes.Equal(a[2], c[2]) {
			t.Fatalf("%s: seeds 1 and 2 give the same results", name)
		}
	}
}

// TestDRESSFig1FCFS reproduces DRESS Sec. I, Fig. 1 under first-come-first-serve.
// Reference: DRESS Sec. I: makespan 40 s, waits 0, 9, 28, 27 s (mean 16 s).
func TestDRESSFig1FCFS(t *testing.T) {
	res, err := runner.Run(runner.Options{Scenario: "dress-fig1", Policy: "fifo"})
	if err != nil {
		t.Fatal(err)
	}
	j := res.JSON()
	if j.MakespanS != 40 || j.MeanWaitS != 16 {
		t.Fatalf("makespan %v s, mean wait %v s; want 40 and 16", j.MakespanS, j.MeanWaitS)
	}
	want := []sim.Ms{0, 9000, 28000, 27000}
	for i, jr := range res.Sim.JobResults() {
		if w := jr.StartMs - jr.SubmitMs; w != want[i] {
			t.Fatalf("job %d waited %d ms, want %d", i+1, w, want[i])
		}
	}
}

// TestAMShareLimitPreventsDeadlock: Fair without maxAMShare lets a burst of
// terasort AMs take every vCore and the jobs end stuck; with the default
// limit (0.5) every job completes.
// Reference: AutoAdmin Sec. 2.2 (AM deadlock); YARN FairScheduler maxAMShare.
func TestAMShareLimitPreventsDeadlock(t *testing.T) {
	off, err := runner.Run(runner.Options{Scenario: "terasort-burst", Sets: []string{"max_am_share=-1"}})
	if err != nil {
		t.Fatal(err)
	}
	if off.Summary.JobsStuck == 0 || !off.Summary.Stuck {
		t.Fatalf("without the AM limit: %+v; want stuck jobs", off.Summary)
	}
	on, err := runner.Run(runner.Options{Scenario: "terasort-burst"})
	if err != nil {
		t.Fatal(err)
	}
	if on.Summary.JobsStuck != 0 || on.Summary.JobsCompleted != len(on.Sim.Jobs) {
		t.Fatalf("with the AM limit: %+v; want all jobs completed", on.Summary)
	}
}

const good = `
name = "t"
seed = 1
[cluster]
[[cluster.nodes]]
count = 2
vcores = 8
mem_mb = 8192
[policy]
name = "fair"
[[workload.jobs]]
name = "j"
[[workload.jobs.stages]]
kind = "map"
tasks = 4
vcores = 1
mem_mb = 1024
duration_s = 10
`

// TestBadInput: every kind of bad input is refused with the file, the key
// and the reason.
func TestBadInput(t *testing.T) {
	cases := []struct {
		name    string
		edit    func(string) string
		sets    []string
		wantKey string
		wantWhy string
	}{
		{"unknown top key", func(s string) string { return s + "\nbogus = 1\n" }, nil, "bogus", "unknown key"},
		{"unknown nested key", func(s string) string { return strings.Replace(s, "count = 2", "count = 2\ncolour = \"red\"", 1) }, nil, "cluster.nodes.colour", "unknown key"},
		{"wrong type", func(s string) string { return strings.Replace(s, "vcores = 8", "vcores = \"eight\"", 1) }, nil, "vcores", "incompatible types"},
		{"syntax", func(s string) string { return s + "\n[[[\n" }, nil, "", "line"},
		{"negative duration", func(s string) string { return strings.Replace(s, "duration_s = 10", "duration_s = -3", 1) }, nil, "workload.jobs[0].stages[0].duration_s", "negative"},
		{"request larger than any node in memory", func(s string) string { return strings.Replace(s, "mem_mb = 1024", "mem_mb = 99999", 1) }, nil, "workload.jobs[0].stages[0].mem_mb", "larger than any node"},
		{"request larger than any node in vCores", func(s string) string {
			return strings.Replace(s, "vcores = 1\nmem_mb = 1024", "vcores = 99\nmem_mb = 1024", 1)
		}, nil, "workload.jobs[0].stages[0].vcores", "larger than any node"},
		{"unknown kind", func(s string) string { return strings.Replace(s, `kind = "map"`, `kind = "mapper"`, 1) }, nil, "workload.jobs[0].stages[0].kind", "not map"},
		{"unknown policy", func(s string) string { return strings.Replace(s, `name = "fair"`, `name = "fairest"`, 1) }, nil, "policy", "unknown policy"},
		{"bad param value", func(s string) string { return s + "\n[policy.params]\nmax_am_share = 7\n" }, nil, "policy.params.max_am_share", "outside"},
		{"unknown param", func(s string) string { return s + "\n[policy.params]\nrho = 0.9\n" }, nil, "policy.params.rho", "unknown parameter"},
		{"negative disk thrash exponent", func(s string) string { return s + "\n[model]\ndisk_thrash_exponent = -0.5\n" }, nil, "model.disk_thrash_exponent", "must not be negative"},
		{"negative disk thrash exponent by --set", nil, []string{"model.disk_thrash_exponent=-1"}, "model.disk_thrash_exponent", "must not be negative"},
		{"negative max running", func(s string) string {
			return strings.Replace(s, "duration_s = 10", "duration_s = 10\nmax_running = -2", 1)
		}, nil, "workload.jobs[0].stages[0].max_running", "negative"},
		{"negative queue limit", func(s string) string {
			return strings.Replace(s, `name = "fair"`, "name = \"fair\"\n[[policy.queues]]\nname = \"a\"\nmax_running_apps = -1", 1)
		}, nil, "policy.queues[0].max_running_apps", "negative"},
		{"no nodes", func(s string) string { return strings.Replace(s, "count = 2", "count = 0", 1) }, nil, "cluster.nodes[0].count", "at least 1"},
		{"unknown generator", func(s string) string { return s + "\n[workload]\ngenerator = \"nope\"\n" }, nil, "", ""},
		{"bad set value", nil, []string{"max_am_share=2"}, "max_am_share", "outside"},
		{"bad set key", nil, []string{"cluster.nodes.0.colour=1"}, "cluster.nodes.colour", "unknown key"},
		{"bad set index", nil, []string{"cluster.nodes.5.vcores=1"}, "cluster.nodes.5.vcores", "index"},
		{"set makes request too large", nil, []string{"cluster.nodes.0.vcores=0"}, "cluster.nodes[0].vcores", "at least 1"},
		{"malformed set", nil, []string{"novalue"}, "", "KEY=VALUE"},
		{"timeline below 1 ms", nil, []string{"run.timeline_s=0.0005"}, "run.timeline_s", "below the engine's resolution of 1 ms"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text := good
			if c.edit != nil {
				text = c.edit(good)
			}
			sc, err := scenario.Parse([]byte(text), "case.toml", ".", c.sets)
			if err == nil {
				// --set policy parameters are checked when the run is built
				// (against the policy that runs): still before anything runs.
				_, err = sc.Build(1, "")
			}
			if err == nil {
				t.Fatalf("accepted: %+v", sc.File)
			}
			msg := err.Error()
			if len(c.sets) == 0 && !strings.HasPrefix(msg, "case.toml") {
				t.Fatalf("error %q does not name the file", msg)
			}
			if !strings.Contains(msg, c.wantKey) || !strings.Contains(msg, c.wantWhy) {
				t.Fatalf("error %q: want key %q and reason %q", msg, c.wantKey, c.wantWhy)
			}
		})
	}
	if _, err := scenario.Parse([]byte(good), "good.toml", ".", nil); err != nil {
		t.Fatalf("the good scenario is refused: %v", err)
	}
}

// TestSetFollowsPolicyOverride: --set parameters belong to the policy that
// runs, which may differ from the file's.
func TestSetFollowsPolicyOverride(t *testing.T) {
	sc, err := scenario.Parse([]byte(good), "good.toml", ".", []string{"backfill=1"})
	if err != nil {
		t.Fatalf("a parameter of the overriding policy is refused at load: %v", err)
	}
	cfg, err := sc.Build(1, "fifo")
	if err != nil {
		t.Fatal(err)
	}
	if *cfg.Policy.Params.Get("backfill").Value != 1 {
		t.Fatal("backfill not set on fifo")
	}
	if _, err := sc.Build(1, ""); err == nil || !strings.Contains(err.Error(), "backfill") {
		t.Fatalf("fair has no backfill: want an error naming it, got %v", err)
	}
}

// TestSetOverridesFile: dotted --set keys patch the file; bare keys set
// policy parameters.
func TestSetOverridesFile(t *testing.T) {
	sc, err := scenario.Parse([]byte(good), "good.toml", ".", []string{"cluster.nodes.0.vcores=16", "workload.jobs.0.stages.0.tasks=9", "max_am_share=0.25"})
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := sc.Build(1, "")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Nodes[0].Cap.VCores != 16 || cfg.Jobs[0].Stages[0].NumTasks() != 9 || *cfg.Policy.Params.Get("max_am_share").Value != 0.25 {
		t.Fatalf("overrides not applied: %+v", cfg.Nodes[0])
	}
}

// TestSetTypeErrorNamesTheSet: a --set of the wrong type is blamed on that
// --set, with no line number: the line was one of a re-encoded document the
// user never wrote ("line 24" of a built-in before, issue 29).
func TestSetTypeErrorNamesTheSet(t *testing.T) {
	_, err := scenario.Load("quick", []string{"cluster.nodes.0.vcores=8", "workload.jobs.0.count=abc"})
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "--set workload.jobs.0.count=abc: workload.jobs.count: ") || strings.Contains(msg, "line") ||
		!strings.Contains(msg, "incompatible types") {
		t.Fatalf("error %q: want it to name the --set, the key and the reason, and no line", msg)
	}
}

// TestMaxRunningKey: a stage's max_running reaches the job spec (a Spark
// job with one container per task, at most its executor count at once).
func TestMaxRunningKey(t *testing.T) {
	text := strings.Replace(good, "duration_s = 10", "duration_s = 10\nmax_running = 3", 1)
	sc, err := scenario.Parse([]byte(text), "case.toml", ".", nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := sc.Build(1, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.Jobs[0].Stages[0].MaxRunning; got != 3 {
		t.Fatalf("max_running %d, want 3", got)
	}
	sc, err = scenario.Parse([]byte(good), "case.toml", ".", nil)
	if err != nil {
		t.Fatal(err)
	}
	if cfg, err = sc.Build(1, ""); err != nil || cfg.Jobs[0].Stages[0].MaxRunning != 0 {
		t.Fatalf("unset max_running: %v, err %v; want 0 (no cap)", cfg.Jobs[0].Stages[0].MaxRunning, err)
	}
}

// TestTraceReadOnce: a trace scenario reads its file when it is loaded, not
// on every Build: once loaded, it builds new seeds with the file gone, and a
// relative path is resolved against the scenario's folder exactly once.
func TestTraceReadOnce(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "t3")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	trace := "j1\t0\t0\t300000000\t1000\t10\nj2\t5\t5\t100\t0\t0\n"
	if err := os.WriteFile(filepath.Join(sub, "fb.tsv"), []byte(trace), 0o644); err != nil {
		t.Fatal(err)
	}
	toml := "name = \"t\"\n[cluster]\n[[cluster.nodes]]\ncount = 2\nvcores = 4\nmem_mb = 8192\n[policy]\nname = \"fair\"\n" +
		"[workload]\ngenerator = \"swim\"\n[workload.options]\npath = \"fb.tsv\"\n"
	if err := os.WriteFile(filepath.Join(sub, "fb.toml"), []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	sc, err := scenario.Load("t3/fb.toml", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(sub, "fb.tsv")); err != nil {
		t.Fatal(err)
	}
	for sd := uint64(1); sd <= 3; sd++ {
		cfg, err := sc.Build(sd, "")
		if err != nil {
			t.Fatalf("seed %d after the trace was removed: %v", sd, err)
		}
		if len(cfg.Jobs) != 2 || cfg.Jobs[0].Stages[0].NumTasks() != 3 {
			t.Fatalf("seed %d: %d jobs, want the trace's 2 (the first with 3 maps)", sd, len(cfg.Jobs))
		}
	}
}

// TestSyntaxErrorReason: a TOML syntax error names the file, the line, the
// column and the reason (toml v1.4.0 leaves ParseError.Message empty for
// most syntax errors: the reason must come from the error itself).
func TestSyntaxErrorReason(t *testing.T) {
	lines := strings.Count(good, "\n")
	cases := []struct{ text, want string }{
		{"description = \"a string\nthat breaks\"\n" + good,
			"case.toml: line 1, column 24: strings cannot contain newlines (after key description)"},
		{good + "[[[\n", fmt.Sprintf("case.toml: line %d, column 3: expected '.' or ']' to end table name, but got '[' instead (after key workload.jobs.stages)", lines+1)},
		{good + "[cluster\n", fmt.Sprintf("case.toml: line %d, column 9: expected '.' or ']' to end table name, but got '\\n' instead (after key workload.jobs.stages)", lines+1)},
		{"seed = 1\nseed = 2\n", "case.toml: line 2, column 1: Key 'seed' has already been defined."},
		{"0", "case.toml: line 1, column 1: unexpected EOF; expected key separator '='"},
		{"name = \"caf\u00e9\" x\n", "case.toml: line 1, column 14: expected a top-level item to end with a newline, comment, or EOF, but got 'x' instead"},
		{"seed = \"one\"\n", "case.toml: seed: line 1: incompatible types: TOML value has type string; destination has type integer"},
	}
	for _, c := range cases {
		_, err := scenario.Parse([]byte(c.text), "case.toml", ".", nil)
		if err == nil || err.Error() != c.want {
			t.Errorf("%q:\n got  %v\n want %s", c.text, err, c.want)
		}
	}
}

// TestJobCount: a [[workload.jobs]] group without count is one job, count =
// N is N jobs, and count = 0 is refused with its key (it ran one job, like
// count = 1).
func TestJobCount(t *testing.T) {
	jobs := func(text string, sets ...string) (int, error) {
		sc, err := scenario.Parse([]byte(text), "case.toml", ".", sets)
		if err != nil {
			return 0, err
		}
		cfg, err := sc.Build(1, "")
		return len(cfg.Jobs), err
	}
	withCount := func(n string) string { return strings.Replace(good, `name = "j"`, "name = \"j\"\ncount = "+n, 1) }
	for _, c := range []struct {
		text string
		want int
	}{{good, 1}, {withCount("1"), 1}, {withCount("3"), 3}} {
		if n, err := jobs(c.text); err != nil || n != c.want {
			t.Fatalf("%d jobs (err %v), want %d:\n%s", n, err, c.want, c.text)
		}
	}
	for _, c := range []struct {
		text string
		sets []string
		want string
	}{
		{withCount("0"), nil, "case.toml: workload.jobs[0].count: must be at least 1 (omit it for one job), got 0"},
		{withCount("-2"), nil, "case.toml: workload.jobs[0].count: must be at least 1 (omit it for one job), got -2"},
		{good, []string{"workload.jobs.0.count=0"}, "workload.jobs[0].count: must be at least 1 (omit it for one job), got 0"},
	} {
		if n, err := jobs(c.text, c.sets...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %d jobs, error %v; want %q", c.sets, n, err, c.want)
		}
	}
}

// TestSubmitJitter: submit_jitter_s delays each copy by a draw in [0,
// jitter) from the seed: the same seed gives the same times, another seed
// others, no copy leaves its window, and without the key the copies keep
// their exact times (no draw, so the durations drawn after are unchanged).
// A negative jitter is refused with its key.
func TestSubmitJitter(t *testing.T) {
	build := func(seed uint64, sets ...string) []sim.JobSpec {
		t.Helper()
		text := strings.Replace(good, `name = "j"`, "name = \"j\"\ncount = 20\ninterval_s = 100", 1)
		sc, err := scenario.Parse([]byte(text), "case.toml", ".", sets)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := sc.Build(seed, "")
		if err != nil {
			t.Fatal(err)
		}
		return cfg.Jobs
	}
	plain, a, b, c := build(1), build(1, "workload.jobs.0.submit_jitter_s=50"), build(1, "workload.jobs.0.submit_jitter_s=50"),
		build(2, "workload.jobs.0.submit_jitter_s=50")
	moved, differ := 0, 0
	for i := range plain {
		if plain[i].SubmitMs != sim.Ms(i*100_000) {
			t.Fatalf("no jitter: job %d at %d ms, want %d", i, plain[i].SubmitMs, i*100_000)
		}
		if d := a[i].SubmitMs - plain[i].SubmitMs; d < 0 || d >= 50_000 {
			t.Fatalf("job %d delayed %d ms, want [0, 50000)", i, d)
		}
		if a[i].SubmitMs != b[i].SubmitMs {
			t.Fatalf("job %d: %d then %d ms on the same seed", i, a[i].SubmitMs, b[i].SubmitMs)
		}
		if a[i].SubmitMs != plain[i].SubmitMs {
			moved++
		}
		if a[i].SubmitMs != c[i].SubmitMs {
			differ++
		}
	}
	if moved < 15 || differ < 15 {
		t.Fatalf("%d of 20 jobs moved, %d differ between seeds 1 and 2", moved, differ)
	}
	sc, err := scenario.Parse([]byte(good), "case.toml", ".", []string{"workload.jobs.0.submit_jitter_s=-1"})
	if err == nil {
		_, err = sc.Build(1, "")
	}
	if err == nil || !strings.Contains(err.Error(), "workload.jobs[0].submit_jitter_s: must not be negative") {
		t.Fatalf("negative jitter: %v", err)
	}
}

// TestErrorsNameTheRightThing: an error names the key that is wrong, blames
// a --set value on the --set, and an unknown name gets the nearest valid
// one and the valid ones.
func TestErrorsNameTheRightThing(t *testing.T) {
	withGen := good + "[workload]\ngenerator = \"autoadmin\"\n"
	cases := []struct {
		name string
		text string
		sets []string
		want string
	}{
		{"negative sigma", good, []string{"workload.jobs.0.stages.0.duration_sigma=-1"},
			"case.toml with --set workload.jobs.0.stages.0.duration_sigma=-1: workload.jobs[0].stages[0].duration_sigma: must not be negative, got -1"},
		{"negative sigma in the file", strings.Replace(good, "duration_s = 10", "duration_s = 10\nduration_sigma = -0.5", 1), nil,
			"case.toml: workload.jobs[0].stages[0].duration_sigma: must not be negative, got -0.5"},
		{"negative node count by --set", good, []string{"cluster.nodes.0.count=-3"},
			"case.toml with --set cluster.nodes.0.count=-3: cluster.nodes[0].count: must be at least 1, got -3"},
		{"unknown node key", good, []string{"cluster.nodes.0.vcore=3"},
			"case.toml with --set cluster.nodes.0.vcore=3: cluster.nodes.vcore: unknown key; did you mean vcores? " +
				"(cluster.nodes takes: name, count, vcores, mem_mb, cores, disk_mbps, net_mbps, speed, reduce_slots)"},
		{"unknown top key", "sed = 3\n" + good, nil,
			"case.toml: sed: unknown key; did you mean seed? (the file takes: name, description, paper, seed, cluster, model, policy, workload, run, controller)"},
		{"unknown stage key", strings.Replace(good, "duration_s = 10", "duraton_s = 10", 1), nil,
			"case.toml: workload.jobs.stages.duraton_s: unknown key; did you mean duration_s? (workload.jobs.stages takes: "},
		{"unknown key in two tables of an array", strings.Replace(good, "count = 2", "count = 2\ncolour = 1", 1) + "[[cluster.nodes]]\ncount = 1\nvcores = 1\nmem_mb = 1\ncolour = 2\n", nil,
			"case.toml: cluster.nodes.colour: unknown key (cluster.nodes takes: name, count, vcores, mem_mb, cores, disk_mbps, net_mbps, speed, reduce_slots)\n"},
		{"two unknown keys", good + "[run]\nmax = 3\nstal_s = 4\n", nil,
			"case.toml: run.max: unknown key; did you mean max_s? (run takes: max_s, stall_s, livelock_s, timeline_s, memory_limit_gb) (also unknown: run.stal_s)"},
		{"unknown generator option", withGen + "[workload.options]\njbs = 3\n", nil,
			"case.toml: workload.options.jbs: unknown key; did you mean jobs? (generator autoadmin's workload.options takes: "},
		{"unknown generator", good + "[workload]\ngenerator = \"operra\"\n", nil,
			`case.toml: workload.generator: unknown generator "operra"; did you mean opera? (known: `},
		{"unknown policy", strings.Replace(good, `name = "fair"`, `name = "fiar"`, 1), nil,
			`case.toml: policy: unknown policy "fiar"; did you mean fair? (known: `},
		{"unknown parameter in the file", good + "[policy.params]\nmax_am_shar = 0.3\n", nil,
			`case.toml: policy.params.max_am_shar: unknown parameter "max_am_shar"; did you mean max_am_share? (policy fair has: `},
		{"unknown parameter by --set", good, []string{"locality_dealy=1"},
			`--set: locality_dealy: unknown parameter "locality_dealy"; did you mean locality_delay? (policy fair has: `},
		{"unknown profile", strings.Replace(good, "duration_s = 10", "duration_s = 10\nprofile = \"mr-mapp\"", 1), nil,
			`case.toml: workload.jobs[0].stages[0].profile: unknown profile "mr-mapp"; did you mean mr-map? (known: `},
	}
	for _, c := range cases {
		sc, err := scenario.Parse([]byte(c.text), "case.toml", ".", c.sets)
		if err == nil {
			_, err = sc.Build(1, "")
		}
		if err == nil || !strings.HasPrefix(err.Error()+"\n", c.want) {
			t.Errorf("%s:\n got  %v\n want %s...", c.name, err, c.want)
		}
	}
	if _, err := scenario.Load("quik", nil); err == nil || !strings.Contains(err.Error(), "did you mean quick?") {
		t.Errorf("a misspelt built-in: %v", err)
	}
}
