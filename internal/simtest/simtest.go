// Package simtest is the one harness for tests that run the engine: a
// config or a scenario run with the conservation invariants
// (sim.CheckInvariants) checked after every event by default, the run's
// end asserted, and a watch function called after each event; as etcd's
// rafttest is for raft. Every test that runs the engine to its end uses it,
// the engine's own (package sim_test) included; the few in package sim,
// which cannot import it, check sim.CheckInvariants themselves.
package simtest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"yarngym/data"

	"yarngym/env/scenario"
	"yarngym/env/sim"
)

// Option changes how Run runs.
type Option func(*options)

type options struct {
	watch      []func(*sim.Sim)
	every      int
	endOnly    bool
	unfinished bool
	keep       bool
}

// Watch calls f after every event (after the invariants are checked).
func Watch(f func(*sim.Sim)) Option { return func(o *options) { o.watch = append(o.watch, f) } }

// Every checks the invariants after every k-th event only (k > 1: for runs
// too large to check at each of millions of events).
func Every(k int) Option { return func(o *options) { o.every = k } }

// EndOnly checks the invariants once, on the run's final state, instead of
// after events (sweeps over many runs, each also checked per event in
// another test).
func EndOnly() Option { return func(o *options) { o.endOnly = true } }

// KeepTasks keeps every job's tasks to the end of the run
// (sim.Config.KeepTasks), for a test that inspects Job.AM, Job.Stages or
// Sim.Tasks after their job has ended; by default the run releases them as
// it does outside tests.
func KeepTasks() Option { return func(o *options) { o.keep = true } }

// Unfinished accepts a run that ends with jobs not completed (stuck,
// truncated); by default every job must complete.
func Unfinished() Option { return func(o *options) { o.unfinished = true } }

// Invariants is an AfterEvent hook (sim.Config, runner.Options) that checks
// the invariants after every event, failing t at the first broken one, and
// then calls the watchers.
func Invariants(t testing.TB, watch ...func(*sim.Sim)) func(*sim.Sim) {
	return func(s *sim.Sim) {
		if err := sim.CheckInvariants(s); err != nil {
			t.Fatal(err)
		}
		for _, w := range watch {
			if w != nil {
				w(s)
			}
		}
	}
}

// Run builds cfg, runs it to its end with the invariants checked and the
// watchers called after every event, and fails t if an invariant breaks or
// (unless Unfinished) a job does not complete. It returns the finished
// simulator.
func Run(t testing.TB, cfg sim.Config, opts ...Option) *sim.Sim {
	t.Helper()
	var o options
	for _, f := range opts {
		f(&o)
	}
	cfg.KeepTasks = cfg.KeepTasks || o.keep
	events := 0
	prev := cfg.AfterEvent
	cfg.AfterEvent = func(s *sim.Sim) {
		events++
		if !o.endOnly && (o.every <= 1 || events%o.every == 0) {
			if err := sim.CheckInvariants(s); err != nil {
				t.Fatal(err)
			}
		}
		if prev != nil {
			prev(s)
		}
		for _, w := range o.watch {
			w(s)
		}
	}
	s, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	sum := s.Run()
	if err := sim.CheckInvariants(s); err != nil {
		t.Fatalf("at the end of the run: %v", err)
	}
	if !o.unfinished && sum.JobsCompleted != len(cfg.Jobs) {
		t.Fatalf("%d of %d jobs completed: %+v", sum.JobsCompleted, len(cfg.Jobs), sum)
	}
	return s
}

// Scenario loads a built-in scenario or a TOML file with sets, builds it
// for seed (under policy, "" for its own) and returns the config. The
// policies must be registered (a test imports _ "yarngym/policies", or a
// package that does).
func Scenario(t testing.TB, nameOrPath string, seed uint64, policy string, sets ...string) sim.Config {
	t.Helper()
	sc, err := scenario.Load(nameOrPath, sets)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := sc.Build(seed, policy)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// KilledJobHistory writes, into a fresh folder, a Rumen job history whose
// first job was killed before any attempt ran (the SLS sample's two jobs,
// the first emptied) and a scenario s.toml replaying it on 4 nodes under
// FIFO; it returns the scenario's path. Real histories hold such jobs.
func KilledJobHistory(t testing.TB) string {
	t.Helper()
	src, err := data.Open("${traces}/hadoop-sls/2jobs2min-rumen-jh.json")
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dec := json.NewDecoder(src)
	var jobs [2]map[string]any
	for i := range jobs {
		if err := dec.Decode(&jobs[i]); err != nil {
			t.Fatal(err)
		}
	}
	jobs[0]["outcome"], jobs[0]["mapTasks"], jobs[0]["reduceTasks"] = "KILLED", []any{}, []any{}
	var trace []byte
	for _, j := range jobs {
		b, err := json.Marshal(j)
		if err != nil {
			t.Fatal(err)
		}
		trace = append(append(trace, b...), '\n')
	}
	toml := "name = \"killed\"\n[[cluster.nodes]]\ncount = 4\nvcores = 8\nmem_mb = 16384\n[policy]\nname = \"fifo\"\n" +
		"[workload]\ngenerator = \"rumen\"\n[workload.options]\npath = \"history.json\"\n"
	dir := t.TempDir()
	for name, body := range map[string][]byte{"history.json": trace, "s.toml": []byte(toml)} {
		if err := os.WriteFile(filepath.Join(dir, name), body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "s.toml")
}
