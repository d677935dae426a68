package opera

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"yarngym/benchmarks/repro"
)

// TestReproduction runs the reproduction on 10 seeds (the fewest a claim is
// judged on: on seed 1 alone IV-E's NEUTRAL and AGGRESSIVE differ by less
// than the seeds' spread since Fair follows Hadoop's on opera-mr) and
// checks its shape and the directions the paper reports: every job completes; OPERA shortens
// the mean MapReduce job time the more the more aggressive its relief policy
// (PRESERVE's gain is within the seeds' spread here, so it is only required
// not to lengthen jobs materially); it uses more vCores than Fair; PRESERVE
// kills fewer tasks and wastes less work than NEUTRAL; the interactive sleep
// lengthens pathSim under Fair by about its 300 s.
//
// Reference: OPERA Sec. IV-B, IV-C, IV-D (Fig. 9), IV-E.
func TestReproduction(t *testing.T) {
	rows, err := Run(repro.Context{Seeds: repro.Seeds(10), Parallel: 2})
	if err != nil {
		t.Fatal(err)
	}
	get := func(exp, metric string) float64 {
		t.Helper()
		for _, r := range rows {
			if strings.HasPrefix(r.Experiment, exp) && r.Metric == metric {
				return r.Simulated
			}
		}
		t.Fatalf("no row %q / %q", exp, metric)
		return 0
	}
	for _, r := range rows {
		if strings.Contains(r.Metric, "jobs completed") {
			t.Errorf("%s: %s = %v", r.Experiment, r.Metric, r.Simulated)
		}
		if math.IsNaN(r.Simulated) || math.IsNaN(r.SimulatedSD) {
			t.Errorf("%s %s: NaN", r.Experiment, r.Metric)
		}
	}
	for _, exp := range []string{"IV-B opera-mr", "IV-C", "IV-E"} {
		p, n, a := get(exp, "MapReduce job time change, PRESERVE"), get(exp, "MapReduce job time change, NEUTRAL"),
			get(exp, "MapReduce job time change, AGGRESSIVE")
		if !(p < 2 && n < p && n < 0 && a < n) {
			t.Errorf("%s: MapReduce job time changes PRESERVE %.1f%%, NEUTRAL %.1f%%, AGGRESSIVE %.1f%%: want P > N > A, N < 0, P < 2", exp, p, n, a)
		}
		if f, ag := get(exp, "vCores used, Fair"), get(exp, "vCores used, AGGRESSIVE"); ag <= f {
			t.Errorf("%s: AGGRESSIVE uses %.0f vCores, Fair %.0f", exp, ag, f)
		}
	}
	if n, p := get("IV-B opera-mr", "killed tasks, NEUTRAL"), get("IV-B opera-mr", "killed tasks, PRESERVE"); p >= n {
		t.Errorf("IV-B: PRESERVE killed %v tasks, NEUTRAL %v", p, n)
	}
	if n, p := get("IV-B opera-mr", "wasted work, NEUTRAL"), get("IV-B opera-mr", "wasted work, PRESERVE"); p >= n {
		t.Errorf("IV-B: PRESERVE wasted %v s, NEUTRAL %v s", p, n)
	}
	if d := get("IV-E vs IV-C", "pathSim job time, Fair, IV-E minus IV-C"); d < 250 || d > 350 {
		t.Errorf("the 300 s sleep lengthened pathSim by %.0f s", d)
	}
	var buf bytes.Buffer
	if err := repro.WriteJSON(&buf, rows); err != nil {
		t.Fatal(err)
	}
}
