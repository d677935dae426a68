package workload

import (
	"errors"
	"fmt"
	"io"
	"os"

	"yarngym/data"
	"yarngym/env/sim"
)

// traceOptions are a trace loader's options (swim, alibaba, rumen): they
// check themselves and name the file to read (PathPtr, paths.go).
type traceOptions[O any] interface {
	*O
	validate() error
	PathPtr() *string
}

// registerTrace adds a trace loader: parse reads the file named by the
// options once into P (readTrace); build draws one seed's jobs from P.
func registerTrace[O any, PO traceOptions[O], P any](name, doc string, defaults func() *O,
	parse func(io.Reader, string, *O) (P, error), build func(*O, P, *sim.Rand) ([]sim.JobSpec, error)) {
	add(Generator{Name: name, Doc: doc,
		Options: func() any { return defaults() },
		Compile: func(o any) (Source, error) {
			opts := o.(*O)
			p, err := readTrace[O, PO](opts, parse)
			if err != nil {
				return nil, err
			}
			// What the load skipped or replayed in part goes back through
			// the options, for the scenario to report.
			if n, ok := any(p).(interface{ Notes() []string }); ok {
				if s, ok := any(opts).(interface{ SetNotes([]string) }); ok {
					s.SetNotes(n.Notes())
				}
			}
			return func(r *sim.Rand) ([]sim.JobSpec, error) { return build(opts, p, r) }, nil
		}})
}

// readTrace checks the options before the file is opened, so that a bad
// option is reported as such even when the path is wrong too, then parses
// the file.
func readTrace[O any, PO traceOptions[O], P any](o *O, parse func(io.Reader, string, *O) (P, error)) (P, error) {
	var zero P
	if err := PO(o).validate(); err != nil {
		return zero, err
	}
	path := *PO(o).PathPtr()
	f, err := OpenTrace(path)
	if err != nil {
		return zero, err
	}
	defer f.Close()
	return parse(f, path, o)
}

// loadTraceFrom is the body of the Load functions: a trace read from r (name
// is used in error messages) with options o (nil: defaults()), its jobs
// built for rng.
func loadTraceFrom[O, P any](gen string, r io.Reader, name string, o *O, defaults func() *O,
	parse func(io.Reader, string, *O) (P, error), build func(*O, P, *sim.Rand) ([]sim.JobSpec, error), rng *sim.Rand) ([]sim.JobSpec, error) {
	if o == nil {
		o = defaults()
	}
	if rng == nil {
		return nil, fmt.Errorf("%s: nil random generator", gen)
	}
	p, err := parse(r, name, o)
	if err != nil {
		return nil, err
	}
	return build(o, p, rng)
}

// OpenTrace opens a loader's path option: a trace shipped with yarngym when
// the path starts "${traces}/" (package data), else the file.
func OpenTrace(path string) (io.ReadCloser, error) {
	if path == "" {
		return nil, errors.New("path: required (the trace file to load)")
	}
	var f io.ReadCloser
	var err error
	if data.Shipped(path) {
		f, err = data.Open(path)
	} else {
		f, err = os.Open(path)
	}
	if err != nil {
		return nil, fmt.Errorf("path: %w", err)
	}
	return f, nil
}
