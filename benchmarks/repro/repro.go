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

	"yarngym/env/runner"
)

// Row is one reported figure.
type Row struct {
	Experiment  string  `json:"experiment"`
	Metric      string  `json:"metric"`
	Unit        string  `json:"unit"`
	Paper       float64 `json:"paper"` // NaN (JSON null) where the paper gives no number
	Simulated   float64 `json:"simulated"`
	SimulatedSD float64 `json:"simulated_sd"`
	// Note says how to read the row (direction expected, what differs).
	Note string `json:"note,omitempty"`
}

// MarshalJSON writes NaN as null.
func (r Row) MarshalJSON() ([]byte, error) {
	type plain Row
	var paper any = r.Paper
	if math.IsNaN(r.Paper) {
		paper = nil
	}
	return json.Marshal(struct {
		plain
		Paper any `json:"paper"`
	}{plain(r), paper})
}

// Context is what a reproduction runs with.
type Context struct {
	Seeds []uint64
	// Parallel is how many runs may execute at once (goroutines outside the
	// deterministic core; results do not depend on it).
	Parallel int
	// Progress, if set, is told of each run as it finishes.
	Progress func(msg string)
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

// Stat is a metric's mean and standard deviation over seeds.
type Stat struct{ Mean, SD float64 }

// Sweep runs every run of runs once per seed (in parallel up to
// ctx.Parallel) and returns, per run index, each metric's mean and sample
// standard deviation over the seeds. Results are identical whatever
// ctx.Parallel is.
func Sweep(ctx Context, runs []Run, m Metrics) ([]map[string]Stat, error) {
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
	sem := make(chan struct{}, par)
	for k, jb := range jobs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			r := runs[jb.run]
			seed := ctx.Seeds[jb.seed]
			res, err := runner.Run(runner.Options{Scenario: r.Scenario, Sets: r.Sets, Policy: r.Policy, Seed: &seed})
			if err != nil {
				errs[k] = fmt.Errorf("%s %v (%s) seed %d: %w", r.Scenario, r.Sets, r.Policy, seed, err)
				return
			}
			vals[jb.run][jb.seed] = m(res)
			if ctx.Progress != nil {
				mu.Lock()
				ctx.Progress(fmt.Sprintf("%s %s %v seed %d", r.Scenario, res.Policy, r.Sets, seed))
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
	out := make([]map[string]Stat, len(runs))
	for i := range runs {
		out[i] = map[string]Stat{}
		for name := range vals[i][0] {
			xs := make([]float64, len(ctx.Seeds))
			for s := range ctx.Seeds {
				xs[s] = vals[i][s][name]
			}
			out[i][name] = MeanSD(xs)
		}
	}
	return out, nil
}

// MeanSD returns the mean and sample standard deviation (0 for one value).
func MeanSD(xs []float64) Stat {
	if len(xs) == 0 {
		return Stat{math.NaN(), math.NaN()}
	}
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	m := sum / float64(len(xs))
	if len(xs) == 1 {
		return Stat{m, 0}
	}
	ss := 0.0
	for _, x := range xs {
		ss += (x - m) * (x - m)
	}
	return Stat{m, math.Sqrt(ss / float64(len(xs)-1))}
}

// Seeds returns seeds 1..n.
func Seeds(n int) []uint64 {
	out := make([]uint64, n)
	for i := range out {
		out[i] = uint64(i + 1)
	}
	return out
}

// WriteTable prints rows aligned, paper value beside the simulated one.
func WriteTable(w io.Writer, title string, rows []Row) {
	fmt.Fprintf(w, "%s\n", title)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "EXPERIMENT\tMETRIC\tUNIT\tPAPER\tSIMULATED\t± SD\tNOTE")
	for _, r := range rows {
		paper := "-"
		if !math.IsNaN(r.Paper) {
			paper = trim(r.Paper)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Experiment, r.Metric, r.Unit, paper, trim(r.Simulated), trim(r.SimulatedSD), r.Note)
	}
	tw.Flush()
}

func trim(x float64) string {
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
