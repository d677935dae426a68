package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"

	"yarngym/benchmarks/baselines"
	"yarngym/env"
	"yarngym/env/scenario"
	"yarngym/env/task"
	"yarngym/policies"
	"yarngym/policies/base"
)

// What yg_registry returns (YG_REG_*).
const (
	regTasks      = 0
	regBaselines  = 1
	regPolicies   = 2
	regScenarios  = 3
	regObjectives = 4
	regConfig     = 5
)

// taskJSON is a task as the registry lists it: the task, its gym id and
// objective, and its action space.
type taskJSON struct {
	task.Task
	GymID         string    `json:"gym_id"`
	Objective     string    `json:"objective"`
	ActionLow     []float64 `json:"action_low"`
	ActionHigh    []float64 `json:"action_high"`
	ActionInteger []bool    `json:"action_integer"`
	ObsDim        int       `json:"obs_dim"`
	// SplitEnvs is, for a task whose seed runs have workloads of their own
	// (Task.Splits), each split's environment (Python's env_kwargs(task,
	// split)); "env" is the train split's.
	SplitEnvs map[string]env.Config `json:"split_envs,omitempty"`
}

type paramJSON struct {
	Name    string  `json:"name"`
	Doc     string  `json:"doc"`
	Ref     string  `json:"ref"`
	Min     float64 `json:"min"`
	Max     float64 `json:"max"`
	Default float64 `json:"default"`
	Integer bool    `json:"integer"`
}

type stateJSON struct {
	Name string  `json:"name"`
	Doc  string  `json:"doc"`
	Min  float64 `json:"min"`
	Max  float64 `json:"max"`
	Per  string  `json:"per,omitempty"`
	Log  bool    `json:"log,omitempty"`
}

type policyJSON struct {
	Name   string      `json:"name"`
	Doc    string      `json:"doc"`
	Params []paramJSON `json:"params"`
	State  []stateJSON `json:"state"`
}

type scenarioJSON struct {
	Name        string `json:"name"`
	Paper       string `json:"paper"`
	Policy      string `json:"policy"`
	Description string `json:"description"`
}

// configFieldJSON is one field of env.Config as JSON carries it: its key
// and its Go type (Python's EnvConfig is checked against these).
type configFieldJSON struct {
	Key  string `json:"key"`
	Type string `json:"type"`
}

type objectiveJSON struct {
	Name      string `json:"name"`
	StallSafe bool   `json:"stall_safe"`
}

// registryJSON renders one of the Go registries as JSON: the one source of
// the task table, the policies' parameters and the rest for Python.
func registryJSON(what int) (string, error) {
	var v any
	switch what {
	case regTasks:
		var out []taskJSON
		for _, t := range task.All() {
			// Python's gym environments are built from "env" and reset, unless
			// told a seed, to train seeds: a task with splits lists its train
			// split's environment there, so that gym.make trains on the train
			// part of the family only. Evaluation on other seeds goes through
			// yg_evaluate, which picks each seed run's own split ("splits"
			// lists them).
			var splits map[string]env.Config
			if len(t.Splits) > 0 {
				splits = map[string]env.Config{}
				for _, name := range task.SplitNames() {
					splits[name] = t.EnvFor(name)
				}
			}
			t.Env = t.EnvFor(task.SplitTrain)
			e, err := env.New(t.Env)
			if err != nil {
				return "", err
			}
			lo, hi, integer := e.ActionBounds()
			out = append(out, taskJSON{Task: t, GymID: t.GymID(), Objective: t.Objective(), ActionLow: lo, ActionHigh: hi,
				ActionInteger: integer, ObsDim: e.ObsDim(), SplitEnvs: splits})
		}
		v = out
	case regBaselines:
		out := map[string]*task.Baselines{}
		for _, t := range task.All() {
			b, err := baselines.Load(t.ID)
			if errors.Is(err, baselines.ErrNone) {
				continue
			}
			if err != nil {
				return "", err
			}
			out[t.ID] = b
		}
		v = out
	case regPolicies:
		var out []policyJSON
		for _, in := range policies.All() {
			p, err := in.New(base.Spec{})
			if err != nil {
				return "", err
			}
			pj := policyJSON{Name: in.Name, Doc: in.Doc, Params: []paramJSON{}, State: []stateJSON{}}
			for _, q := range p.Params.List() {
				pj.Params = append(pj.Params, paramJSON{q.Name, q.Doc, q.Ref, q.Min, q.Max, q.Default, q.Integer})
			}
			for _, sv := range p.State {
				pj.State = append(pj.State, stateJSON{sv.Name, sv.Doc, sv.Min, sv.Max, sv.Per.String(), sv.Log})
			}
			out = append(out, pj)
		}
		v = out
	case regScenarios:
		var out []scenarioJSON
		for _, name := range scenario.Builtins() {
			f, err := scenario.Describe(name)
			if err != nil {
				return "", err
			}
			out = append(out, scenarioJSON{name, f.Paper, f.Policy.Name, f.Description})
		}
		v = out
	case regObjectives:
		var out []objectiveJSON
		for _, o := range env.Objectives() {
			safe, _ := env.StallSafe(o)
			out = append(out, objectiveJSON{o, safe})
		}
		v = out
	case regConfig:
		var out []configFieldJSON
		t := reflect.TypeFor[env.Config]()
		for i := range t.NumField() {
			f := t.Field(i)
			key, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if key == "" || key == "-" {
				continue
			}
			out = append(out, configFieldJSON{key, f.Type.String()})
		}
		v = out
	default:
		return "", invalidf("registry: unknown kind %d (known: 0 tasks, 1 baselines, 2 policies, 3 scenarios, 4 objectives, 5 config)", what)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return string(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))), nil
}
