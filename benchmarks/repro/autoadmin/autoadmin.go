// Package autoadmin reproduces AutoAdmin (Yang et al.): the RRP's predicted
// reservations (Tables 3.1 and 3.2), the best static reservation of each of
// the 16 AM / task size cells for a batch of 66 terasort jobs (Table 3.1's
// EXP column, Figs. 2.2, 2.3 and 3.1), and the Perf. Score (Eq. 4.1) of the
// dynamic mechanism against the best static reservation for a batch of 72
// jobs (Table 4.1, Fig. 4.1) and for the heterogeneous mixes of Table 4.2
// (Table 4.3, Fig. 4.2).
package autoadmin

import (
	"fmt"
	"math"

	"yarngym/benchmarks/repro"
	"yarngym/env/sim"
	pol "yarngym/policies/autoadmin"
	"yarngym/runner"
)

func init() {
	repro.Register(repro.Paper{Name: "autoadmin", Title: "AutoAdmin (Yang et al.): Tables 3.1/3.2, 4.1, 4.3", Run: Run})
}

// Cell is one AM / task size combination of Tables 3.1, 3.2 and 4.1.
type Cell struct {
	TC, AMC int
	EXP     float64 // Table 3.1: best static reservation found by experiment (vCores)
	PDI     float64 // Table 3.2: predicted reservation after the 40 % floor (vCores)
	Perf    float64 // Table 4.1: Perf. Score of AutoAdmin, 72 jobs (%)
}

// Cells are Tables 3.1, 3.2 and 4.1, row by row (TC = 1..4, AMC = 1..4).
var Cells = []Cell{
	{1, 1, 32, 32, 90.4}, {1, 2, 30, 26, 99.6}, {1, 3, 27, 26, 89.3}, {1, 4, 26, 26, 91.4},
	{2, 1, 41, 43, 99.3}, {2, 2, 34, 32, 95.6}, {2, 3, 28, 26, 99.4}, {2, 4, 27, 26, 91.7},
	{3, 1, 46, 48, 97.6}, {3, 2, 39, 39, 99.2}, {3, 3, 32, 32, 96.9}, {3, 4, 29, 31, 97.4},
	{4, 1, 48, 52, 88.5}, {4, 2, 40, 43, 90.5}, {4, 3, 36, 37, 99.7}, {4, 4, 32, 32, 98.5},
}

// Mix is one heterogeneous set of Table 4.2 with its Perf. Score (Table 4.3).
type Mix struct {
	Set    string
	MinAMC int // smallest AM of the set: reservations above C - MinAMC admit nothing
	Perf   float64
}

// Mixes are Tables 4.2 / 4.3.
var Mixes = []Mix{{"exp1", 1, 100}, {"exp2", 1, 85.9}, {"exp3", 1, 94.2}, {"exp4", 1, 99.1}, {"exp5", 2, 90.6}, {"exp6", 1, 95.8}}

// ClusterVCores is the paper's cluster (Sec. 4.1: 8 workers x 8 vCores).
const ClusterVCores = 64

// Options size a reproduction.
type Options struct {
	Cells []Cell
	Mixes []Mix
	// Coarse are the static reservations swept first; the best is refined
	// by sweeping Refine vCores either side of it in steps of 1.
	Coarse []int
	Refine int
	// Batches to run: 66 jobs (Tables 3.1/3.2) and 72 jobs (Table 4.1).
	Batch66, Batch72 bool
	// Sets are extra overrides for every run (model studies).
	Sets []string
}

// DefaultOptions are what `yarngym repro autoadmin` runs.
func DefaultOptions() Options {
	var coarse []int
	for r := 0; r <= 60; r += 4 {
		coarse = append(coarse, r)
	}
	return Options{Cells: Cells, Mixes: Mixes, Coarse: coarse, Refine: 3, Batch66: true, Batch72: true}
}

// Run runs the default reproduction.
func Run(ctx repro.Context) ([]repro.Row, error) { return RunWith(ctx, DefaultOptions()) }

