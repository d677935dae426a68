package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"yarngym/benchmarks/report"
	"yarngym/benchmarks/suite"
	"yarngym/registry"
)

// cmdBench runs a suite: yarngym bench SUITE [--seeds N] [--out DIR] [--parallel K] [--timeline S].
func cmdBench(args []string, stdout, stderr io.Writer) error {
	c := newCommand("bench", "SUITE|FILE.toml", "Runs every (scenario, policy, seed) of a suite and its papers' reproductions, and writes\n"+
		"runs.csv, jobs.csv, timeline.csv, policy_state.csv, summary.json and report.html to --out.\n"+
		"A suite file (TOML) is a suite of your own: [[runs]] of scenario (built-in or a file), policy,\n"+
		"and optionally sets, label and model (a trained controller: a model file or folder, or a\n"+
		"committed TASK/ALGO); name, doc and papers at the top (README, \"Benchmarks\"). Suites:\n"+
		strings.TrimRight(suite.Describe(), "\n"),
		`yarngym bench quick --seeds 3 --out out/q`)
	seeds := c.fs.Int("seeds", 3, "seeds per (scenario, policy): 1..`N`")
	out := c.fs.String("out", "", "results `DIR` (default out/bench/SUITE)")
	parallel := c.fs.Int("parallel", runtime.GOMAXPROCS(0), "`K` runs at once")
	timeline := c.fs.Float64("timeline", 1, "timeline sampling interval, simulated `SECONDS`")
	pos, err := c.parse(args, stdout)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("bench takes one suite or suite file:\n%s", suite.Describe())
	}
	s, ok := suite.Lookup(pos[0])
	switch {
	case !ok && strings.HasSuffix(pos[0], ".toml"):
		if s, err = suite.LoadFile(pos[0]); err != nil {
			return err // a scenario.Error: exit 2
		}
	case !ok:
		return usagef("bench: unknown suite %q%s (or a suite file, FILE.toml). Suites:\n%s", pos[0], registry.DidYouMean(pos[0], suite.Names()), suite.Describe())
	}
	if *seeds < 1 || *parallel < 1 || !(*timeline > 0) {
		return usagef("bench: --seeds and --parallel must be at least 1, --timeline above 0")
	}
	dir := *out
	if dir == "" {
		dir = filepath.Join("out", "bench", s.Name)
	}
	if err := checkOutDir(dir, "bench"); err != nil {
		return err
	}
	bar := newProgress(stderr)
	start := time.Now()
	res, err := suite.Run(s, suite.Options{Seeds: *seeds, Parallel: *parallel, TimelineS: *timeline, Progress: bar.update})
	bar.finish()
	if err != nil {
		return err
	}
	if err := suite.Write(dir, res); err != nil {
		return err
	}
	path, err := report.WriteDir(dir)
	if err != nil {
		return err
	}
	printBench(stdout, res)
	fmt.Fprintf(stdout, "\n%d runs in %.1f s wall\nresults: %s (summary.json, runs.csv, jobs.csv, timeline.csv, policy_state.csv)\nreport:  %s\n",
		len(res.Runs), time.Since(start).Seconds(), dir, path)
	return nil
}

// cmdReport rebuilds report.html from a results folder.
func cmdReport(args []string, stdout io.Writer) error {
	c := newCommand("report", "RESULTS_DIR", "Rebuilds report.html from a results folder written by 'yarngym bench'.", "yarngym report out/q")
	pos, err := c.parse(args, stdout)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("report takes one results folder (written by 'yarngym bench')")
	}
	if _, err := os.Stat(filepath.Join(pos[0], suite.SummaryFile)); err != nil {
		return usagef("report: %s has no %s: %v", pos[0], suite.SummaryFile, err)
	}
	path, err := report.WriteDir(pos[0])
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "report: %s\n", path)
	return nil
}

// printBench prints the per-(scenario, policy) means and what was not run.
func printBench(w io.Writer, res *suite.Results) {
	fmt.Fprintf(w, "suite %s (%d seeds)\n", res.Suite, len(res.Seeds))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SCENARIO\tPOLICY\tMEAN JCT (s)\tMAKESPAN (s)\tSTUCK\tKILLED\tWASTED (s)\tVCORES USED/RESERVED")
	for _, a := range res.Aggregates {
		m := a.Metrics
		fmt.Fprintf(tw, "%s\t%s\t%.1f ± %.1f\t%.1f\t%s\t%s\t%.1f\t%.1f / %.1f\n", a.Scenario, a.Variant,
			m["mean_completion_s"].Mean, m["mean_completion_s"].SD, m["makespan_s"].Mean, countMean(m["jobs_stuck"].Mean),
			countMean(m["tasks_killed"].Mean), m["wasted_work_s"].Mean, m["vcores_used_mean"].Mean, m["vcores_reserved_mean"].Mean)
	}
	tw.Flush()
	for _, p := range res.Papers {
		fmt.Fprintf(w, "paper %s: %d reproduced figures (in the report)\n", p.Name, len(p.Rows))
	}
	for _, sk := range res.Skipped {
		if sk.Paper != "" {
			fmt.Fprintf(w, "note: paper %s skipped: %s\n", sk.Paper, sk.Reason)
		} else {
			fmt.Fprintf(w, "note: %s under %s skipped: %s\n", sk.Scenario, sk.Policy, sk.Reason)
		}
	}
}

// countMean formats a mean of counts over seeds: a whole number as one
// (0, not 0.0), else with up to 2 decimals.
func countMean(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	s := strconv.FormatFloat(x, 'f', 2, 64)
	return strings.TrimRight(strings.TrimRight(s, "0"), ".")
}
