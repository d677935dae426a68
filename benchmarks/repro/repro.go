// Package repro reproduces the papers' experiments: each paper registers a
// Paper whose Run executes its experiments on the built-in scenarios over
// several seeds and returns, for every figure the paper reports, the paper's
// value beside the simulated mean and spread. `yarngym repro NAME` prints
// them; the benchmark suites reuse them.
//
// A paper's experiments live in their own subpackage (repro/opera, ...) and
// register themselves in init; repro/all imports them all.
package repro

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"yarngym/runner"
)

// Row is one reported figure.
type Row struct {
	Experiment string  `json:"experiment"`
	Metric     string  `json:"metric"`
	Unit       string  `json:"unit"`
	Paper      float64 `json:"paper"` // NaN (JSON null) where the paper gives no number
	Simulated  float64 `json:"simulated"`
	// SimulatedSD is the spread over seeds: of the per-seed values, or for a
	// paired change of the per-seed changes (not of the two means).
	SimulatedSD float64 `json:"simulated_sd"`
	// SimulatedSE is the standard error of Simulated and CILow..CIHigh its
	// 95 % Student-t interval over Seeds seeds (NaN, JSON null, where there
	// is no spread to speak of: one seed, or a figure that is not a mean).
	SimulatedSE float64 `json:"simulated_se"`
	CILow       float64 `json:"ci95_low"`
	CIHigh      float64 `json:"ci95_high"`
	Seeds       int     `json:"seeds"`
	// PerSeed are the per-seed values the row summarises (for a paired
	// change, the per-seed changes), in seed order; nil where the row is not
	// a statistic over seeds.
	PerSeed []float64 `json:"per_seed,omitempty"`
	// Headline marks the paper's headline claims, the rows the summary line
	// counts (Verdict judges every row with a paper figure); always in the
	// JSON, false as well as true.
	Headline bool `json:"headline"`
	// Note says how to read the row (direction expected, what differs).
	Note string `json:"note,omitempty"`
}

// MarshalJSON writes NaN as null and adds the row's verdict: "held"
// (within the tolerance, see Verdict), "not held", or null where the paper
// gives no figure.
func (r Row) MarshalJSON() ([]byte, error) {
	type plain Row
	num := func(x float64) any {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil
		}
		return x
	}
	var verdict, direction any
	if v := r.Verdict(); v.Judged {
		verdict = "held"
		if v.Off {
			verdict = "not held"
		}
	}
	if d := r.Direction(); d.Judged {
		direction = "held"
		if !d.Held {
			direction = "not held"
		}
	}
	se, lo, hi := num(r.SimulatedSE), num(r.CILow), num(r.CIHigh)
	if r.Seeds < 2 {
		se, lo, hi = nil, nil, nil // not a mean over seeds
	}
	return json.Marshal(struct {
		plain
		Paper       any   `json:"paper"`
		Simulated   any   `json:"simulated"`
		SimulatedSD any   `json:"simulated_sd"`
		SimulatedSE any   `json:"simulated_se"`
		CILow       any   `json:"ci95_low"`
		CIHigh      any   `json:"ci95_high"`
		Verdict     any   `json:"verdict"`
		Direction   any   `json:"direction"`
		PerSeed     []any `json:"per_seed,omitempty"`
	}{plain(r), num(r.Paper), num(r.Simulated), num(r.SimulatedSD), se, lo, hi, verdict, direction, perSeed(r.PerSeed, num)})
}

func perSeed(xs []float64, num func(float64) any) []any {
	if len(xs) == 0 {
		return nil
	}
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = num(x)
	}
	return out
}

// StatRow is a row whose simulated figure is the statistic s.
func StatRow(exp, metric, unit string, paper float64, s Stat, note string) Row {
	return Row{Experiment: exp, Metric: metric, Unit: unit, Paper: paper, Simulated: s.Mean, SimulatedSD: s.SD,
		SimulatedSE: s.SE, CILow: s.Lo, CIHigh: s.Hi, Seeds: s.N, PerSeed: s.Values, Note: note}
}

