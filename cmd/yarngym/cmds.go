package main

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"text/tabwriter"

	"yarngym/env/scenario"
	"yarngym/env/workload"
	"yarngym/policies"
	"yarngym/policies/base"
	"yarngym/runner"
)

type multiFlag []string

func (m *multiFlag) String() string { return strings.Join(*m, ",") }

// Set takes one KEY=VALUE. A value that is another flag (--set --out DIR)
// means --set's own value is missing: refused here rather than letting DIR
// become a stray argument.
func (m *multiFlag) Set(v string) error {
	if strings.HasPrefix(v, "-") && !strings.Contains(v, "=") {
		return fmt.Errorf("needs KEY=VALUE, got the flag %s", v)
	}
	*m = append(*m, v)
	return nil
}

func isInputError(err error) bool {
	var se *scenario.Error
	return errors.As(err, &se)
}

func cmdRun(args []string, stdout, stderr io.Writer) error {
	c := newCommand("run", "SCENARIO", `Runs one scenario and prints its summary. SCENARIO is a built-in scenario
(see 'yarngym scenarios') or a TOML file. --set NAME=VALUE sets a policy
parameter (see 'yarngym policies'); --set a.b.c=VALUE sets a key of the
scenario file (arrays of tables by index: cluster.nodes.0.vcores=8).
Exit status: 0 success (stuck jobs are a result), 2 bad input, 1 run failure.`,
		`yarngym run quick --seed 2 --set max_am_share=0.3 --set workload.jobs.0.count=5 --out out/quick`)
	policy := c.fs.String("policy", "", "policy `NAME` (overrides the scenario's)")
	var sets multiFlag
	c.fs.Var(&sets, "set", "`KEY=VALUE` override of a policy parameter or a scenario key (repeatable)")
	seed := c.fs.Uint64("seed", 0, "random `SEED` (default: the scenario's)")
	out := c.fs.String("out", "", "`DIR` to write summary.json, jobs.csv and tasks.csv to")
	format := c.fs.String("format", "table", "output `FORMAT`: table or json")
	showProgress := c.fs.Bool("progress", false, "show the run's progress on stderr (simulated time, jobs done, events/s); on by itself when stderr is a terminal")
	controller := c.fs.String("controller", "", "a trained `MODEL` (model.json or its folder, from yarngym learn) that sets the policy's parameters every control interval")
	pos, err := c.parse(args, stdout)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("run takes one SCENARIO, got %d arguments (see 'yarngym run --help')", len(pos))
	}
	if *format != "table" && *format != "json" {
		return usagef("run: --format %q is not table or json", *format)
	}
	if *out != "" {
		if err := checkOutDir(*out, "run"); err != nil {
			return err
		}
	}
	opts := runner.Options{Scenario: pos[0], Sets: sets, Policy: *policy, RecordTasks: *out != "", Controller: *controller,
		Warn: func(msg string) { fmt.Fprintf(stderr, "warning: %s\n", msg) }}
	if tty := isTerminal(stderr); tty || *showProgress {
		p := &runProgress{w: stderr, tty: tty, forced: *showProgress}
		opts.Progress = p.update
	}
	if c.set("seed") {
		opts.Seed = seed
	}
	res, err := runner.Run(opts)
	if err != nil {
		return err
	}
	if *out != "" {
		if err := res.WriteDir(*out); err != nil {
			return fmt.Errorf("writing results: %w", err)
		}
	}
	if *format == "json" {
		b := res.JSON().Marshal("")
		fmt.Fprintln(stdout, string(b))
	} else {
		printTable(stdout, res.JSON())
	}
	if *out != "" {
		fmt.Fprintf(stderr, "results in %s (summary.json, jobs.csv, tasks.csv)\n", *out)
	}
	if n := res.Summary.JobsStuck; n > 0 {
		fmt.Fprintf(stderr, "warning: the run could make no progress; %d jobs stuck\n", n)
	}
	return nil
}

