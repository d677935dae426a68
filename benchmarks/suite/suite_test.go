package suite

import (
	"bytes"
	"encoding/json"
	"flag"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"yarngym/env/scenario"
)

var update = flag.Bool("update", false, "rewrite testdata/quick.golden.json from this run")

func quick(t *testing.T, parallel int) *Results {
	t.Helper()
	s, ok := Lookup("quick")
	if !ok {
		t.Fatal("no quick suite")
	}
	res, err := Run(s, Options{Seeds: 3, Parallel: parallel})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestQuickGolden pins the quick suite's JSON summary. When the model
// changes on purpose, regenerate it with: go test ./benchmarks/suite -update
func TestQuickGolden(t *testing.T) {
	got, err := SummaryJSON(quick(t, 2))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "quick.golden.json")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", path)
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (create it with: go test ./benchmarks/suite -update)", err)
	}
	if !bytes.Equal(got, want) {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		for i := 0; i < max(len(gl), len(wl)); i++ {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Fatalf("summary.json differs from %s at line %d:\n got: %s\nwant: %s\n"+
					"if the change is intended, regenerate with: go test ./benchmarks/suite -update", path, i+1, g, w)
			}
		}
	}
}

// The quick suite's content, independent of the golden file: every pair ran
// on every seed, in suite order, with timelines and job rows.
func TestQuickShape(t *testing.T) {
	res := quick(t, 3)
	if len(res.Skipped) != 0 {
		t.Fatalf("quick skipped %v", res.Skipped)
	}
	if len(res.Runs) != 2*3*3 || len(res.Aggregates) != 2*3 {
		t.Fatalf("%d runs, %d aggregates; want 18, 6", len(res.Runs), len(res.Aggregates))
	}
	order := []string{"fifo", "fair", "capacity"}
	for i, r := range res.Runs {
		wantSc := []string{"quick", "dress-fig1"}[i/9]
		if r.Scenario != wantSc || r.Variant != order[(i/3)%3] || r.Seed != uint64(i%3+1) {
			t.Fatalf("run %d is %s/%s/%d", i, r.Scenario, r.Variant, r.Seed)
		}
		if len(r.Timeline) < 10 || len(r.Jobs) != 4 || r.JobsCompleted != 4 {
			t.Fatalf("run %d: %d samples, %d job rows, %d completed", i, len(r.Timeline), len(r.Jobs), r.JobsCompleted)
		}
		for _, p := range r.Timeline {
			if len(p.State) != len(r.StateVars) {
				t.Fatalf("run %d: %d state values for %d vars", i, len(p.State), len(r.StateVars))
			}
		}
	}
	// DRESS Sec. I, Fig. 1 under FIFO: makespan 40 s (Reference: DRESS Fig. 1).
	if a := res.Find("dress-fig1", "fifo"); a == nil || a.Metrics["makespan_s"].Mean != 40 {
		t.Fatalf("dress-fig1 fifo makespan %+v, want 40", a)
	}
}

// Results do not depend on how many runs execute at once.
func TestParallelIndependent(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	if err := Write(a, quick(t, 1)); err != nil {
		t.Fatal(err)
	}
	if err := Write(b, quick(t, 4)); err != nil {
		t.Fatal(err)
	}
	sameFiles(t, a, b)
}

// Load reads back exactly what Write wrote.
func TestWriteLoadRoundTrip(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	if err := Write(a, quick(t, 2)); err != nil {
		t.Fatal(err)
	}
	res, err := Load(a)
	if err != nil {
		t.Fatal(err)
	}
	if err := Write(b, res); err != nil {
		t.Fatal(err)
	}
	sameFiles(t, a, b)
	if len(res.Runs[0].Timeline) == 0 || len(res.Runs[3].Timeline[0].State) != 1 {
		t.Fatalf("timeline or state not loaded: %+v", res.Runs[3].Timeline[:1])
	}
}

func sameFiles(t *testing.T, a, b string) {
	t.Helper()
	for _, f := range []string{SummaryFile, RunsFile, JobsFile, TimelineFile, StateFile} {
		x, err1 := os.ReadFile(filepath.Join(a, f))
		y, err2 := os.ReadFile(filepath.Join(b, f))
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if !bytes.Equal(x, y) {
			t.Fatalf("%s differs (%d vs %d bytes)", f, len(x), len(y))
		}
	}
}

