// Package models holds trained controllers of the tuning tasks, committed
// so that suites, reports, notebooks and Python run them without training:
// TASK/ALGO/model.json (the model), curve.csv (its learning curve) and
// eval.json (its returns on the task's test seeds), as written by
//
//	yarngym learn all --algo grid,cmaes,ppo --seed 1 --out benchmarks/models
//
// (report.html and timing.json, also written there, are not kept). The
// files are embedded: a binary carries the models it was built with. The
// package's test replays every model on its test seeds and fails when the
// returns no longer match eval.json (the model changed under it): then
// rerun the command.
package models

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"yarngym/learn"
)

//go:embed */*/model.json */*/eval.json
var files embed.FS

// Keys lists the models as "TASK/ALGO", sorted.
func Keys() []string {
	var out []string
	_ = fs.WalkDir(files, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && path.Base(p) == "model.json" {
			out = append(out, path.Dir(p))
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// Load returns the model saved as key ("TASK/ALGO").
func Load(key string) (*learn.Model, error) {
	data, err := files.ReadFile(key + "/model.json")
	if err != nil {
		return nil, fmt.Errorf("no saved model %q (saved: %s)", key, strings.Join(Keys(), ", "))
	}
	var m learn.Model
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("model %s: %w", key, err)
	}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("model %s: %w", key, err)
	}
	return &m, nil
}

// Eval is a saved model's evaluation on its task's test seeds.
type Eval struct {
	Task      string    `json:"task"`
	Algo      string    `json:"algo"`
	TestSeeds []uint64  `json:"test_seeds"`
	Returns   []float64 `json:"returns"`
}

// LoadEval returns the saved evaluation of model key.
func LoadEval(key string) (*Eval, error) {
	data, err := files.ReadFile(key + "/eval.json")
	if err != nil {
		return nil, fmt.Errorf("no saved evaluation for %q", key)
	}
	var e Eval
	if err := json.Unmarshal(data, &e); err != nil {
		return nil, fmt.Errorf("model %s: eval.json: %w", key, err)
	}
	return &e, nil
}
