package repro

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"yarngym/env/runner"
)

func TestMeanSD(t *testing.T) {
	s := MeanSD([]float64{2, 4, 4, 4, 5, 5, 7, 9})
	if s.Mean != 5 || math.Abs(s.SD-2.138) > 0.001 {
		t.Fatalf("got %+v, want mean 5, sd 2.138", s)
	}
	if one := MeanSD([]float64{3}); one.Mean != 3 || one.SD != 0 {
		t.Fatalf("one value: %+v", one)
	}
}

// TestSweepIndependentOfParallelism: the same runs give the same statistics
// whatever the parallelism.
func TestSweepIndependentOfParallelism(t *testing.T) {
	runs := []Run{{Scenario: "quick"}, {Scenario: "quick", Policy: "fifo"}}
	m := func(r *runner.Result) map[string]float64 {
		return map[string]float64{"makespan": float64(r.Summary.MakespanMs), "wait": r.Summary.MeanWaitMs}
	}
	a, err := Sweep(Context{Seeds: Seeds(3), Parallel: 1}, runs, m)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Sweep(Context{Seeds: Seeds(3), Parallel: 4}, runs, m)
	if err != nil {
		t.Fatal(err)
	}
	for i := range runs {
		for k, v := range a[i] {
			if b[i][k] != v {
				t.Fatalf("run %d %s: %+v vs %+v", i, k, v, b[i][k])
			}
		}
	}
	if a[0]["makespan"].SD == 0 {
		t.Fatal("three seeds of a stochastic scenario gave no spread")
	}
}

func TestRowJSONNullPaper(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteJSON(&buf, []Row{{Experiment: "e", Metric: "m", Unit: "s", Paper: math.NaN(), Simulated: 1.5}}); err != nil {
		t.Fatal(err)
	}
	var rows []map[string]any
	if err := json.Unmarshal(buf.Bytes(), &rows); err != nil {
		t.Fatal(err)
	}
	if rows[0]["paper"] != nil || rows[0]["simulated"] != 1.5 || !strings.Contains(buf.String(), `"simulated_sd"`) {
		t.Fatalf("row %v", rows[0])
	}
}
