// Package runner runs a scenario end to end and writes its results: a JSON
// summary, a per-job CSV and a per-task-attempt CSV. It is the I/O shell
// around the pure engine (env/sim), shared by the CLI and the benchmarks.
package runner

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"time"

	"yarngym/env/scenario"
	"yarngym/env/sim"
	"yarngym/learn"
)

// Options selects what to run.
type Options struct {
	Scenario string   // built-in name or TOML path
	Sets     []string // --set overrides
	Policy   string   // overrides the scenario's policy when not empty
	Seed     *uint64  // nil: the scenario's seed
	// RecordTasks keeps per-attempt records (for tasks.csv).
	RecordTasks bool
	// KeepTasks keeps every job's tasks in Result.Sim after the run
	// (sim.Config.KeepTasks), for metrics read from them; by default a
	// job's tasks are released once it has ended.
	KeepTasks bool
	// TimelineS overrides the scenario's timeline sampling when > 0.
	TimelineS float64
	// AfterEvent is passed to the engine (tests check invariants with it).
	AfterEvent func(*sim.Sim)
	// EveryHeartbeat is passed to the engine (sim.Config.EveryHeartbeat).
	EveryHeartbeat bool
	// Controller is a trained model (model.json or its folder) that sets
	// the policy's parameters every control interval; it overrides the
	// scenario's [controller] model.
	Controller string
	// Model is a trained controller already loaded; it overrides Controller.
	Model *learn.Model
	// Warn, if set, is told the scenario's warnings as soon as they are
	// known (scenario.LoadOptions.Warn), before it is built.
	Warn func(msg string)
	// Progress, if set, is called during the run and once at its end. The
	// engine then runs in slices of simulated time (sim.RunUntil), paced by
	// the wall clock to about SliceWall each; the results are the same
	// bytes as without (TestProgressSameResults).
	Progress func(Progress)
	// SliceS fixes the slices' simulated length instead (tests).
	SliceS float64
}

// Progress is how far a run is.
type Progress struct {
	NowS     float64       // simulated time reached
	MaxS     float64       // run.max_s (0: none)
	JobsDone int           // jobs finished
	Jobs     int           // jobs in the run
	Events   int64         // events processed
	Wall     time.Duration // wall time since the engine started
	Done     bool          // the run has ended (the last call)
}

// SliceWall is the wall time a slice of the run aims at when Progress is
// set: the slice's simulated length doubles while slices take less than
// half of it and halves while they take more than twice it.
const SliceWall = 250 * time.Millisecond

// Result is a finished run.
type Result struct {
	Scenario string
	Policy   string
	Seed     uint64
	Sim      *sim.Sim
	Summary  sim.Summary
	// Warnings are what loading the scenario reported without stopping the
	// run (scenario.Scenario.Warnings: jobs of a trace skipped or replayed
	// in part, a large run's memory estimate).
	Warnings []string
}

// Run loads, builds and runs a scenario. Errors from loading and building
// are *scenario.Error (bad input).
func Run(o Options) (*Result, error) {
	sc, err := scenario.LoadWith(o.Scenario, o.Sets, scenario.LoadOptions{Warn: o.Warn})
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
	if m := o.Controller; o.Model != nil || m != "" || sc.ControllerModel() != "" {
		if m == "" {
			m = sc.ControllerModel()
		}
		return runControlled(sc, o, o.Model, m, seed)
	}
	cfg, err := sc.Build(seed, o.Policy)
	if err != nil {
		return nil, err
	}
	cfg.RecordTasks = o.RecordTasks
	cfg.KeepTasks = o.KeepTasks
	if o.TimelineS > 0 {
		cfg.TimelineMs = sim.Ms(o.TimelineS * 1000)
	}
	cfg.AfterEvent = o.AfterEvent
	cfg.EveryHeartbeat = o.EveryHeartbeat
	s, err := sim.New(cfg)
	if err != nil {
		return nil, &scenario.Error{Source: sc.Origin(), Key: "workload", Reason: err.Error()}
	}
	var sum sim.Summary
	if o.Progress == nil {
		sum = s.Run()
	} else {
		sum = runSliced(s, cfg, o)
	}
	return &Result{Scenario: sc.File.Name, Policy: cfg.Policy.Name, Seed: seed, Sim: s, Summary: sum, Warnings: sc.Warnings}, nil
}