// RunWith runs a reproduction sized by o.
func RunWith(ctx repro.Context, o Options) ([]repro.Row, error) {
	var rows []repro.Row
	for _, c := range o.Cells {
		rows = append(rows, predictionRow(c))
	}
	if o.Batch66 {
		r, res, err := homogeneous(ctx, o, "autoadmin-66", 66)
		if err != nil {
			return nil, err
		}
		rows = append(rows, r...)
		var simErr, eqErr []float64
		for i, c := range o.Cells {
			simErr = append(simErr, math.Abs(float64(res[i].bestR)-c.EXP))
			eqErr = append(eqErr, math.Abs(Predicted(c)-c.EXP))
		}
		rows = append(rows, repro.Row{Experiment: "T3.1 all cells 66 jobs", Metric: "mean |best static - EXP|", Unit: "vCores",
			Paper: repro.MeanSD(eqErr).Mean, Simulated: repro.MeanSD(simErr).Mean,
			Note: "paper column: the paper's own prediction (T3.2) against its EXP"})
	}
	if o.Batch72 {
		r, res, err := homogeneous(ctx, o, "autoadmin-72", 72)
		if err != nil {
			return nil, err
		}
		rows = append(rows, r...)
		var paper, simulated []float64
		for i, c := range o.Cells {
			paper, simulated = append(paper, c.Perf), append(simulated, res[i].perf.Mean)
		}
		rows = append(rows, meanRow("T4.1 all cells 72 jobs", paper, simulated), belowRow("T4.1 all cells 72 jobs", "cells", simulated, len(ctx.Seeds),
			"paper: every cell at 88.5 % or more (Table 4.1); headline: none below 85 %. Where cells fall below, cause (b): the whole batch arrives before any task runs, so R_R is at its 40 % floor and too many AMs are admitted (Alg. 2 line 12); and Eq. 3.1 counts vCores where 3- and 4-vCore containers fit two to an 8-vCore node (TC=3 AMC=3: R_R = 32 admits 10 AMs, leaving 6 of 16 container slots for tasks; the best static setting admits 7)"))
	}
	if len(o.Mixes) > 0 {
		r, res, err := heterogeneous(ctx, o)
		if err != nil {
			return nil, err
		}
		rows = append(rows, r...)
		var paper, simulated []float64
		for i, m := range o.Mixes {
			paper, simulated = append(paper, m.Perf), append(simulated, res[i].perf.Mean)
		}
		rows = append(rows, meanRow("T4.3 all sets", paper, simulated), belowRow("T4.3 all sets", "sets", simulated, len(ctx.Seeds),
			"paper: every set at 85.9 % or more (Table 4.3); headline: none below 85 %. Where sets fall below, cause (b) as in Table 4.1: the batch arrives at once (assumed), before any task runs, so Alg. 2 line 12's 40 % floor admits AMs worth 38 of the 64 vCores, and they hold them until their jobs end (Exp4, seed 1: at 20 s AMs 38 vCores and maps 12, at 300 s AMs still 19; under the best static setting, 52, AMs 12 and maps 48 at 20 s). Under Hadoop 3.3.6's headroom (zero_headroom=0) in place of YARN 2.2.0's zero headroom, those jobs' early reducers also held each node's last vCores, too few for a 3-vCore map, until the 300 s unconditional preemption (Exp1/2/4 at 36/35/8 %)"))
	}
	return rows, nil
}

// Predicted is the RRP's reservation for a homogeneous batch in steady state
// (Eq. 3.1 with Alg. 2's floor and ceiling, no scale-up), in whole vCores: a
// job is admitted iff the integer vCores left for tasks reach R_R, i.e.
// reach ceil(R_R), which is how Tables 3.1/3.2 print it.
func Predicted(c Cell) float64 {
	in := pol.Inputs{C: ClusterVCores, NAMC: 1, NTC: 1, AvgAMC: float64(c.AMC), AvgTC: float64(c.TC), TotalAMC: float64(c.AMC)}
	return math.Ceil(pol.Predict(in, 0.4, false) - 1e-9)
}

func predictionRow(c Cell) repro.Row {
	r := repro.Row{Experiment: fmt.Sprintf("T3.2 TC=%d AMC=%d", c.TC, c.AMC), Metric: "RRP reservation R_R", Unit: "vCores",
		Paper: c.PDI, Simulated: Predicted(c), Note: "ceil(Eq. 3.1), 40% floor"}
	if c.TC == 3 && c.AMC == 4 {
		r.Note = "paper prints 31; Eq. 3.1 gives 64x3/7 = 27.4 (28)"
	}
	return r
}

func cellSets(c Cell) []string {
	return []string{fmt.Sprintf("workload.options.am_vcores=%d", c.AMC), fmt.Sprintf("workload.options.task_vcores=%d", c.TC)}
}

