//go:build !unix

// Package cputime reads the process's CPU time, for benchmarks that run on
// a shared core, where the wall clock also counts other processes' work.
package cputime

// Seconds is 0 where getrusage is missing.
func Seconds() float64 { return 0 }
