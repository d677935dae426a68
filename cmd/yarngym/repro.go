package main

import (
	"fmt"
	"io"
	"runtime"
	"strings"

	"yarngym/benchmarks/repro"
	_ "yarngym/benchmarks/repro/all" // registers every paper
	"yarngym/registry"
)

func cmdRepro(args []string, stdout, stderr io.Writer) error {
	c := newCommand("repro", "PAPER", "Runs a paper's experiments over seeds and prints each figure the paper reports beside the\n"+
		"simulated mean ± SD and its 95 % interval (changes paired seed by seed), marks each row held (✓) or\n"+
		"not (✗) by the tolerance rule, and ends with a line counting the headline claims held.\n"+
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
		return usagef("repro takes one paper: %s", strings.Join(repro.Names(), ", "))
	}
	p, ok := repro.Lookup(pos[0])
	if !ok {
		return usagef("repro: unknown paper %q%s (known: %s)", pos[0], registry.DidYouMean(pos[0], repro.Names()), strings.Join(repro.Names(), ", "))
	}
	if *seeds < 1 || *parallel < 1 {
		return usagef("repro: --seeds and --parallel must be at least 1")
	}
	if *format != "table" && *format != "json" {
		return usagef("repro: --format %q is not table or json", *format)
	}
	ctx := repro.Context{Seeds: repro.Seeds(*seeds), Parallel: *parallel,
		Progress: func(msg string) { fmt.Fprintf(stderr, "  ran %s\n", msg) }}
	rows, err := p.Run(ctx)
	if err != nil {
		return err
	}
	if *format == "json" {
		return repro.WriteJSON(stdout, rows)
	}
	repro.WriteTable(stdout, fmt.Sprintf("%s (%d seeds)", p.Title, *seeds), rows)
	return nil
}
