// Package runner runs a scenario end to end and writes its results: a JSON
// summary, a per-job CSV and a per-task-attempt CSV. It is the I/O shell
// around the pure engine (env/sim), shared by the CLI and the benchmarks.
package runner

import (
	"fmt"
	"math"
	"sort"

	"yarngym/env/scenario"
	"yarngym/env/sim"
)

// Options selects what to run.
type Options struct {
	Scenario string   // built-in name or TOML path
	Sets     []string // --set overrides
	Policy   string   // overrides the scenario's policy when not empty
	Seed     *uint64  // nil: the scenario's seed
	// RecordTasks keeps per-attempt records (for tasks.csv).
	RecordTasks bool
	// TimelineS overrides the scenario's timeline sampling when > 0.
	TimelineS float64
	// AfterEvent is passed to the engine (tests check invariants with it).
	AfterEvent func(*sim.Sim)
}

// Result is a finished run.
type Result struct {
	Scenario string
	Policy   string
	Seed     uint64
	Sim      *sim.Sim
	Summary  sim.Summary
}

// Run loads, builds and runs a scenario. Errors from loading and building
// are *scenario.Error (bad input).
func Run(o Options) (*Result, error) {
	sc, err := scenario.Load(o.Scenario, o.Sets)
	if err != nil {
		return nil, err
	}
	return RunScenario(sc, o)
}

// RunScenario runs an already loaded scenario.
func RunScenario(sc *scenario.Scenario, o Options) (*Result, error) {
	seed := sc.File.Seed
	if o.Seed != nil {
		seed = *o.Seed
	}
	cfg, err := sc.Build(seed, o.Policy)
	if err != nil {
		return nil, err
	}
	cfg.RecordTasks = o.RecordTasks
	if o.TimelineS > 0 {
		cfg.TimelineMs = sim.Ms(o.TimelineS * 1000)
	}
	cfg.AfterEvent = o.AfterEvent
	s, err := sim.New(cfg)
	if err != nil {
		return nil, &scenario.Error{Source: sc.Origin(), Key: "workload", Reason: err.Error()}
	}
	sum := s.Run()
	return &Result{Scenario: sc.File.Name, Policy: cfg.Policy.Name, Seed: seed, Sim: s, Summary: sum}, nil
}

// SummaryJSON is the JSON summary of a run (field order is the output order).
type SummaryJSON struct {
	Scenario             string             `json:"scenario"`
	Policy               string             `json:"policy"`
	Seed                 uint64             `json:"seed"`
	MakespanS            float64            `json:"makespan_s"`
	MeanWaitS            float64            `json:"mean_wait_s"`
	MeanCompletionS      float64            `json:"mean_completion_s"`
	JobsCompleted        int                `json:"jobs_completed"`
	JobsStuck            int                `json:"jobs_stuck"`
	JobsUnfinished       int                `json:"jobs_unfinished"`
	StuckJobs            []string           `json:"stuck_jobs"`
	TasksKilled          int64              `json:"tasks_killed"`
	WastedWorkS          float64            `json:"wasted_work_s"`
	ReducersPreempted    int64              `json:"reducers_preempted"`
	OpportunisticStarted int64              `json:"opportunistic_started"`
	ReducersSuspended    int64              `json:"reducers_suspended"`
	VCoresReservedMean   float64            `json:"vcores_reserved_mean"`
	VCoresUsedMean       float64            `json:"vcores_used_mean"`
	MemMBReservedMean    float64            `json:"mem_mb_reserved_mean"`
	MemMBUsedMean        float64            `json:"mem_mb_used_mean"`
	SwapS                float64            `json:"swap_s"`
	Events               int64              `json:"events"`
	EndS                 float64            `json:"end_s"`
	Truncated            bool               `json:"truncated"`
	Params               map[string]float64 `json:"params"`
	PolicyState          map[string]float64 `json:"policy_state"`
}

// round keeps 6 decimals: enough for milliseconds and means, without float
// noise in the last digits of reports.
func round(x float64) float64 { return math.Round(x*1e6) / 1e6 }

func secs(ms sim.Ms) float64 { return float64(ms) / 1000 }

