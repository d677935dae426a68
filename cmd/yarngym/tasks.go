package main

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"

	"yarngym/benchmarks/baselines"
	"yarngym/env"
	"yarngym/env/task"
)

// cmdTasks lists the registered tuning tasks: yarngym tasks [--format table|json].
func cmdTasks(args []string, stdout io.Writer) error {
	c := newCommand("tasks", "", `Lists the tuning tasks (env/task): each one's environment (scenario,
policy, control interval, horizon), its actions (the paper's thresholds,
their ranges and defaults), its objective, its train and test seeds, and
its saved baselines.`, "yarngym tasks --format json")
	format := c.fs.String("format", "table", "output `FORMAT`: table or json")
	pos, err := c.parse(args, stdout)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("tasks takes no arguments")
	}
	if *format != "table" && *format != "json" {
		return usagef("tasks: --format %q is not table or json", *format)
	}
	all := task.All()
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(all)
	}
	for _, t := range all {
		e, err := env.New(t.Env)
		if err != nil {
			return fmt.Errorf("task %s: %w", t.ID, err)
		}
		lo, hi, _ := e.ActionBounds()
		fmt.Fprintf(stdout, "%s  (%s; %s)\n  %s\n", t.GymID(), t.Paper, t.Ref, t.Doc)
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "  env\t%s, policy %s, every %g s, horizon %g s\n", t.Env.Scenario, t.Env.Policy, e.Config().ControlIntervalS, t.Env.HorizonS)
		for i, p := range t.Env.Controlled {
			fmt.Fprintf(tw, "  action %s\t[%g, %g], paper default %g, grid %d points\n", p, lo[i], hi[i], t.Default[i], t.Grid[i])
		}
		fmt.Fprintf(tw, "  objective\t%s (return = minus it for costs)\n", t.Objective())
		fmt.Fprintf(tw, "  seeds\ttrain %d..%d, test %d..%d\n", t.Train.First, t.Train.First+uint64(t.Train.Count)-1, t.Test.First, t.Test.First+uint64(t.Test.Count)-1)
		if b, err := baselines.Load(t.ID); err == nil {
			fmt.Fprintf(tw, "  baselines\tdefault %s, random %s, best static %v: %s (test return, mean ± s.e.)\n",
				b.Default.Return, b.Random.Return, b.Best.Action, b.Best.Return)
		}
		tw.Flush()
		fmt.Fprintln(stdout)
	}
	return nil
}

// cmdBaselines evaluates a task's baselines on its test seeds:
// yarngym baselines TASK|all [--workers K] [--write DIR] [--format table|json].
func cmdBaselines(args []string, stdout, stderr io.Writer) error {
	c := newCommand("baselines", "TASK|all", `Evaluates a task's baselines on its test seeds, paired (every setting on
the same seeds): the paper default, random actions and every setting of
its grid, each as mean ± standard error of the return; the best static
setting (chosen on 20 train seeds over an 81-point grid, then played on
the test seeds) and the grid's spread (best minus worst non-stalling
setting, also re-measured on held-out train seeds). --write saves the
tables that learners, reports and Python compare against.`, "yarngym baselines OPERA-v0 --grid")
	workers := c.fs.Int("workers", runtime.GOMAXPROCS(0), "`K` goroutines stepping the environments (results do not depend on it)")
	write := c.fs.String("write", "", "save each table as `DIR`/TASK.json (benchmarks/baselines holds the saved ones)")
	format := c.fs.String("format", "table", "output `FORMAT`: table or json")
	grid := c.fs.Bool("grid", false, "print every grid setting, not only the best")
	pos, err := c.parse(args, stdout)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("baselines takes one task id or all (see 'yarngym tasks')")
	}
	if *workers < 1 {
		return usagef("baselines: --workers must be at least 1")
	}
	if *format != "table" && *format != "json" {
		return usagef("baselines: --format %q is not table or json", *format)
	}
	var todo []task.Task
	if pos[0] == "all" {
		todo = task.All()
	} else {
		t, err := task.Lookup(pos[0])
		if err != nil {
			return usagef("baselines: %v", err)
		}
		todo = []task.Task{t}
	}
	var out []*task.Baselines
	for _, t := range todo {
		start := time.Now()
		// A bar on a terminal, a line per setting otherwise (no \r in logs).
		prog := newProgress(stderr)
		b, err := task.ComputeBaselines(t, *workers, func(done, total int) {
			prog.update(done, total, t.ID+" settings")
		})
		prog.finish()
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "  %s: %d settings x %d test seeds, the best of %d on %d train seeds, in %.1f s\n", t.ID, len(b.Grid)+3, len(b.Seeds),
			task.BestStaticGridPoints, task.BestStaticTrainSeeds, time.Since(start).Seconds())
		if *write != "" {
			path, err := baselines.Write(*write, b)
			if err != nil {
				return fmt.Errorf("writing baselines: %w", err)
			}
			fmt.Fprintf(stderr, "  saved %s\n", path)
		}
		out = append(out, b)
	}
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	for _, b := range out {
		printBaselines(stdout, b, *grid)
	}
	return nil
}

func printBaselines(w io.Writer, b *task.Baselines, grid bool) {
	fmt.Fprintf(w, "%s: objective %s; test return (the episode's rewards summed) over %d test seeds, mean ± s.e.\n", b.Task, b.Objective, len(b.Seeds))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  baseline\t%s\treturn\tstalls\n", strings.Join(b.Params, " "))
	row := func(r task.Row) {
		act := "-"
		if r.Action != nil {
			act = strings.Trim(fmt.Sprint(r.Action), "[]")
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%d\n", r.Name, act, r.Return, r.Stalls)
	}
	row(b.Default)
	row(b.Random)
	row(b.Best)
	if grid {
		for _, r := range b.Grid {
			row(r)
		}
	}
	tw.Flush()
	sp := b.Spread
	if sp.Best < 0 {
		fmt.Fprintf(w, "  spread: every grid setting stalls\n")
	} else {
		fmt.Fprintf(w, "  spread over non-stalling settings: %v - %v = %s (%.1f s.e.); on %d held-out seeds %s (%.1f s.e.)\n",
			b.Grid[sp.Best].Action, b.Grid[sp.Worst].Action, sp.Diff, sp.Ratio(), sp.Confirm.N, sp.Confirm, sp.ConfirmRatio())
	}
	fmt.Fprintf(w, "  best static: train return %s on the seeds it was chosen on; minus the paper default on the test seeds: %s\n\n", b.BestTrain, b.BestVsDefault)
}
