// Package benchmarks holds yarngym's Go benchmarks: whole runs of the
// built-in scenarios under each stock and paper policy, reporting simulated
// events per wall second ("events/s") and simulated seconds per wall second
// ("sim-s/s"). Its subpackages reproduce the papers' experiments (repro),
// run benchmark suites (suite) and write the echarts HTML reports (report).
//
//	go test ./benchmarks -run '^$' -bench . -benchtime 1x
package benchmarks
