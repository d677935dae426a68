// Package benchmarks holds yarngym's Go benchmarks (simulated events per
// second, simulated seconds per wall second) and, later, its scenario suites
// and report generation.
package benchmarks
