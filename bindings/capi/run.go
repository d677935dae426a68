package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"sync/atomic"

	"yarngym/env/sim"
	"yarngym/runner"
)

// What yg_run_string returns (YG_RUN_*).
const (
	runSummary    = 0
	runJobStrings = 1
	runEnums      = 2
	runStateNames = 3
)

// runConfig is yg_run_new's JSON: what `yarngym run` takes.
type runConfig struct {
	Scenario    string   `json:"scenario"`
	Sets        []string `json:"sets"`
	Policy      string   `json:"policy"`
	Seed        *uint64  `json:"seed"`
	Controller  string   `json:"controller"`
	RecordTasks *bool    `json:"record_tasks"`
	TimelineS   float64  `json:"timeline_s"`
}

// finishedRun is what a run handle refers to: the result and its records
// sorted as yarngym run writes them.
type finishedRun struct {
	res    *runner.Result
	jobs   []sim.JobResult
	tasks  []sim.TaskRecord
	poison string // the panic that made the handle unusable ("": none; see panics.go)
}

var runs = map[int64]*finishedRun{} // guarded by handles

// runHook, set only by the test hooks of a yarngym_debug build
// (debughook.go), gives every later run an engine callback
// (sim.Config.AfterEvent); nil otherwise.
var runHook atomic.Pointer[func() func(*sim.Sim)]

// minTimelineS is the shortest timeline interval: the engine's clock counts
// whole milliseconds.
const minTimelineS = 0.001

func parseRunConfig(js string) (runConfig, error) {
	var cfg runConfig
	if strings.TrimSpace(js) == "" {
		return cfg, invalidf(`run json: empty; want an object such as {"scenario": "quick", "seed": 1}`)
	}
	dec := json.NewDecoder(strings.NewReader(js))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cfg); err != nil {
		return cfg, invalidf("run json: %v (fields: scenario, sets, policy, seed, controller, record_tasks, timeline_s)", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return cfg, invalidf("run json: unexpected data after the object")
	}
	if strings.TrimSpace(cfg.Scenario) == "" {
		return cfg, invalidf("run json: scenario: empty; give a built-in name (e.g. quick) or a .toml path")
	}
	if cfg.TimelineS < 0 || math.IsNaN(cfg.TimelineS) || math.IsInf(cfg.TimelineS, 0) {
		return cfg, invalidf("run json: timeline_s: %v, want 0 (the scenario's) or at least 0.001", cfg.TimelineS)
	}
	if cfg.TimelineS > 0 && cfg.TimelineS < minTimelineS {
		return cfg, invalidf("run json: timeline_s: %v s is below the engine's resolution of 1 ms (it would sample nothing); want 0 (the scenario's) or at least 0.001", cfg.TimelineS)
	}
	return cfg, nil
}

// newRun runs a scenario to its end, as `yarngym run` does, and registers
// the result under a new handle.
func newRun(js string) (int64, error) {
	cfg, err := parseRunConfig(js)
	if err != nil {
		return 0, err
	}
	rec := cfg.RecordTasks == nil || *cfg.RecordTasks
	var after func(*sim.Sim)
	if f := runHook.Load(); f != nil {
		after = (*f)()
	}
	res, err := runner.Run(runner.Options{Scenario: cfg.Scenario, Sets: cfg.Sets, Policy: cfg.Policy, Seed: cfg.Seed,
		RecordTasks: rec, TimelineS: cfg.TimelineS, Controller: cfg.Controller, AfterEvent: after})
	if err != nil {
		return 0, invalidf("%v", err)
	}
	r := &finishedRun{res: res, jobs: res.Sim.JobResults(), tasks: res.SortedTaskRecords()}
	handles.Lock()
	defer handles.Unlock()
	handles.last++
	runs[handles.last] = r
	return handles.last, nil
}

func lookupRun(id int64) (*finishedRun, error) {
	handles.Lock()
	defer handles.Unlock()
	r := runs[id]
	if r == nil {
		return nil, &statusError{statusHandle, fmt.Sprintf("run handle %d: unknown or already freed", id)}
	}
	if r.poison != "" {
		return nil, poisonedErr(id, r.poison)
	}
	return r, nil
}

func freeRun(id int64) {
	handles.Lock()
	defer handles.Unlock()
	delete(runs, id)
}

// str returns a text property of the run (see yg_run_string).
func (r *finishedRun) str(what int) (string, error) {
	var v any
	switch what {
	case runSummary:
		return string(r.res.SummaryBytes()), nil
	case runJobStrings:
		cols := map[string][]string{"name": {}, "app": {}, "framework": {}, "queue": {}}
		for _, j := range r.jobs {
			cols["name"] = append(cols["name"], j.Name)
			cols["app"] = append(cols["app"], j.App)
			cols["framework"] = append(cols["framework"], j.Framework)
			cols["queue"] = append(cols["queue"], j.Queue)
		}
		v = cols
	case runEnums:
		v = map[string][]string{
			"state":     enumNames(func(i int) string { return sim.JobState(i).String() }, int(sim.JobUnfinished)+1),
			"kind":      enumNames(func(i int) string { return sim.TaskKind(i).String() }, int(sim.KindGeneric)+1),
			"container": enumNames(func(i int) string { return sim.ContainerKind(i).String() }, int(sim.Opportunistic)+1),
			"locality":  enumNames(func(i int) string { return sim.Locality(i).String() }, int(sim.OffRack)+1),
			"outcome":   enumNames(func(i int) string { return sim.Outcome(i).String() }, int(sim.Killed)+1),
		}
	case runStateNames:
		names := []string{}
		for _, sv := range r.res.Sim.Policy().State {
			names = append(names, sv.Name)
		}
		v = names
	default:
		return "", invalidf("run string: unknown kind %d (known: 0 summary, 1 job strings, 2 enums, 3 state names)", what)
	}
	b, err := json.Marshal(v)
	return string(b), err
}

func enumNames(name func(int) string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = name(i)
	}
	return out
}

// secsOr converts ms to seconds, or NaN where the job never got there.
func secsOr(ms sim.Ms, ok bool) float64 {
	if !ok {
		return math.NaN()
	}
	return float64(ms) / 1000
}
