// Package baselines holds every task's saved baselines table (one JSON file
// per task, written by `yarngym baselines TASK --write benchmarks/baselines`)
// so that learners, reports and Python compare against the same numbers.
// The files are embedded: a binary carries the tables it was built with.
//
// A saved table is only as current as the model it was computed on: the
// package's test recomputes each task's paper-default row and fails when it
// no longer matches, which says to rerun the command.
package baselines

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"yarngym/env/task"

	"yarngym/internal/atomicfile"
)

//go:embed *.json
var files embed.FS

// ErrNone is returned for a task without a saved table.
var ErrNone = errors.New("no saved baselines")

// FileName is the file a task's table is saved in.
func FileName(id string) string { return id + ".json" }

// Load returns task id's saved table.
func Load(id string) (*task.Baselines, error) {
	data, err := files.ReadFile(FileName(id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("task %s: %w (run `yarngym baselines %s --write benchmarks/baselines`)", id, ErrNone, id)
	}
	if err != nil {
		return nil, err
	}
	return Decode(data, FileName(id))
}

// Decode parses a saved table, checking its version.
func Decode(data []byte, name string) (*task.Baselines, error) {
	var b task.Baselines
	if err := json.Unmarshal(data, &b); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if b.Version != task.BaselinesVersion {
		return nil, fmt.Errorf("%s: version %d, this build reads version %d: rerun `yarngym baselines %s --write benchmarks/baselines`", name, b.Version, task.BaselinesVersion, b.Task)
	}
	return &b, nil
}

// numberList matches an indented JSON array of numbers.
var numberList = regexp.MustCompile(`\[\s*(-?[0-9][-+.0-9eE]*(?:,\s*-?[0-9][-+.0-9eE]*)*)\s*\]`)

// Encode renders a table as saved: indented, arrays of numbers on one line,
// newline-terminated.
func Encode(b *task.Baselines) ([]byte, error) {
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return nil, err
	}
	data = numberList.ReplaceAllFunc(data, func(m []byte) []byte {
		inner := numberList.FindSubmatch(m)[1]
		return []byte("[" + strings.Join(strings.Fields(strings.ReplaceAll(string(inner), ",", " ")), ", ") + "]")
	})
	return append(data, '\n'), nil
}

// Write saves b into dir as FileName(b.Task), atomically.
func Write(dir string, b *task.Baselines) (string, error) {
	data, err := Encode(b)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(dir, FileName(b.Task))
	return path, atomicfile.Write(path, data)
}
