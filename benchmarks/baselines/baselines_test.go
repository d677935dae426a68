package baselines

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"yarngym/env/task"
)

// TestSavedTables: every registered task has a saved table for its current
// definition (test seeds, parameters), its grid responds (a spread of at
// least 3 standard errors on the test seeds and again on held-out seeds,
// over settings that do not stall) or, for a control task, does not (a
// model change that makes it respond fails here: the task is then a real
// one), and its paper-default row is what the model gives today on the
// test split's workload (EnvFor), bit for bit: a model change that moves
// the numbers fails here until the tables are rewritten (`yarngym baselines all --write
// benchmarks/baselines`).
func TestSavedTables(t *testing.T) {
	for _, tk := range task.All() {
		b, err := Load(tk.ID)
		if err != nil {
			t.Error(err)
			continue
		}
		if b.Task != tk.ID || !slices.Equal(b.Seeds, tk.Test.List()) || !slices.Equal(b.Params, tk.Env.Controlled) ||
			!slices.Equal(b.Default.Action, tk.Default) || b.Objective != tk.Objective() {
			t.Errorf("%s: the saved table is for another definition (task %s, seeds %v, params %v, default %v, objective %s)",
				tk.ID, b.Task, b.Seeds, b.Params, b.Default.Action, b.Objective)
			continue
		}
		if tk.Control {
			if b.Responds(3) {
				t.Errorf("%s: a control task whose grid responds (%.1f s.e. on the test seeds, %.1f on held-out seeds): make it a task", tk.ID, b.Spread.Ratio(), b.Spread.ConfirmRatio())
			}
		} else if !b.Responds(3) {
			t.Errorf("%s: the grid's spread is %.1f s.e. on the test seeds and %.1f on held-out seeds, want at least 3", tk.ID, b.Spread.Ratio(), b.Spread.ConfirmRatio())
		}
		if b.Best.Return.Mean < b.Default.Return.Mean || b.Best.Stalls > 0 {
			t.Errorf("%s: best static %v below the paper default %v", tk.ID, b.Best.Return, b.Default.Return)
		}
		eps, err := task.Evaluate(tk.EnvFor(task.SplitTest), b.Seeds, task.Static(tk.Default), 0)
		if err != nil {
			t.Fatal(err)
		}
		for i, e := range eps {
			if math.Float64bits(e.Return) != math.Float64bits(b.Default.Returns[i]) {
				t.Errorf("%s: seed %d: the paper default returns %v today, the saved table %v: rerun `yarngym baselines %s --write benchmarks/baselines`",
					tk.ID, e.Seed, e.Return, b.Default.Returns[i], tk.ID)
				break
			}
		}
	}
}

func TestEncodeDecode(t *testing.T) {
	b, err := Load("AutoAdmin-v0")
	if err != nil {
		t.Fatal(err)
	}
	data, err := Encode(b)
	if err != nil {
		t.Fatal(err)
	}
	saved, err := files.ReadFile(FileName("AutoAdmin-v0"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(data, saved) {
		t.Error("encoding the loaded table does not give the saved file back")
	}
	if !strings.Contains(string(data), `"seeds": [1, 2, 3,`) {
		t.Error("arrays of numbers are not on one line")
	}
	stale := bytes.Replace(saved, []byte(fmt.Sprintf(`"version": %d`, task.BaselinesVersion)), []byte(`"version": 99`), 1)
	if _, err := Decode(stale, "x.json"); err == nil || !strings.Contains(err.Error(), "version 99") {
		t.Errorf("a table of another version: %v", err)
	}
	if _, err := Load("NoSuch-v0"); !errors.Is(err, ErrNone) {
		t.Errorf("a task without a table: %v", err)
	}
}