// runSliced runs s to its end in slices of simulated time, telling
// o.Progress after each. Only the pace of the calls depends on the wall
// clock: RunUntil's slices end between events, so the run processes the
// same events in the same order as s.Run.
func runSliced(s *sim.Sim, cfg sim.Config, o Options) sim.Summary {
	start := time.Now()
	slice := sim.Ms(sim.MsPerS) // 1 simulated second to begin with
	if o.SliceS > 0 {
		slice = max(sim.Ms(o.SliceS*1000), 1)
	}
	report := func(done bool) {
		n := 0
		for _, j := range s.Jobs {
			if j.State == sim.JobDone {
				n++
			}
		}
		o.Progress(Progress{NowS: secs(s.Now()), MaxS: secs(cfg.MaxMs), JobsDone: n, Jobs: len(s.Jobs),
			Events: s.Stats().Events, Wall: time.Since(start), Done: done})
	}
	for {
		t0 := time.Now()
		until := s.Now() + slice
		switch {
		case until < s.Now(): // overflow: run to the end
			until = math.MaxInt64
		case cfg.MaxMs > 0 && s.Now() >= cfg.MaxMs:
			// Only events at max_s are left before the run is truncated:
			// a slice past it would leave the clock after max_s for a call.
			until = math.MaxInt64
		case cfg.MaxMs > 0 && until > cfg.MaxMs:
			until = cfg.MaxMs
		}
		if s.RunUntil(until) {
			break
		}
		if o.SliceS <= 0 {
			switch took := time.Since(t0); {
			case took < SliceWall/2 && slice < math.MaxInt64/4:
				slice *= 2
			case took > 2*SliceWall && slice > 1:
				slice /= 2
			}
		}
		report(false)
	}
	report(true)
	return s.Summary()
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
	StuckReason          string             `json:"stuck_reason,omitempty"` // a stall or a livelock (sim.Summary.StuckReason)
	Tasks                int                `json:"tasks"`                  // tasks of the jobs, AMs not counted
	TasksFinished        int64              `json:"tasks_finished"`         // of Tasks, finished by the end
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
	Warnings             []string           `json:"warnings,omitempty"` // Result.Warnings
	Params               map[string]float64 `json:"params"`
	PolicyState          map[string]float64 `json:"policy_state"`
}

// Marshal is the run's summary as JSON: the makespan and the mean wait and
// completion are null when no job finished (undefined then, not 0:
// jobs_stuck and stuck_reason say why). indent "" writes it compact. (Not a
// MarshalJSON method: the bench suites embed SummaryJSON in their records.)
func (s SummaryJSON) Marshal(indent string) []byte {
	var b []byte
	if indent == "" {
		b, _ = json.Marshal(s) // plain structs and maps: cannot fail
	} else {
		b, _ = json.MarshalIndent(s, "", indent)
	}
	if s.JobsCompleted > 0 {
		return b
	}
	return undefinedTimes.ReplaceAll(b, []byte(`"makespan_s":${1}null,${2}"mean_wait_s":${3}null,${4}"mean_completion_s":${5}null,`))
}

var undefinedTimes = regexp.MustCompile(`"makespan_s":(\s*)[^,]*,(\s*)"mean_wait_s":(\s*)[^,]*,(\s*)"mean_completion_s":(\s*)[^,]*,`)

// round keeps 6 decimals: enough for milliseconds and means, without float
// noise in the last digits of reports.
func round(x float64) float64 { return math.Round(x*1e6) / 1e6 }

func secs(ms sim.Ms) float64 { return float64(ms) / 1000 }

