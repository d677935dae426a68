package main

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strings"

	"yarngym/benchmarks/repro"
	_ "yarngym/benchmarks/repro/all" // registers every paper
	"yarngym/registry"
)

func cmdRepro(args []string, stdout, stderr io.Writer) error {
	c := newCommand("repro", "PAPER|all", "Runs a paper's experiments over seeds and prints each figure the paper reports beside the\n"+
		"simulated mean ± SD and its 95 % interval (changes paired seed by seed), marks each row held (✓) or\n"+
		"not (✗) by the tolerance rule and its direction held (✓) when the interval lies on the paper's side\n"+
		"of zero, and ends with a line counting the headline claims held; all runs every paper and ends\n"+
		"with their tallies.\n"+
		fmt.Sprintf("A claim needs at least %d seeds. Papers: ", repro.MinClaimSeeds)+strings.Join(repro.Names(), ", ")+".",
		`yarngym repro opera --seeds 10 --parallel 2 --format json`)
	seeds := c.fs.Int("seeds", repro.MinClaimSeeds, "seeds per experiment: 1..`N`")
	format := c.fs.String("format", "table", "output `FORMAT`: table or json")
	parallel := c.fs.Int("parallel", runtime.GOMAXPROCS(0), "`K` runs at once")
	pos, err := c.parse(args, stdout)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("repro takes one paper or all: %s", strings.Join(repro.Names(), ", "))
	}
	names := []string{pos[0]}
	if pos[0] == "all" {
		names = repro.Names()
	}
	for _, n := range names {
		if _, ok := repro.Lookup(n); !ok {
			return usagef("repro: unknown paper %q%s (known: %s, or all)", n, registry.DidYouMean(n, repro.Names()), strings.Join(repro.Names(), ", "))
		}
	}
	if *seeds < 1 || *parallel < 1 {
		return usagef("repro: --seeds and --parallel must be at least 1")
	}
	if *format != "table" && *format != "json" {
		return usagef("repro: --format %q is not table or json", *format)
	}
	ctx := repro.Context{Seeds: repro.Seeds(*seeds), Parallel: *parallel, Progress: reproProgress(stderr)}
	all := map[string][]repro.Row{}
	tallies := map[string]repro.Tally{}
	for _, n := range names {
		p, _ := repro.Lookup(n)
		rows, err := p.Run(ctx)
		if isTerminal(stderr) {
			fmt.Fprintln(stderr) // end the redrawn progress line
		}
		if err != nil {
			return err
		}
		all[n], tallies[n] = rows, repro.Count(rows)
		if *format == "table" {
			if len(names) > 1 {
				fmt.Fprintln(stdout)
			}
			repro.WriteTable(stdout, fmt.Sprintf("%s (%d seeds)", p.Title, *seeds), rows)
		}
	}
	switch {
	case *format == "json" && len(names) == 1:
		return repro.WriteJSON(stdout, all[names[0]])
	case *format == "json":
		b, err := json.MarshalIndent(struct {
			Papers  map[string][]repro.Row `json:"papers"`
			Tallies map[string]repro.Tally `json:"tallies"`
		}{all, tallies}, "", "  ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintln(stdout, string(b))
		return err
	case len(names) > 1:
		fmt.Fprintf(stdout, "\nEvery paper (%d seeds)\n", *seeds)
		repro.WriteTallies(stdout, names, tallies)
	}
	return nil
}

// reproProgress reports the runs as they finish: on a terminal one line
// redrawn in place, otherwise a line every reproLogEvery runs (a paper's
// experiments are thousands of runs: a line each would flood a log).
func reproProgress(w io.Writer) func(done, total int, msg string) {
	p := newProgress(w)
	return func(done, total int, msg string) {
		if done == 1 {
			p.restart() // a new sweep: its own pace
		}
		if p.tty || done%reproLogEvery == 0 || done == total {
			p.update(done, total, msg)
		}
	}
}

// reproLogEvery is how many runs a progress line stands for off a terminal
// (the last run of a sweep has its line too).
const reproLogEvery = 100