// Tolerance is the relative difference from the published figure beyond
// which a reproduced figure is marked as not holding (see OffPaper).
const Tolerance = 0.25

// MinClaimSeeds is the fewest seeds a headline claim is judged on.
const MinClaimSeeds = 10

// ToleranceRule states the rule OffPaper applies, for tables and reports.
var ToleranceRule = fmt.Sprintf("A row is marked ✗ (not held) when the simulated value differs from the published one "+
	"by more than %.0f %% of it, or has the other sign (where the paper gives 0: any value that is not 0 at 2 decimals); "+
	"otherwise ✓ (held). \"vs paper\" is the simulated value's difference from the published one, relative to it.", Tolerance*100)

// OffPaper returns the simulated value's relative difference from the
// paper's, formatted, and whether it is outside the tolerance: a relative
// difference over Tolerance, or a sign disagreement; where the paper gives
// 0, any simulated value that is not 0 at 2 decimals. Rows without both
// numbers are not judged ("n/a", false).
func OffPaper(paper, sim float64) (string, bool) {
	if math.IsNaN(paper) || math.IsInf(paper, 0) || math.IsNaN(sim) || math.IsInf(sim, 0) {
		return "n/a", false
	}
	if paper == 0 {
		if s := fmt.Sprintf("%.2f", sim); s == "0.00" || s == "-0.00" {
			return "=", false
		}
		return "✗ paper 0", true
	}
	rel := (sim - paper) / math.Abs(paper)
	txt := fmt.Sprintf("%+.0f %%", rel*100)
	if txt == "+0 %" || txt == "-0 %" {
		txt = "0 %"
	}
	txt = strings.Replace(txt, "-", "−", 1)
	signDiffers := (paper > 0 && sim < 0) || (paper < 0 && sim > 0)
	off := math.Abs(rel) > Tolerance || signDiffers
	if off {
		txt = "✗ " + txt
	}
	return txt, off
}

// Verdict is a row judged against the paper.
type Verdict struct {
	Judged bool   // the paper gives a figure and the simulation a number
	Off    bool   // outside the tolerance
	Text   string // e.g. "−12 %", "✗ +40 %"
}

// Verdict judges the row by OffPaper.
func (r Row) Verdict() Verdict {
	txt, off := OffPaper(r.Paper, r.Simulated)
	return Verdict{Judged: txt != "n/a", Off: off, Text: txt}
}

// DirectionRule states the rule Direction applies.
const DirectionRule = "DIR is ✓ when the simulated 95 % interval lies wholly on the paper's side of zero " +
	"(the value itself where there is no interval), ✗ otherwise; - where the paper gives 0 or no figure."

// DirVerdict is a row's direction judged against the paper's.
type DirVerdict struct {
	Judged bool // the paper gives a figure other than 0, and the simulation a number
	Held   bool // the interval lies on the paper's side of zero
}

// Direction judges whether the simulated figure lies on the paper's side of
// zero with 95 % confidence: its Student-t interval wholly above zero for a
// positive published figure, wholly below for a negative one. A row without
// an interval (one seed, a figure that is not a mean) is judged by its
// value.
func (r Row) Direction() DirVerdict {
	if math.IsNaN(r.Paper) || math.IsInf(r.Paper, 0) || r.Paper == 0 || math.IsNaN(r.Simulated) || math.IsInf(r.Simulated, 0) {
		return DirVerdict{}
	}
	lo, hi := r.Simulated, r.Simulated
	if r.hasInterval() {
		lo, hi = r.CILow, r.CIHigh
	}
	if r.Paper > 0 {
		return DirVerdict{Judged: true, Held: lo > 0}
	}
	return DirVerdict{Judged: true, Held: hi < 0}
}