// JSON returns the run's summary record.
func (r *Result) JSON() SummaryJSON {
	s := r.Summary
	out := SummaryJSON{Scenario: r.Scenario, Policy: r.Policy, Seed: r.Seed,
		MakespanS: secs(s.MakespanMs), MeanWaitS: round(s.MeanWaitMs / 1000), MeanCompletionS: round(s.MeanCompletionMs / 1000),
		JobsCompleted: s.JobsCompleted, JobsStuck: s.JobsStuck, JobsUnfinished: s.JobsUnfinished, StuckJobs: []string{}, StuckReason: s.StuckReason,
		TasksKilled: s.TasksKilled, WastedWorkS: secs(s.WastedMs), ReducersPreempted: r.Sim.Stats().ReducePreempted,
		OpportunisticStarted: s.OppLaunched, ReducersSuspended: s.Suspended,
		VCoresReservedMean: round(s.VCoresReservedMean), VCoresUsedMean: round(s.VCoresUsedMean),
		MemMBReservedMean: round(s.MemMBReservedMean), MemMBUsedMean: round(s.MemMBUsedMean),
		SwapS: secs(s.SwapMs), Events: s.Events, EndS: secs(s.EndMs), Truncated: s.Truncated, Warnings: r.Warnings,
		Params: map[string]float64{}, PolicyState: map[string]float64{}}
	for _, j := range r.Sim.Jobs {
		if j.State == sim.JobStuck {
			out.StuckJobs = append(out.StuckJobs, j.Spec.Name)
		}
		out.Tasks += j.Spec.TaskCount() // its tasks may be released, or not built (truncated)
	}
	out.TasksFinished = r.Sim.Stats().TasksDone
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

// SortedTaskRecords returns the run's task attempts ordered by job, stage,
// index and attempt (a copy): the order of tasks.csv.
func (r *Result) SortedTaskRecords() []sim.TaskRecord {
	recs := r.Sim.TaskRecords()
	out := make([]sim.TaskRecord, len(recs))
	for i, k := range r.recordOrder() {
		out[i] = recs[k]
	}
	return out
}

// recordOrder returns the indexes of the run's task records in
// SortedTaskRecords' order: tasks.csv is written through it rather than
// through a sorted copy of millions of records.
func (r *Result) recordOrder() []int32 {
	recs := r.Sim.TaskRecords()
	order := make([]int32, len(recs))
	for i := range order {
		order[i] = int32(i)
	}
	sort.SliceStable(order, func(a, b int) bool {
		x, y := &recs[order[a]], &recs[order[b]]
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
	return order
}

// TasksCSV returns the per-attempt table (empty body unless RecordTasks).
func (r *Result) TasksCSV() [][]string {
	var rows [][]string
	r.taskRows(func(row []string) { rows = append(rows, slices.Clone(row)) })
	return rows
}

// taskRows calls f with the rows of the per-attempt table in order, the
// header first, reusing one row: a run writes millions (3.35M in
// scale-50k), which as a table of strings would take gigabytes.
func (r *Result) taskRows(f func(row []string)) {
	f([]string{"job", "kind", "stage", "index", "attempt", "node", "container", "locality", "start_s", "end_s", "outcome"})
	row := make([]string, 11)
	recs := r.Sim.TaskRecords()
	for _, k := range r.recordOrder() {
		t := &recs[k]
		row[0], row[1], row[2], row[3] = strconv.Itoa(int(t.Job)), t.Kind.String(), strconv.Itoa(t.Stage), strconv.Itoa(t.Index)
		row[4], row[5], row[6], row[7] = strconv.Itoa(int(t.Attempt)), strconv.Itoa(int(t.Node)), t.Container.String(), t.Locality.String()
		row[8], row[9], row[10] = ff(secs(t.StartMs)), ff(secs(t.EndMs)), t.Outcome.String()
		f(row)
	}
}

func ff(x float64) string { return fmt.Sprintf("%.3f", x) }

func optS(ms sim.Ms, ok bool) string {
	if !ok {
		return ""
	}
	return ff(secs(ms))
}
