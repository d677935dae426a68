package workload

import (
	"encoding/json"
	"errors"
	"io"
	"math"
	"os"
	"testing"
)

// TestMapUsageSpreadMeasured measures what sim.MapProfile's comment says of
// the SLS trace's map CPU: its spread between attempts is about equal parts
// an attempt's own level and split-to-split fluctuation within an attempt.
// Each attempt's log CPU rate per split (cpuUsages / clockSplits) over
// splits 4-9 (Rumen spreads the first half of an attempt's CPU evenly over
// splits 1-6, so they say nothing of its fluctuation) is fitted as an
// attempt level plus a split shape (alternating medians); the spreads are
// 1.4826 x the median absolute deviation of the levels and of the
// residuals. The engine's Jitter draws all of it afresh at every usage
// sample: the figures here are what a per-task level and a temporal part
// would be set from.
func TestMapUsageSpreadMeasured(t *testing.T) {
	f, err := os.Open(rumenTrace)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type attempt struct {
		CPU   []float64 `json:"cpuUsages"`
		Clock []float64 `json:"clockSplits"`
	}
	type job struct {
		Maps []struct {
			Attempts []attempt `json:"attempts"`
		} `json:"mapTasks"`
	}
	const lo, hi = 3, 9 // splits 4-9, zero-based [lo, hi)
	var rates [][]float64
	dec := json.NewDecoder(f)
	for {
		var j job
		if err := dec.Decode(&j); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		for _, m := range j.Maps {
			for _, a := range m.Attempts {
				if len(a.CPU) != 12 || len(a.Clock) != 12 {
					continue
				}
				r := make([]float64, 0, hi-lo)
				for i := lo; i < hi; i++ {
					if a.CPU[i] > 0 && a.Clock[i] > 0 {
						r = append(r, math.Log(a.CPU[i]/a.Clock[i]))
					}
				}
				if len(r) == hi-lo {
					rates = append(rates, r)
				}
			}
		}
	}
	if len(rates) != 192 {
		t.Fatalf("%d map attempts with 12 splits of CPU, want the trace's 192", len(rates))
	}
	level := make([]float64, len(rates))
	shape := make([]float64, hi-lo)
	col := make([]float64, len(rates))
	row := make([]float64, hi-lo)
	for range 50 {
		for k := range shape {
			for i, r := range rates {
				col[i] = r[k] - level[i]
			}
			shape[k] = median(col)
		}
		for i, r := range rates {
			for k := range row {
				row[k] = r[k] - shape[k]
			}
			level[i] = median(row)
		}
	}
	var res []float64
	for i, r := range rates {
		for k := range r {
			res = append(res, r[k]-level[i]-shape[k])
		}
	}
	levelSD, splitSD := robustSD(level), robustSD(res)
	t.Logf("attempt level %.3f, split to split %.3f (log CPU rate, robust s.d.)", levelSD, splitSD)
	for _, c := range []struct {
		what string
		got  float64
	}{{"an attempt's own level", levelSD}, {"split-to-split fluctuation", splitSD}} {
		if c.got < 0.14 || c.got > 0.17 {
			t.Errorf("%s spreads %.3f, where the comment on sim.MapProfile says about 0.15 (0.16 the level, 0.15 the splits)", c.what, c.got)
		}
	}
}
