package main

import (
	"encoding/json"
	"io"
	"strings"

	"yarngym/benchmarks/models"
	"yarngym/env/task"
	"yarngym/learn"
)

// evalConfig is yg_evaluate's JSON.
type evalConfig struct {
	Task    string    `json:"task"`
	Action  []float64 `json:"action"`
	Model   string    `json:"model"`
	Saved   string    `json:"saved"`
	Seeds   []uint64  `json:"seeds"`
	Workers int       `json:"workers"`
}

// evaluate plays a static action (or a trained model) of a task on the
// given seeds, one episode each, stepped side by side by env.Batch, and
// returns the episodes' returns in seed order.
func evaluate(js string) ([]float64, error) {
	var cfg evalConfig
	dec := json.NewDecoder(strings.NewReader(js))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cfg); err != nil {
		return nil, invalidf("evaluate json: %v (fields: task, action or model or saved, seeds, workers)", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, invalidf("evaluate json: unexpected data after the object")
	}
	t, err := task.Lookup(cfg.Task)
	if err != nil {
		return nil, invalidf("evaluate json: task: %v", err)
	}
	if len(cfg.Seeds) == 0 {
		return nil, invalidf("evaluate json: seeds: empty")
	}
	if cfg.Workers < 0 {
		return nil, invalidf("evaluate json: workers: %d, want 0 (all threads) or more", cfg.Workers)
	}
	var agent task.Agent
	given := 0
	for _, b := range []bool{cfg.Action != nil, cfg.Model != "", cfg.Saved != ""} {
		if b {
			given++
		}
	}
	switch {
	case given > 1:
		return nil, invalidf("evaluate json: give one of action, model and saved, not several")
	case cfg.Saved != "":
		m, err := models.Load(t.ID + "/" + cfg.Saved)
		if err != nil {
			return nil, invalidf("evaluate json: saved: %v", err)
		}
		agent = m.Agent()
	case cfg.Model != "":
		m, err := learn.LoadModel(cfg.Model)
		if err != nil {
			return nil, invalidf("evaluate json: model: %v", err)
		}
		if m.Task != t.ID {
			return nil, invalidf("evaluate json: model %s is for task %s, not %s", cfg.Model, m.Task, t.ID)
		}
		agent = m.Agent()
	case len(cfg.Action) != len(t.Env.Controlled):
		return nil, invalidf("evaluate json: action has %d values, task %s controls %d (%s)", len(cfg.Action), t.ID, len(t.Env.Controlled), strings.Join(t.Env.Controlled, ", "))
	default:
		agent = task.Static(cfg.Action)
	}
	// The seeds' split picks the workload (a task's train and test parts of a
	// family differ); seeds of several splits are refused.
	ecfg, err := t.EnvForSeeds(cfg.Seeds)
	if err != nil {
		return nil, invalidf("evaluate json: seeds: %v", err)
	}
	eps, err := task.Evaluate(ecfg, cfg.Seeds, agent, cfg.Workers)
	if err != nil {
		if detail, ok := envPanic(err); ok {
			return nil, panicErr(detail, 0)
		}
		return nil, err
	}
	return task.Returns(eps), nil
}