// JSON returns the run's summary record.
func (r *Result) JSON() SummaryJSON {
	s := r.Summary
	out := SummaryJSON{Scenario: r.Scenario, Policy: r.Policy, Seed: r.Seed,
		MakespanS: secs(s.MakespanMs), MeanWaitS: round(s.MeanWaitMs / 1000), MeanCompletionS: round(s.MeanCompletionMs / 1000),
		JobsCompleted: s.JobsCompleted, JobsStuck: s.JobsStuck, JobsUnfinished: s.JobsUnfinished, StuckJobs: []string{},
		TasksKilled: s.TasksKilled, WastedWorkS: secs(s.WastedMs), ReducersPreempted: r.Sim.Stats().ReducePreempted,
		OpportunisticStarted: s.OppLaunched, ReducersSuspended: s.Suspended,
		VCoresReservedMean: round(s.VCoresReservedMean), VCoresUsedMean: round(s.VCoresUsedMean),
		MemMBReservedMean: round(s.MemMBReservedMean), MemMBUsedMean: round(s.MemMBUsedMean),
		SwapS: secs(s.SwapMs), Events: s.Events, EndS: secs(s.EndMs), Truncated: s.Truncated,
		Params: map[string]float64{}, PolicyState: map[string]float64{}}
	for _, j := range r.Sim.Jobs {
		if j.State == sim.JobStuck {
			out.StuckJobs = append(out.StuckJobs, j.Spec.Name)
		}
	}
	pol := r.Sim.Policy()
	for _, p := range pol.Params.List() {
		out.Params[p.Name] = *p.Value
	}
	for _, v := range pol.State {
		out.PolicyState[v.Name] = round(v.Get())
	}
	return out
}

// JobsCSV returns the per-job table: a header and one row per job.
func (r *Result) JobsCSV() [][]string {
	rows := [][]string{{"job", "name", "app", "framework", "queue", "state", "submit_s", "admit_s", "start_s", "finish_s",
		"wait_s", "completion_s", "tasks", "goal_s", "goal_met"}}
	for _, j := range r.Sim.JobResults() {
		wait, comp, met := "", "", ""
		if j.State == sim.JobDone {
			wait = ff(secs(j.StartMs - j.SubmitMs))
			comp = ff(secs(j.FinishMs - j.SubmitMs))
			if j.GoalMs > 0 {
				met = fmt.Sprint(j.FinishMs-j.SubmitMs <= j.GoalMs)
			}
		}
		rows = append(rows, []string{fmt.Sprint(j.ID), j.Name, j.App, j.Framework, j.Queue, j.State.String(),
			ff(secs(j.SubmitMs)), optS(j.AdmitMs, j.State != sim.JobWaiting && j.State != sim.JobFuture), optS(j.StartMs, j.StartMs >= 0),
			optS(j.FinishMs, j.FinishMs >= 0), wait, comp, fmt.Sprint(j.Tasks), optS(j.GoalMs, j.GoalMs > 0), met})
	}
	return rows
}

// TasksCSV returns the per-attempt table (empty body unless RecordTasks).
func (r *Result) TasksCSV() [][]string {
	rows := [][]string{{"job", "kind", "stage", "index", "attempt", "node", "container", "locality", "start_s", "end_s", "outcome"}}
	recs := append([]sim.TaskRecord(nil), r.Sim.TaskRecords()...)
	sort.SliceStable(recs, func(a, b int) bool {
		x, y := recs[a], recs[b]
		if x.Job != y.Job {
			return x.Job < y.Job
		}
		if x.Stage != y.Stage {
			return x.Stage < y.Stage
		}
		if x.Index != y.Index {
			return x.Index < y.Index
		}
		return x.Attempt < y.Attempt
	})
	for _, t := range recs {
		rows = append(rows, []string{fmt.Sprint(t.Job), t.Kind.String(), fmt.Sprint(t.Stage), fmt.Sprint(t.Index), fmt.Sprint(t.Attempt),
			fmt.Sprint(t.Node), t.Container.String(), t.Locality.String(), ff(secs(t.StartMs)), ff(secs(t.EndMs)), t.Outcome.String()})
	}
	return rows
}

func ff(x float64) string { return fmt.Sprintf("%.3f", x) }

func optS(ms sim.Ms, ok bool) string {
	if !ok {
		return ""
	}
	return ff(secs(ms))
}
