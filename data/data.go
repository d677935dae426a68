// Package data holds the sample workload traces yarngym ships (traces/, with
// their licences and provenance in traces/README.md), embedded so that the
// binary, the tests and the shared library find them from any working
// directory and with nothing installed beside the clone.
package data

import (
	"embed"
	"io"
	"io/fs"
	"strings"
)

//go:embed traces
var traces embed.FS

// TracesPrefix starts a trace path that names a shipped trace, as scenario
// files write it: "${traces}/swim/FB-2009_samples_24_times_1hr_0.tsv".
const TracesPrefix = "${traces}"

// Shipped reports whether path names a shipped trace (starts with TracesPrefix).
func Shipped(path string) bool { return strings.HasPrefix(path, TracesPrefix+"/") }

// Open opens a shipped trace by its path under TracesPrefix.
func Open(path string) (io.ReadCloser, error) {
	rel := strings.TrimPrefix(path, TracesPrefix+"/")
	return traces.Open("traces/" + rel)
}

// Traces is the shipped traces folder (its root is "traces").
func Traces() fs.FS { return traces }
