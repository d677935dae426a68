package policies_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"yarngym/env/scenario"
	"yarngym/env/sim"
	"yarngym/internal/simtest"
	"yarngym/policies/base"
)

// TestDataDriven runs the worked examples in testdata/scenarios: each file
// sets up a small scenario and runs it under a policy, and the expected
// job table or attempt log follows each command (go test -run
// TestDataDriven -rewrite rewrites them). Commands:
//
//	scenario            the input is a scenario's TOML
//	load name=N [set=(K=V, ...)]
//	                    a built-in scenario (or a .toml path) with overrides
//	run [policy=P] [seed=S] [set=(K=V, ...)]
//	                    runs it, invariants checked after every event; prints
//	                    each job (submission, start, finish, state) and a summary
//	tasks [job=J]       the last run's task attempts in the order they ended
//	params [policy=P]   a policy's parameters and their defaults
func TestDataDriven(t *testing.T) {
	datadriven.Walk(t, "testdata/scenarios", func(t *testing.T, path string) {
		var sc *scenario.Scenario
		var text, name string // the scenario: inline TOML, or a built-in / path
		var loadSets []string
		var last *sim.Sim
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			var sets []string
			if d.HasArg("set") {
				for _, a := range d.CmdArgs {
					if a.Key == "set" {
						sets = append(sets, a.Vals...)
					}
				}
			}
			var err error
			switch d.Cmd {
			case "scenario":
				text, name, loadSets = d.Input, "", nil
				sc, err = scenario.Parse([]byte(text), path, ".", nil)
			case "load":
				d.ScanArgs(t, "name", &name)
				text, loadSets = "", sets
				sc, err = scenario.Load(name, sets)
			case "run":
				if sc == nil {
					d.Fatalf(t, "run: no scenario yet (scenario or load first)")
				}
				run := sc
				if len(sets) > 0 { // this run's overrides, over the scenario's
					if text != "" {
						run, err = scenario.Parse([]byte(text), path, ".", sets)
					} else {
						run, err = scenario.Load(name, append(append([]string(nil), loadSets...), sets...))
					}
					if err != nil {
						return "error: " + err.Error()
					}
				}
				policy, seed := "", uint64(1)
				if d.HasArg("policy") {
					d.ScanArgs(t, "policy", &policy)
				}
				if d.HasArg("seed") {
					d.ScanArgs(t, "seed", &seed)
				}
				cfg, err := run.Build(seed, policy)
				if err != nil {
					return "error: " + err.Error()
				}
				cfg.RecordTasks = true
				last = simtest.Run(t, cfg, simtest.Unfinished())
				return jobTable(last)
			case "tasks":
				if last == nil {
					d.Fatalf(t, "tasks: no run yet")
				}
				job := -1
				if d.HasArg("job") {
					d.ScanArgs(t, "job", &job)
				}
				return attemptLog(last, job)
			case "params":
				policy := sc.File.Policy.Name
				if d.HasArg("policy") {
					d.ScanArgs(t, "policy", &policy)
				}
				p, err := base.NewPolicy(policy, sc.Spec())
				if err != nil {
					return "error: " + err.Error()
				}
				var b strings.Builder
				for _, q := range p.Params.List() {
					fmt.Fprintf(&b, "%s = %g (range %g to %g)\n", q.Name, q.Default, q.Min, q.Max)
				}
				return b.String()
			default:
				d.Fatalf(t, "unknown command %q", d.Cmd)
			}
			if err != nil {
				return "error: " + err.Error()
			}
			return "ok"
		})
	})
}

func secs(ms sim.Ms) string {
	if ms < 0 {
		return "-"
	}
	return fmt.Sprintf("%.3f", float64(ms)/1000)
}

// jobTable is each job's submission, start and finish (s) and state, and
// the run's summary.
func jobTable(s *sim.Sim) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-4s %-12s %-8s %9s %9s %9s %s\n", "job", "name", "queue", "submit", "start", "finish", "state")
	for _, j := range s.JobResults() {
		q := j.Queue
		if q == "" {
			q = base.DefaultQueue
		}
		finish := j.FinishMs
		if j.State != sim.JobDone {
			finish = -1
		}
		fmt.Fprintf(&b, "%-4d %-12s %-8s %9s %9s %9s %s\n", j.ID, j.Name, q, secs(j.SubmitMs), secs(j.StartMs), secs(finish), j.State)
	}
	sum := s.Summary()
	fmt.Fprintf(&b, "makespan %s s, mean completion %.3f s, %d completed, %d stuck, %d tasks killed\n",
		secs(sum.MakespanMs), sum.MeanCompletionMs/1000, sum.JobsCompleted, sum.JobsStuck, sum.TasksKilled)
	return b.String()
}

// attemptLog lists task attempts (of job, or all when job < 0) in the order
// they ended: job, kind and index, attempt, node, start and end (s), outcome.
func attemptLog(s *sim.Sim, job int) string {
	recs := append([]sim.TaskRecord(nil), s.TaskRecords()...)
	sort.SliceStable(recs, func(a, b int) bool { return recs[a].EndMs < recs[b].EndMs })
	var b strings.Builder
	for _, r := range recs {
		if job >= 0 && int(r.Job) != job {
			continue
		}
		fmt.Fprintf(&b, "job %d %s#%d attempt %d on node %d: %s-%s %s\n", r.Job, r.Kind, r.Index, r.Attempt, r.Node, secs(r.StartMs), secs(r.EndMs), r.Outcome)
	}
	return b.String()
}