func printTable(w io.Writer, s runner.SummaryJSON) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	row := func(k string, v any) { fmt.Fprintf(tw, "%s\t%v\n", k, v) }
	row("scenario", s.Scenario)
	row("policy", s.Policy)
	row("seed", s.Seed)
	switch {
	case s.Truncated:
		row("truncated", fmt.Sprintf("at %v s (run.max_s reached): %d of %d jobs unfinished", s.EndS, s.JobsUnfinished,
			s.JobsCompleted+s.JobsStuck+s.JobsUnfinished))
		if s.JobsCompleted == 0 {
			row("makespan_s", fmt.Sprintf("n/a (truncated at %v s before any job finished)", s.EndS))
		} else {
			row("makespan_s", fmt.Sprintf("%v (of the %d jobs finished; truncated at %v s)", s.MakespanS, s.JobsCompleted, s.EndS))
		}
	case s.JobsCompleted == 0:
		undefined := fmt.Sprintf("undefined (no job finished; %d stuck)", s.JobsStuck)
		row("makespan_s", undefined)
		row("mean_wait_s", undefined)
		row("mean_completion_s", undefined)
	default:
		row("makespan_s", s.MakespanS)
	}
	if s.JobsCompleted > 0 || s.Truncated {
		row("mean_wait_s", fmt.Sprintf("%.2f", s.MeanWaitS))
		row("mean_completion_s", fmt.Sprintf("%.2f", s.MeanCompletionS))
	}
	row("jobs completed / stuck / unfinished", fmt.Sprintf("%d / %d / %d", s.JobsCompleted, s.JobsStuck, s.JobsUnfinished))
	row("tasks finished / total", fmt.Sprintf("%d / %d", s.TasksFinished, s.Tasks))
	row("tasks_killed", s.TasksKilled)
	row("wasted_work_s", s.WastedWorkS)
	row("vcores reserved / used (mean)", fmt.Sprintf("%.1f / %.1f", s.VCoresReservedMean, s.VCoresUsedMean))
	row("memory MB reserved / used (mean)", fmt.Sprintf("%.0f / %.0f", s.MemMBReservedMean, s.MemMBUsedMean))
	row("swap_s", s.SwapS)
	row("events", s.Events)
	if len(s.StuckJobs) > 0 {
		row("stuck jobs", strings.Join(s.StuckJobs, " "))
	}
	if s.StuckReason != "" {
		row("stuck because", s.StuckReason)
	}
	tw.Flush()
}

func cmdScenarios(args []string, w io.Writer) error {
	c := newCommand("scenarios", "[NAME]", `Lists the built-in scenarios (name, paper, policy, the trace it replays,
description) and the workload generators; with NAME, prints that built-in's
TOML file whole (a starting point for one of your own).`, "yarngym scenarios swim-hour")
	pos, err := c.parse(args, w)
	if err != nil {
		return err
	}
	switch len(pos) {
	case 0:
	case 1:
		src, err := scenario.BuiltinSource(pos[0])
		if err != nil {
			return usagef("scenarios: %v", err)
		}
		_, err = w.Write(src)
		return err
	default:
		return usagef("scenarios takes at most one NAME, got %d", len(pos))
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tPAPER\tPOLICY\tTRACE\tDESCRIPTION")
	for _, name := range scenario.Builtins() {
		f, err := scenario.Describe(name)
		if err != nil {
			return fmt.Errorf("built-in scenario %s is broken: %w", name, err)
		}
		src, err := scenario.BuiltinSource(name)
		if err != nil {
			return err
		}
		desc := f.Description
		if len(desc) > 100 {
			cut := strings.LastIndex(desc[:100], " ")
			desc = desc[:cut] + " ..."
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", name, f.Paper, f.Policy.Name, traceOf(src), desc)
	}
	tw.Flush()
	fmt.Fprintf(w, "\nTRACE: the trace file a scenario replays (${traces}: shipped with yarngym, data/traces; YARNGYM_TRACES=DIR reads DIR instead).\n")
	fmt.Fprintf(w, "'yarngym scenarios NAME' prints a built-in's whole file.\n")
	fmt.Fprintf(w, "workload generators: %s\n", strings.Join(workload.Names(), ", "))
	return nil
}

// tracePath finds a workload's trace path in a scenario file.
var tracePath = regexp.MustCompile(`(?m)^\s*path\s*=\s*"([^"]+)"`)

// traceOf is the trace a built-in's source names, "-" if none.
func traceOf(src []byte) string {
	if m := tracePath.FindSubmatch(src); m != nil {
		return string(m[1])
	}
	return "-"
}

func cmdPolicies(args []string, w io.Writer) error {
	c := newCommand("policies", "", "Lists the policies with their parameters (default, range, meaning, source) and state variables.", "yarngym policies")
	pos, err := c.parse(args, w)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("policies takes no arguments")
	}
	for _, in := range policies.All() {
		p, err := in.New(base.Spec{})
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%s: %s\n", in.Name, in.Doc)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		params := p.Params.List()
		for _, q := range params {
			fmt.Fprintf(tw, "  %s\tdefault %v\trange [%v, %v]\t%s (%s)\n", q.Name, q.Default, q.Min, q.Max, q.Doc, q.Ref)
		}
		tw.Flush()
		for _, v := range p.State {
			fmt.Fprintf(w, "  state %s: %s\n", v.Name, v.Doc)
		}
	}
	return nil
}
