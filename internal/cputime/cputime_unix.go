//go:build unix

// Package cputime reads the process's CPU time, for benchmarks that run on
// a shared core, where the wall clock also counts other processes' work.
package cputime

import "syscall"

// Seconds is the process's user and system CPU time so far (getrusage).
func Seconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}