// A pair whose policy or scenario is not there (yet) is skipped with a
// reason, and the rest still run.
func TestResolveSkips(t *testing.T) {
	s := Suite{Name: "t", Pairs: []Pair{{Scenario: "dress-fig1", Policy: "fifo"}, {Scenario: "dress-fig1", Policy: "no-such-policy"},
		{Scenario: "no-such-scenario", Policy: "fifo"}}, Papers: []string{"no-such-paper"}}
	res, err := Run(s, Options{Seeds: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Runs) != 1 || res.Runs[0].Policy != "fifo" {
		t.Fatalf("runs %+v", res.Runs)
	}
	want := []string{`policy "no-such-policy" is not registered`, `scenario "no-such-scenario" is neither a built-in`, "no reproduction registered"}
	if len(res.Skipped) != len(want) {
		t.Fatalf("skipped %+v", res.Skipped)
	}
	for i, w := range want {
		if !strings.Contains(res.Skipped[i].Reason, w) {
			t.Errorf("skip %d: %q does not say %q", i, res.Skipped[i].Reason, w)
		}
	}
}

// Every suite names built-in scenarios, and paper suites name their paper.
func TestSuitesWellFormed(t *testing.T) {
	builtin := map[string]bool{}
	for _, n := range scenario.Builtins() {
		builtin[n] = true
	}
	seen := map[string]bool{}
	for _, s := range All() {
		if seen[s.Name] || len(s.Pairs) == 0 || s.Doc == "" {
			t.Errorf("suite %q: duplicate, empty or undocumented", s.Name)
		}
		seen[s.Name] = true
		for _, p := range s.Pairs {
			if !builtin[p.Scenario] {
				t.Errorf("suite %s: scenario %q is not built in", s.Name, p.Scenario)
			}
		}
	}
	for _, n := range []string{"quick", "papers", "opera", "dress", "autoadmin", "ikayak", "ras"} {
		if !seen[n] {
			t.Errorf("no suite %q", n)
		}
	}
}

func TestKeep(t *testing.T) {
	for _, c := range []struct {
		n, max int
		want   []int
	}{
		{0, 5, nil},
		{3, 5, []int{0, 1, 2}},
		{5, 5, []int{0, 1, 2, 3, 4}},
		{6, 5, []int{0, 2, 4, 5}},
		{10, 3, []int{0, 4, 8, 9}},
		{9, 3, []int{0, 3, 6, 8}},
	} {
		if got := keep(c.n, c.max); !reflect.DeepEqual(got, c.want) {
			t.Errorf("keep(%d, %d) = %v, want %v", c.n, c.max, got, c.want)
		}
	}
}

func TestNumJSON(t *testing.T) {
	b, err := json.Marshal([]Num{1.5, Num(math.NaN()), Num(math.Inf(1)), 0.1234567})
	if err != nil || string(b) != "[1.5,null,null,0.123457]" {
		t.Fatalf("%s %v", b, err)
	}
	var back []Num
	if err := json.Unmarshal(b, &back); err != nil || back[0] != 1.5 || !math.IsNaN(float64(back[1])) {
		t.Fatalf("%v %v", back, err)
	}
}

func TestAggregate(t *testing.T) {
	mk := func(seed uint64, jct float64) Record {
		r := Record{Variant: "v"}
		r.Scenario, r.Policy, r.Seed, r.MeanCompletionS = "s", "p", seed, jct
		return r
	}
	ag := AggregateRuns([]Record{mk(1, 10), mk(2, 20), mk(3, 30)})
	if len(ag) != 1 || ag[0].Seeds != 3 {
		t.Fatalf("%+v", ag)
	}
	if st := ag[0].Metrics["mean_completion_s"]; st.Mean != 20 || st.SD != 10 {
		t.Fatalf("mean_completion_s %+v, want 20 ± 10", st)
	}
}

// TestProgressCountsFinished: with runs in parallel, progress lines come in
// finishing order, and the counter counts finished runs: 1, 2, ... total,
// each run told once.
func TestProgressCountsFinished(t *testing.T) {
	s, _ := Lookup("quick")
	var dones []int
	seen := map[string]bool{}
	total := -1
	res, err := Run(s, Options{Seeds: 3, Parallel: 4, Progress: func(done, tot int, what string) {
		dones = append(dones, done)
		if total >= 0 && tot != total {
			t.Errorf("total changed from %d to %d", total, tot)
		}
		total = tot
		if seen[what] {
			t.Errorf("%q told twice", what)
		}
		seen[what] = true
	}})
	if err != nil {
		t.Fatal(err)
	}
	if total != len(res.Runs) || len(dones) != total {
		t.Fatalf("%d progress calls of total %d for %d runs", len(dones), total, len(res.Runs))
	}
	for i, d := range dones {
		if d != i+1 {
			t.Fatalf("progress counters %v: want 1, 2, ... %d", dones, total)
		}
	}
}

// TestLearnedSuite: the learned suite runs each committed PPO controller
// beside its task's policy, labelled "POLICY + ppo", and the controller's
// runs differ from the paper defaults' (events, mean completion or
// makespan).
func TestLearnedSuite(t *testing.T) {
	s, ok := Lookup("learned")
	if !ok {
		t.Fatal("no learned suite")
	}
	if len(s.Pairs) < 8 || len(s.Pairs)%2 != 0 {
		t.Fatalf("%d pairs", len(s.Pairs))
	}
	res, err := Run(s, Options{Seeds: 1, Parallel: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Skipped) != 0 {
		t.Fatalf("skipped: %+v", res.Skipped)
	}
	for i := 0; i < len(s.Pairs); i += 2 {
		base, ctl := res.Runs[i], res.Runs[i+1]
		if ctl.Variant != base.Variant+" + ppo" || ctl.Policy != base.Policy+" + ppo" {
			t.Errorf("pair %d: variants %q and %q, policies %q and %q", i, base.Variant, ctl.Variant, base.Policy, ctl.Policy)
		}
		// The event count alone can match by chance (dress-spark, seed 1:
		// 22,907 events each, mean completion 517.4 s against 491.6 s).
		if ctl.Events == base.Events && ctl.MeanCompletionS == base.MeanCompletionS && ctl.MakespanS == base.MakespanS {
			t.Errorf("%s on %s: the controller changed nothing", ctl.Variant, ctl.Scenario)
		}
	}
}
