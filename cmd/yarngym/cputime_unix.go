//go:build unix

package main

import "syscall"

// cpuSeconds is the process's user and system CPU time so far (timing.json's
// train_cpu_s: on a shared core the wall clock also counts other work).
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}
