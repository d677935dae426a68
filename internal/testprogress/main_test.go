package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func ev(action, pkg, test, output string, elapsed float64) string {
	b, _ := json.Marshal(event{Action: action, Package: pkg, Test: test, Output: output, Elapsed: elapsed})
	return string(b)
}

// TestReporter: while a long package runs, a line every 5 s (of the clock
// it is given) says which tests run; package results print as go test
// prints them; a failed test's output is shown; a failure sets the exit
// status.
func TestReporter(t *testing.T) {
	var out bytes.Buffer
	t0 := time.Unix(1000, 0)
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	r := newReporter(&out, 5*time.Second, t0)
	const sc, sim = "yarngym/env/scenario", "yarngym/env/sim"
	steps := []struct {
		s    float64
		line string
	}{
		{0, ev("start", sc, "", "", 0)},
		{0, ev("run", sc, "TestInvariantsEveryEvent", "", 0)},
		{0, ev("run", sc, "TestInvariantsEveryEvent/quick", "", 0)},
		{0, ev("pause", sc, "TestInvariantsEveryEvent/quick", "", 0)},
		{0, ev("run", sc, "TestInvariantsEveryEvent/swim-fb2009", "", 0)},
		{0, ev("run", sc, "TestInvariantsEveryEvent/swim-fb2009/seed1", "", 0)},
		{1, ev("run", sim, "TestA", "", 0)},
		{1, ev("output", sim, "TestA", "    a_test.go:9: want 2, got 3\n", 0)},
		{1, ev("fail", sim, "TestA", "", 0.01)},
		{1, ev("output", sim, "", "FAIL\tyarngym/env/sim\t0.02s\n", 0)},
		{1, ev("fail", sim, "", "", 0.02)},
		{2, ev("cont", sc, "TestInvariantsEveryEvent/quick", "", 0)},
		{2, ev("pass", sc, "TestInvariantsEveryEvent/quick", "", 0.1)},
		{20, ev("pass", sc, "TestInvariantsEveryEvent/swim-fb2009/seed1", "", 7)},
		{20, ev("pass", sc, "TestInvariantsEveryEvent/swim-fb2009", "", 7)},
		{20, ev("pass", sc, "TestInvariantsEveryEvent", "", 20)},
		{20, ev("pass", sc, "", "", 20.5)},
		{21, ev("output", sim+"/x", "", "ok  \tyarngym/env/sim/x\t(cached)\n", 0)},
		{21, ev("pass", sim+"/x", "", "", 0)},
		{20, "# not json: shown as is"},
	}
	ticks := []float64{3, 6, 9, 12, 25}
	for _, st := range steps {
		for len(ticks) > 0 && ticks[0] <= st.s {
			r.tick(at(ticks[0]))
			ticks = ticks[1:]
		}
		r.line(st.line, at(st.s))
	}
	for _, s := range ticks {
		r.tick(at(s))
	}
	want := "    a_test.go:9: want 2, got 3\n" +
		"FAIL\tyarngym/env/sim\t0.020s\n" +
		"  ... yarngym/env/scenario: 1 tests passed so far; running TestInvariantsEveryEvent/swim-fb2009/seed1\n" + // at 6 s: 5 s after the FAIL
		"  ... yarngym/env/scenario: 1 tests passed so far; running TestInvariantsEveryEvent/swim-fb2009/seed1\n" + // at 12 s
		"ok  \tyarngym/env/scenario\t20.500s\n" +
		"ok  \tyarngym/env/sim/x\t(cached)\n" +
		"# not json: shown as is\n"
	if got := out.String(); got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
	if r.exitCode() != 1 {
		t.Fatal("a failed package: want exit status 1")
	}
	if strings.Contains(out.String(), "quick") {
		t.Fatal("a paused test is not running")
	}
}

// TestReporterBuildFailure: a build failure's output is shown and fails
// the run.
func TestReporterBuildFailure(t *testing.T) {
	var out bytes.Buffer
	r := newReporter(&out, 5*time.Second, time.Unix(0, 0))
	b, _ := json.Marshal(event{ImportPath: "yarngym/x [yarngym/x.test]", Action: "build-output", Output: "x.go:3:1: syntax error\n"})
	r.line(string(b), time.Unix(1, 0))
	b, _ = json.Marshal(event{ImportPath: "yarngym/x [yarngym/x.test]", Action: "build-fail"})
	r.line(string(b), time.Unix(1, 0))
	if out.String() != "x.go:3:1: syntax error\n" || r.exitCode() != 1 {
		t.Fatalf("output %q, exit %d", out.String(), r.exitCode())
	}
}
