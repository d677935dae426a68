package dress

import (
	"math"
	"testing"

	"yarngym/benchmarks/repro"
)

// TestRun runs the reproduction on one seed: every row is a number, the
// Fig. 1 FCFS rows match the paper exactly, and DRESS keeps the Spark
// makespan within a few percent of Capacity's.
// Reference: DRESS Sec. I (FCFS: 40 s, 16 s); Sec. V-B1, Table II.
func TestRun(t *testing.T) {
	rows, err := Run(repro.Context{Seeds: []uint64{1}, Parallel: 2})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, r := range rows {
		if math.IsNaN(r.Simulated) || math.IsInf(r.Simulated, 0) {
			t.Errorf("%s %s: simulated %v", r.Experiment, r.Metric, r.Simulated)
		}
		got[r.Experiment+"/"+r.Metric] = r.Simulated
	}
	if got["fig1 fifo/makespan"] != 40 || got["fig1 fifo/mean wait"] != 16 {
		t.Errorf("fig1 FCFS: makespan %v, mean wait %v; want 40, 16", got["fig1 fifo/makespan"], got["fig1 fifo/mean wait"])
	}
	if m := got["spark dress vs capacity/makespan"]; math.Abs(m) > 5 {
		t.Errorf("spark makespan changed %v%% under DRESS", m)
	}
}