// hasInterval reports whether the row has a 95 % interval to speak of: a
// mean over seeds with a spread.
func (r Row) hasInterval() bool {
	return r.Seeds > 1 && !math.IsNaN(r.CILow) && !math.IsNaN(r.CIHigh) && (r.SimulatedSE > 0 || r.CILow != r.CIHigh)
}

// Tally counts a table's judged rows and headline claims.
type Tally struct {
	Judged       int `json:"rows_judged"` // rows with a paper figure
	Held         int `json:"rows_held"`   // of them, those within the tolerance
	Headlines    int `json:"headlines"`
	HeadlineHeld int `json:"headlines_held"`
	// HeadlineDirection counts the headline claims whose interval lies on
	// the paper's side of zero (Direction), of HeadlineDirJudged judged so.
	HeadlineDirection int `json:"headlines_in_direction"`
	HeadlineDirJudged int `json:"headlines_direction_judged"`
	// FewSeeds counts headline rows run on fewer than MinClaimSeeds seeds.
	FewSeeds int `json:"headlines_few_seeds"`
}

// WriteTallies prints one line per paper (in the order of names) with its
// headline claims held, in the paper's direction, and its rows held, then
// the totals.
func WriteTallies(w io.Writer, names []string, tallies map[string]Tally) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "PAPER\tHEADLINE CLAIMS HELD\tIN THE PAPER'S DIRECTION\tROWS WITHIN THE TOLERANCE")
	var sum Tally
	line := func(name string, t Tally) {
		fmt.Fprintf(tw, "%s\t%d of %d\t%d of %d\t%d of %d\n", name, t.HeadlineHeld, t.Headlines, t.HeadlineDirection, t.HeadlineDirJudged, t.Held, t.Judged)
	}
	for _, n := range names {
		t := tallies[n]
		line(n, t)
		sum.Headlines += t.Headlines
		sum.HeadlineHeld += t.HeadlineHeld
		sum.HeadlineDirection += t.HeadlineDirection
		sum.HeadlineDirJudged += t.HeadlineDirJudged
		sum.Judged += t.Judged
		sum.Held += t.Held
	}
	line("all", sum)
	tw.Flush()
}

// Count tallies rows.
func Count(rows []Row) Tally {
	var t Tally
	for _, r := range rows {
		v := r.Verdict()
		if !v.Judged {
			continue
		}
		t.Judged++
		if !v.Off {
			t.Held++
		}
		if r.Headline {
			t.Headlines++
			if !v.Off {
				t.HeadlineHeld++
			}
			if d := r.Direction(); d.Judged {
				t.HeadlineDirJudged++
				if d.Held {
					t.HeadlineDirection++
				}
			}
			if r.Seeds < MinClaimSeeds {
				t.FewSeeds++
			}
		}
	}
	return t
}

// Summary is the tally as one line.
func (t Tally) Summary() string {
	s := fmt.Sprintf("headline claims: %d held, %d not held (of %d), %d of %d in the paper's direction; rows with a paper figure: %d within the tolerance, %d outside (of %d)",
		t.HeadlineHeld, t.Headlines-t.HeadlineHeld, t.Headlines, t.HeadlineDirection, t.HeadlineDirJudged, t.Held, t.Judged-t.Held, t.Judged)
	if t.FewSeeds > 0 {
		s += fmt.Sprintf("; %d headline rows ran on fewer than %d seeds, too few to judge a claim", t.FewSeeds, MinClaimSeeds)
	}
	return s
}

// Context is what a reproduction runs with.
type Context struct {
	Seeds []uint64
	// Parallel is how many runs may execute at once (goroutines outside the
	// deterministic core; results do not depend on it).
	Parallel int
	// Progress, if set, is told of each run as it finishes: done of total
	// runs of the current sweep (a paper may run several sweeps).
	Progress func(done, total int, msg string)
}