// homogeneous sweeps the static reservation and runs AutoAdmin for every
// cell on one batch scenario.
func homogeneous(ctx repro.Context, o Options, scen string, jobs int) ([]repro.Row, []result, error) {
	var settings []setting
	for _, c := range o.Cells {
		settings = append(settings, setting{scenario: scen, sets: append(cellSets(c), o.Sets...), maxR: ClusterVCores - c.AMC})
	}
	res, err := compare(ctx, settings, o)
	if err != nil {
		return nil, nil, err
	}
	var rows []repro.Row
	for i, c := range o.Cells {
		r := res[i]
		exp := fmt.Sprintf("T3.1 TC=%d AMC=%d %d jobs", c.TC, c.AMC, jobs)
		perfPaper := math.NaN()
		if jobs == 72 {
			exp = fmt.Sprintf("T4.1 TC=%d AMC=%d %d jobs", c.TC, c.AMC, jobs)
			perfPaper = c.Perf
		}
		bestPaper := math.NaN()
		if jobs == 66 {
			bestPaper = c.EXP
		}
		rows = append(rows,
			repro.Row{Experiment: exp, Metric: "best static reservation", Unit: "vCores", Paper: bestPaper, Simulated: float64(r.bestR),
				Note: fmt.Sprintf("Eq. 3.1: %.1f; swept %s", float64(ClusterVCores*c.TC)/float64(c.AMC+c.TC), r.swept)},
			repro.StatRow(exp, "makespan, best static", "s", math.NaN(), r.static, ""),
			repro.StatRow(exp, "makespan, AutoAdmin", "s", math.NaN(), r.dynamic, fmt.Sprintf("stuck runs: %d", r.stuck)),
			repro.StatRow(exp, "Perf. Score (Eq. 4.1)", "%", perfPaper, r.perf, "per seed against the best static setting's makespan on that seed"),
		)
	}
	return rows, res, nil
}

func heterogeneous(ctx repro.Context, o Options) ([]repro.Row, []result, error) {
	var settings []setting
	for _, m := range o.Mixes {
		settings = append(settings, setting{scenario: "autoadmin-mix", sets: append([]string{"workload.options.set=" + m.Set}, o.Sets...),
			maxR: ClusterVCores - m.MinAMC})
	}
	res, err := compare(ctx, settings, o)
	if err != nil {
		return nil, nil, err
	}
	var rows []repro.Row
	for i, m := range o.Mixes {
		r := res[i]
		exp := "T4.3 " + m.Set
		rows = append(rows,
			repro.Row{Experiment: exp, Metric: "best static reservation", Unit: "vCores", Paper: math.NaN(), Simulated: float64(r.bestR), Note: "swept " + r.swept},
			repro.StatRow(exp, "makespan, best static", "s", math.NaN(), r.static, ""),
			repro.StatRow(exp, "makespan, AutoAdmin", "s", math.NaN(), r.dynamic, fmt.Sprintf("stuck runs: %d", r.stuck)),
			repro.StatRow(exp, "Perf. Score (Eq. 4.1)", "%", m.Perf, r.perf, "per seed against the best static setting's makespan on that seed"),
		)
	}
	return rows, res, nil
}

// ScoreFloor is the Perf. Score every cell of Tables 4.1 and 4.3 reaches
// (their lowest: 88.5 % and 85.9 %): the claim judged is that none falls
// below it.
const ScoreFloor = 85

// belowRow counts the cells (or sets) whose mean Perf. Score is below
// ScoreFloor: the paper has none, so any is the claim not holding.
func belowRow(exp, what string, simulated []float64, seeds int, note string) repro.Row {
	n := 0.0
	for _, x := range simulated {
		if x < ScoreFloor {
			n++
		}
	}
	return repro.Row{Experiment: exp, Metric: fmt.Sprintf("%s with Perf. Score below %d %%", what, ScoreFloor), Unit: what,
		Paper: 0, Simulated: n, SimulatedSE: math.NaN(), CILow: math.NaN(), CIHigh: math.NaN(), Seeds: seeds, Headline: true, Note: note}
}

// meanRow is the mean Perf. Score over a table's cells.
func meanRow(exp string, paper, simulated []float64) repro.Row {
	st := repro.MeanSD(simulated)
	return repro.Row{Experiment: exp, Metric: "mean Perf. Score", Unit: "%", Paper: repro.MeanSD(paper).Mean, Simulated: st.Mean, SimulatedSD: st.SD,
		SimulatedSE: math.NaN(), CILow: math.NaN(), CIHigh: math.NaN(), Note: "SD: spread over the cells"}
}

// makespan is a run's makespan in seconds, NaN if a job did not complete.
func makespan(r *runner.Result) map[string]float64 {
	m := float64(r.Summary.MakespanMs) / float64(sim.MsPerS)
	if r.Summary.JobsCompleted != len(r.Sim.Jobs) {
		m = math.NaN()
	}
	return map[string]float64{"makespan": m}
}
