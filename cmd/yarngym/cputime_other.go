//go:build !unix

package main

// cpuSeconds is 0 where getrusage is missing (timing.json's train_cpu_s).
func cpuSeconds() float64 { return 0 }