// Paper is one paper's reproduction.
type Paper struct {
	Name  string // e.g. "opera"
	Title string
	Run   func(ctx Context) ([]Row, error)
}

var papers = map[string]Paper{}

// Register adds a paper; names are unique.
func Register(p Paper) {
	if _, dup := papers[p.Name]; dup {
		panic("repro: duplicate paper " + p.Name)
	}
	papers[p.Name] = p
}

// Lookup returns the paper called name.
func Lookup(name string) (Paper, bool) {
	p, ok := papers[name]
	return p, ok
}

// Names returns the registered papers, sorted.
func Names() []string {
	var n []string
	for k := range papers {
		n = append(n, k)
	}
	sort.Strings(n)
	return n
}

// Run is one simulation of an experiment: a scenario, its overrides and a
// policy (empty: the scenario's).
type Run struct {
	Scenario string
	Sets     []string
	Policy   string
}

// Metrics extracts named numbers from a finished run.
type Metrics func(r *runner.Result) map[string]float64

// Stat is a statistic over seeds: the mean of N per-seed values, their
// sample standard deviation, the mean's standard error and its 95 %
// Student-t confidence interval [Lo, Hi] (SE, Lo and Hi are NaN for fewer
// than two values).
type Stat struct {
	Mean, SD float64
	N        int
	SE       float64
	Lo, Hi   float64
	// Values are the per-seed values summarised.
	Values []float64
}

// Values are each metric's per-seed values of one run, in ctx.Seeds order.
type Values map[string][]float64

// Stat summarises metric k.
func (v Values) Stat(k string) Stat { return Summarize(v[k]) }

// Sweep runs every run of runs once per seed (in parallel up to
// ctx.Parallel) and returns, per run index, each metric's per-seed values.
// Results are identical whatever ctx.Parallel is.
func Sweep(ctx Context, runs []Run, m Metrics) ([]Values, error) {
	type job struct{ run, seed int }
	var jobs []job
	for i := range runs {
		for s := range ctx.Seeds {
			jobs = append(jobs, job{i, s})
		}
	}
	vals := make([][]map[string]float64, len(runs))
	for i := range vals {
		vals[i] = make([]map[string]float64, len(ctx.Seeds))
	}
	errs := make([]error, len(jobs))
	par := max(ctx.Parallel, 1)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0 // runs finished, under mu
	sem := make(chan struct{}, par)
	for k, jb := range jobs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			r := runs[jb.run]
			seed := ctx.Seeds[jb.seed]
			// The metrics read the jobs' tasks after the run: kept.
			res, err := runner.Run(runner.Options{Scenario: r.Scenario, Sets: r.Sets, Policy: r.Policy, Seed: &seed, KeepTasks: true})
			if err != nil {
				errs[k] = fmt.Errorf("%s %v (%s) seed %d: %w", r.Scenario, r.Sets, r.Policy, seed, err)
				return
			}
			vals[jb.run][jb.seed] = m(res)
			if ctx.Progress != nil {
				mu.Lock()
				done++
				ctx.Progress(done, len(jobs), fmt.Sprintf("%s %s %v seed %d", r.Scenario, res.Policy, r.Sets, seed))
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	out := make([]Values, len(runs))
	for i := range runs {
		out[i] = Values{}
		names := map[string]bool{}
		for s := range ctx.Seeds {
			for name := range vals[i][s] {
				names[name] = true
			}
		}
		for name := range names {
			xs := make([]float64, len(ctx.Seeds))
			for s := range ctx.Seeds {
				x, ok := vals[i][s][name]
				if !ok {
					x = math.NaN() // a metric one seed's run did not produce
				}
				xs[s] = x
			}
			out[i][name] = xs
		}
	}
	return out, nil
}

// Summarize returns the mean of xs, their sample standard deviation and the
// mean's standard error and 95 % Student-t interval (gonum/stat; NaN where
// undefined: no values, or one for the spread).
func Summarize(xs []float64) Stat {
	n := len(xs)
	if n == 0 {
		return Stat{Mean: math.NaN(), SD: math.NaN(), SE: math.NaN(), Lo: math.NaN(), Hi: math.NaN()}
	}
	vals := append([]float64(nil), xs...)
	if n == 1 {
		return Stat{Mean: xs[0], SD: 0, N: 1, SE: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), Values: vals}
	}
	m, sd := stat.MeanStdDev(xs, nil)
	se := sd / math.Sqrt(float64(n))
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}.Quantile(0.975)
	return Stat{Mean: m, SD: sd, N: n, SE: se, Lo: m - t*se, Hi: m + t*se, Values: vals}
}

