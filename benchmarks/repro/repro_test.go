package repro

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"

	"yarngym/runner"
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
			if !reflect.DeepEqual(b[i][k], v) {
				t.Fatalf("run %d %s: %+v vs %+v", i, k, v, b[i][k])
			}
		}
	}
	if a[0].Stat("makespan").SD == 0 {
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

// TestSummarize: the 95 % interval is the mean ± t(0.975, n-1) x SE, checked
// against a table value (t(0.975, 7) = 2.3646), and undefined for one value.
func TestSummarize(t *testing.T) {
	xs := []float64{2, 4, 4, 4, 5, 5, 7, 9}
	s := Summarize(xs)
	se := 2.13809 / math.Sqrt(8)
	if s.N != 8 || math.Abs(s.SE-se) > 1e-4 || math.Abs(s.Hi-(5+2.3646*se)) > 1e-3 || math.Abs(s.Lo-(5-2.3646*se)) > 1e-3 {
		t.Fatalf("got %+v, want SE %.4f, CI 5 ± %.4f", s, se, 2.3646*se)
	}
	if one := Summarize([]float64{3}); one.Mean != 3 || !math.IsNaN(one.SE) || !math.IsNaN(one.Lo) {
		t.Fatalf("one value: %+v", one)
	}
	if none := Summarize(nil); !math.IsNaN(none.Mean) {
		t.Fatalf("no value: %+v", none)
	}
}

// TestPairedChange: the spread of a paired change is that of the per-seed
// changes. Two runs whose seeds move together by a lot but whose ratio is
// fixed give a change with no spread at all, where treating them as
// independent would give a wide one.
func TestPairedChange(t *testing.T) {
	base := []float64{100, 200, 400, 800}
	x := []float64{90, 180, 360, 720}
	c := PairedChange(base, x)
	if math.Abs(c.Mean+10) > 1e-9 || c.SD > 1e-9 {
		t.Fatalf("paired change %+v, want -10 %% with no spread", c)
	}
	d := PairedDiff([]float64{1, 2, 3}, []float64{2, 4, 6})
	if d.Mean != 2 || d.N != 3 {
		t.Fatalf("paired diff %+v, want mean 2 over 3 seeds", d)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("pairing 2 seeds with 3 did not panic")
		}
	}()
	PairedChange([]float64{1, 2}, []float64{1, 2, 3})
}

// TestOffPaper is the tolerance rule, table-driven.
func TestOffPaper(t *testing.T) {
	for _, c := range []struct {
		paper, sim float64
		txt        string
		off        bool
	}{
		{100, 125, "+25 %", false}, {100, 125.1, "✗ +25 %", true}, {100, 74, "✗ −26 %", true}, {-10, -12, "−20 %", false},
		{-19.7, 3.2, "✗ +116 %", true}, {-19.7, -14.9, "+24 %", false}, {5, -1, "✗ −120 %", true},
		{0, 0.001, "=", false}, {0, 1, "✗ paper 0", true}, {math.NaN(), 3, "n/a", false}, {3, math.NaN(), "n/a", false},
	} {
		if txt, off := OffPaper(c.paper, c.sim); txt != c.txt || off != c.off {
			t.Errorf("OffPaper(%v, %v) = %q, %v; want %q, %v", c.paper, c.sim, txt, off, c.txt, c.off)
		}
	}
}

// TestTableMarksAndTally: the table marks every judged row, stars the
// headline claims and ends with the rule and the tally, which counts
// headline rows run on too few seeds.
func TestTableMarksAndTally(t *testing.T) {
	rows := []Row{
		{Experiment: "e", Metric: "held", Paper: -20, Simulated: -18, Seeds: 10, Headline: true},
		{Experiment: "e", Metric: "not held", Paper: -20, Simulated: 3, Seeds: 10, Headline: true},
		{Experiment: "e", Metric: "few seeds", Paper: 10, Simulated: 10, Seeds: 3, Headline: true},
		{Experiment: "e", Metric: "judged only", Paper: 10, Simulated: 100, Seeds: 10},
		{Experiment: "e", Metric: "no paper figure", Paper: math.NaN(), Simulated: 1, Seeds: 10},
		{Experiment: "e", Metric: "interval across zero", Paper: -20, Simulated: -19, SimulatedSE: 9, CILow: -39, CIHigh: 1, Seeds: 10, Headline: true},
	}
	tl := Count(rows)
	if tl != (Tally{Judged: 5, Held: 3, Headlines: 4, HeadlineHeld: 3, HeadlineDirection: 2, HeadlineDirJudged: 4, FewSeeds: 1}) {
		t.Fatalf("tally %+v", tl)
	}
	var buf bytes.Buffer
	WriteTable(&buf, "title", rows)
	out := buf.String()
	for _, want := range []string{"* held", "✓ +10 %", "✗ +115 %", "✗ +900 %", "headline claims: 3 held, 1 not held (of 4), 2 of 4 in the paper's direction"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(out, "3 within the tolerance, 2 outside (of 5)") || !strings.Contains(out, "1 headline rows ran on fewer than 10 seeds") {
		t.Errorf("tally line:\n%s", out)
	}
	buf.Reset()
	if err := WriteJSON(&buf, rows); err != nil {
		t.Fatal(err)
	}
	var back []map[string]any
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if back[0]["verdict"] != "held" || back[1]["verdict"] != "not held" || back[4]["verdict"] != nil || back[0]["headline"] != true {
		t.Errorf("JSON verdicts: %v", back)
	}
	// The direction: the value without an interval, else the interval.
	if back[0]["direction"] != "held" || back[1]["direction"] != "not held" || back[4]["direction"] != nil || back[5]["direction"] != "not held" {
		t.Errorf("JSON directions: %v %v %v %v", back[0]["direction"], back[1]["direction"], back[4]["direction"], back[5]["direction"])
	}
	// headline is in every row, false too (issue 29: it appeared only when true).
	for i, row := range back {
		if _, ok := row["headline"].(bool); !ok {
			t.Errorf("row %d has no headline field: %v", i, row)
		}
	}
	// A statistic's row carries its per-seed values, NaN as null.
	buf.Reset()
	r := StatRow("e", "m", "%", -5, PairedChange([]float64{10, 20, 40}, []float64{9, 19, math.NaN()}), "")
	if err := WriteJSON(&buf, []Row{r}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"per_seed": [`) || !strings.Contains(buf.String(), "-10,") || !strings.Contains(buf.String(), "null") {
		t.Errorf("per-seed values: %s", buf.String())
	}
}

// TestWriteTallies: one line per paper in the order given, then the totals.
func TestWriteTallies(t *testing.T) {
	var buf bytes.Buffer
	WriteTallies(&buf, []string{"b", "a"}, map[string]Tally{
		"a": {Judged: 10, Held: 4, Headlines: 3, HeadlineHeld: 1, HeadlineDirection: 2, HeadlineDirJudged: 3},
		"b": {Judged: 5, Held: 5, Headlines: 2, HeadlineHeld: 2, HeadlineDirection: 2, HeadlineDirJudged: 2},
	})
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[1], "b ") || !strings.HasPrefix(lines[2], "a ") {
		t.Fatalf("tallies:\n%s", buf.String())
	}
	if f := strings.Fields(lines[3]); strings.Join(f, " ") != "all 3 of 5 4 of 5 9 of 15" {
		t.Errorf("totals line %q, want all 3 of 5 / 4 of 5 / 9 of 15", lines[3])
	}
}
