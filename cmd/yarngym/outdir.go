package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// What a results folder holds: a bench's (runs.csv beside its summary) or
// one run's (summary.json, jobs.csv, tasks.csv, no runs.csv).
const (
	benchMarker = "runs.csv"
	runMarker   = "tasks.csv"
)

// checkOutDir refuses, before any run, an --out that cannot take the
// command's results: a path that is a file, or a folder that holds the
// other kind of results (a run's summary.json over a bench's would leave a
// folder that 'yarngym report' cannot read). kind is "run" or "bench".
func checkOutDir(dir, kind string) error {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return usagef("--out %s: %v", dir, err)
	case !st.IsDir():
		return usagef("--out %s: is a file, not a folder for the %s's results", dir, kind)
	}
	other, what := benchMarker, "a bench's results"
	if kind == "bench" {
		other, what = runMarker, "a single run's results"
	}
	if _, err := os.Stat(filepath.Join(dir, other)); err == nil {
		return usagef("--out %s: holds %s (%s); choose another folder: the two kinds of results do not mix", dir, what, other)
	}
	return nil
}