// MeanSD is Summarize (its mean and standard deviation were all it gave).
func MeanSD(xs []float64) Stat { return Summarize(xs) }

// PairedChange is the relative change from base to x in percent, seed by
// seed (base[i] and x[i] ran on the same seed), summarised over the seeds:
// the spread is that of the per-seed changes, as paired runs require.
func PairedChange(base, x []float64) Stat {
	return Summarize(pairwise(base, x, Change))
}

// PairedDiff is x - base seed by seed, summarised over the seeds.
func PairedDiff(base, x []float64) Stat {
	return Summarize(pairwise(base, x, func(b, v float64) float64 { return v - b }))
}

func pairwise(base, x []float64, f func(b, v float64) float64) []float64 {
	if len(base) != len(x) {
		panic(fmt.Sprintf("repro: paired values of %d and %d seeds", len(base), len(x)))
	}
	out := make([]float64, len(x))
	for i := range x {
		out[i] = f(base[i], x[i])
	}
	return out
}

// Seeds returns seeds 1..n.
func Seeds(n int) []uint64 {
	out := make([]uint64, n)
	for i := range out {
		out[i] = uint64(i + 1)
	}
	return out
}

// WriteTable prints rows aligned, paper value beside the simulated one
// with its spread over seeds, the 95 % interval of the mean, the verdict
// against the paper and, last, the rule and the tally of claims.
func WriteTable(w io.Writer, title string, rows []Row) {
	fmt.Fprintf(w, "%s\n", title)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "EXPERIMENT\tMETRIC\tUNIT\tPAPER\tSIMULATED\t± SD\t95% CI\tVS PAPER\tDIR\tNOTE")
	for _, r := range rows {
		paper := "-"
		if !math.IsNaN(r.Paper) {
			paper = trim(r.Paper)
		}
		ci := "-"
		if r.hasInterval() {
			ci = fmt.Sprintf("[%s, %s]", trim(r.CILow), trim(r.CIHigh))
		}
		v := r.Verdict()
		mark := "-"
		if v.Judged {
			mark = v.Text
			if !v.Off {
				mark = "✓ " + mark
			}
		}
		dir := "-"
		if d := r.Direction(); d.Judged {
			dir = "✗"
			if d.Held {
				dir = "✓"
			}
		}
		metric := r.Metric
		if r.Headline {
			metric = "* " + metric
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Experiment, metric, r.Unit, paper, trim(r.Simulated), trim(r.SimulatedSD), ci, mark, dir, r.Note)
	}
	tw.Flush()
	fmt.Fprintf(w, "* headline claim. %s %s\n", ToleranceRule, DirectionRule)
	fmt.Fprintf(w, "%s\n", Count(rows).Summary())
}

func trim(x float64) string {
	if math.IsNaN(x) {
		return "n/a"
	}
	s := fmt.Sprintf("%.3f", x)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "-0" {
		s = "0"
	}
	return s
}

// WriteJSON prints rows as a JSON array.
func WriteJSON(w io.Writer, rows []Row) error {
	b, err := json.MarshalIndent(rows, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(w, string(b))
	return err
}

// Change returns the relative change from base to x in percent.
func Change(base, x float64) float64 { return (x - base) / base * 100 }
