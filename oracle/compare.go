package oracle

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"

	"gonum.org/v1/gonum/stat"

	"yarngym/env/sim"
)

// JobTime is one job's outcome as either side records it.
type JobTime struct {
	ID          int
	Name        string
	State       string
	SubmitS     float64
	CompletionS float64 // finish - submit; NaN if the job did not finish
}

// FromSim reads the jobs of a finished yarngym run.
func FromSim(s *sim.Sim) []JobTime {
	var out []JobTime
	for _, j := range s.Jobs {
		jt := JobTime{ID: int(j.ID), Name: j.Spec.Name, State: j.State.String(), SubmitS: float64(j.Spec.SubmitMs) / 1000, CompletionS: math.NaN()}
		if j.State == sim.JobDone {
			jt.CompletionS = float64(j.FinishMs-j.Spec.SubmitMs) / 1000
		}
		out = append(out, jt)
	}
	return out
}

// ReadJobsCSV reads a jobs.csv in yarngym's columns (the driver writes the
// same).
func ReadJobsCSV(r io.Reader) ([]JobTime, error) {
	rows, err := csv.NewReader(r).ReadAll()
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("no header")
	}
	col := map[string]int{}
	for i, c := range rows[0] {
		col[c] = i
	}
	for _, c := range []string{"job", "name", "state", "submit_s", "completion_s"} {
		if _, ok := col[c]; !ok {
			return nil, fmt.Errorf("no column %q", c)
		}
	}
	var out []JobTime
	for k, row := range rows[1:] {
		id, err := strconv.Atoi(row[col["job"]])
		if err != nil {
			return nil, fmt.Errorf("row %d: job: %v", k+2, err)
		}
		sub, err := strconv.ParseFloat(row[col["submit_s"]], 64)
		if err != nil {
			return nil, fmt.Errorf("row %d: submit_s: %v", k+2, err)
		}
		jt := JobTime{ID: id, Name: row[col["name"]], State: row[col["state"]], SubmitS: sub, CompletionS: math.NaN()}
		if jt.State == "done" {
			if jt.CompletionS, err = strconv.ParseFloat(row[col["completion_s"]], 64); err != nil {
				return nil, fmt.Errorf("row %d: completion_s: %v", k+2, err)
			}
		}
		out = append(out, jt)
	}
	return out, nil
}

// Tolerance is the per-job agreement the suite asks for: a job agrees when
// yarngym's completion time is within 10 % of Hadoop's.
const Tolerance = 0.10

// Row is one job on both sides.
type Row struct {
	ID                  int
	Name                string
	YarngymS, HadoopS   float64 // completion times (NaN: not finished)
	Ratio               float64 // yarngym / Hadoop
	Within              bool    // |Ratio - 1| <= Tolerance
	YarngymSt, HadoopSt string
}

// Comparison is a scenario's per-job agreement.
type Comparison struct {
	Rows []Row
	// Within counts the jobs within Tolerance; Share is Within / jobs.
	Within int
	Share  float64
	// MeanRatio is yarngym's mean completion over Hadoop's (jobs finished
	// on both sides); MeanRatioSE the standard error of the mean per-job
	// ratio, for scale.
	MeanRatio, MeanPerJobRatio, PerJobRatioSE float64
}

// Compare pairs the jobs of both sides by id; they must be the same jobs.
func Compare(yarngym, hadoop []JobTime) (*Comparison, error) {
	if len(yarngym) != len(hadoop) {
		return nil, fmt.Errorf("yarngym has %d jobs, Hadoop %d", len(yarngym), len(hadoop))
	}
	c := &Comparison{}
	var ys, hs, ratios []float64
	for i, y := range yarngym {
		h := hadoop[i]
		if h.ID != y.ID || h.Name != y.Name {
			return nil, fmt.Errorf("job %d: yarngym's is %d %q, Hadoop's %d %q", i, y.ID, y.Name, h.ID, h.Name)
		}
		r := Row{ID: y.ID, Name: y.Name, YarngymS: y.CompletionS, HadoopS: h.CompletionS, Ratio: math.NaN(), YarngymSt: y.State, HadoopSt: h.State}
		if !math.IsNaN(y.CompletionS) && !math.IsNaN(h.CompletionS) && h.CompletionS > 0 {
			r.Ratio = y.CompletionS / h.CompletionS
			r.Within = math.Abs(r.Ratio-1) <= Tolerance
			ys = append(ys, y.CompletionS)
			hs = append(hs, h.CompletionS)
			ratios = append(ratios, r.Ratio)
		}
		if r.Within {
			c.Within++
		}
		c.Rows = append(c.Rows, r)
	}
	if len(c.Rows) > 0 {
		c.Share = float64(c.Within) / float64(len(c.Rows))
	}
	c.MeanRatio, c.MeanPerJobRatio, c.PerJobRatioSE = math.NaN(), math.NaN(), math.NaN()
	if len(ys) > 0 {
		c.MeanRatio = stat.Mean(ys, nil) / stat.Mean(hs, nil)
		c.MeanPerJobRatio = stat.Mean(ratios, nil)
		if len(ratios) > 1 {
			c.PerJobRatioSE = stat.StdErr(stat.StdDev(ratios, nil), float64(len(ratios)))
		}
	}
	return c, nil
}

// Agrees reports whether the comparison meets the suite's bar: at least 90 %
// of the jobs within Tolerance and the mean completion within 5 %.
func (c *Comparison) Agrees() bool {
	return c.Share >= 0.9 && math.Abs(c.MeanRatio-1) <= 0.05
}
