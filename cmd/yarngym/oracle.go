package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"text/tabwriter"

	"yarngym/benchmarks/report"
	"yarngym/env/scenario"
	"yarngym/oracle"

	"yarngym/internal/atomicfile"
)

func cmdExport(args []string, stdout io.Writer) error {
	c := newCommand("export", "SCENARIO", `Writes the realised workload of one run of SCENARIO as the oracle's exchange
document (oracle/FORMAT.md): the cluster with its racks and heartbeat phases,
every job with every task's sampled duration and its map's replicas, and the
stock scheduler's settings as Hadoop configuration keys and fair-scheduler.xml.
The policy must be fair or capacity and the model uncontended
(model.contention = false).`,
		`yarngym export oracle/scenarios/mr.toml --seed 3 --policy capacity --out mr.json`)
	policy, out, load := oracleFlags(c, "`FILE` to write (default: standard output)")
	sc, s, err := load(args, stdout)
	if err != nil {
		return err
	}
	doc, err := oracle.ExportScenario(sc, *policy, s)
	if err != nil {
		return err
	}
	b, err := json.MarshalIndent(doc, "", " ")
	if err != nil {
		return err
	}
	b = append(b, '\n')
	if *out == "" {
		_, err = stdout.Write(b)
		return err
	}
	return atomicfile.Write(*out, b)
}

func cmdOracle(args []string, stdout, stderr io.Writer) error {
	c := newCommand("oracle", "SCENARIO", `Runs SCENARIO in yarngym and, from the same realised workload, in Hadoop
3.3.6's own FairScheduler or CapacityScheduler (the driver in oracle/, built by
'make oracle'), and prints each job's completion time on both sides, the
share of jobs within 10 % of Hadoop's and the ratio of the mean completion
times. --out DIR keeps both sides' jobs.csv and tasks.csv, the exchange
document, compare.csv and report.html (the two completion-time CDFs).`,
		`yarngym oracle oracle/scenarios/mr.toml --policy capacity --seed 2 --out out/oracle/mr`)
	policy, out, load := oracleFlags(c, "`DIR` for both sides' results and the report (default: a temporary folder, removed)")
	sc, s, err := load(args, stdout)
	if err != nil {
		return err
	}
	d, err := oracle.FindDriver()
	if err != nil {
		return err
	}
	dir := *out
	if dir == "" {
		if dir, err = os.MkdirTemp("", "yarngym-oracle-"); err != nil {
			return err
		}
		defer os.RemoveAll(dir)
	}
	res, err := oracle.Run(sc, *policy, s, d, dir)
	if err != nil {
		return err
	}
	printComparison(stdout, res)
	if *out == "" {
		return nil
	}
	if err := writeComparison(filepath.Join(dir, "compare.csv"), res.Comparison); err != nil {
		return err
	}
	page, err := report.BuildOracle(res)
	if err != nil {
		return err
	}
	if err := atomicfile.Write(filepath.Join(dir, report.File), page); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "results in %s (yarngym/, hadoop/, export.json, compare.csv, %s)\n", dir, report.File)
	return nil
}

func printComparison(w io.Writer, r *oracle.Result) {
	c := r.Comparison
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "job\tname\tyarngym_s\thadoop_s\tratio\twithin 10 %\t")
	for _, row := range c.Rows {
		mark := ""
		if row.Within {
			mark = "yes"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t\n", row.ID, row.Name, secsOr(row.YarngymS, row.YarngymSt), secsOr(row.HadoopS, row.HadoopSt),
			fmt.Sprintf("%.3f", row.Ratio), mark)
	}
	tw.Flush()
	fmt.Fprintf(w, "%s under %s, seed %d: %d of %d jobs within 10 %% of Hadoop (%.0f %%); mean completion yarngym/Hadoop %.3f (per-job ratio %.3f ± %.3f s.e.)\n",
		r.Scenario, r.Policy, r.Seed, c.Within, len(c.Rows), 100*c.Share, c.MeanRatio, c.MeanPerJobRatio, c.PerJobRatioSE)
}

func secsOr(x float64, state string) string {
	if math.IsNaN(x) {
		return state
	}
	return fmt.Sprintf("%.3f", x)
}

func writeComparison(path string, c *oracle.Comparison) error {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	_ = w.Write([]string{"job", "name", "yarngym_completion_s", "hadoop_completion_s", "ratio", "within"})
	for _, r := range c.Rows {
		_ = w.Write([]string{fmt.Sprint(r.ID), r.Name, fmt.Sprintf("%.3f", r.YarngymS), fmt.Sprintf("%.3f", r.HadoopS), fmt.Sprintf("%.6f", r.Ratio), fmt.Sprint(r.Within)})
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return err
	}
	return atomicfile.Write(path, buf.Bytes())
}

// oracleFlags declares export's and oracle's shared flags (--policy, --set,
// --seed, and --out with outDoc) and returns a loader that parses args and
// loads the one SCENARIO with the overrides, with the seed to use.
func oracleFlags(c *command, outDoc string) (policy, out *string, load func(args []string, stdout io.Writer) (*scenario.Scenario, uint64, error)) {
	policy = c.fs.String("policy", "", "policy `NAME`: fair or capacity (default: the scenario's)")
	var sets multiFlag
	c.fs.Var(&sets, "set", "`KEY=VALUE` override of a policy parameter or a scenario key (repeatable)")
	seed := c.fs.Uint64("seed", 0, "random `SEED` (default: the scenario's)")
	out = c.fs.String("out", "", outDoc)
	load = func(args []string, stdout io.Writer) (*scenario.Scenario, uint64, error) {
		pos, err := c.parse(args, stdout)
		if err != nil {
			return nil, 0, err
		}
		if len(pos) != 1 {
			return nil, 0, usagef("%s takes one SCENARIO, got %d arguments (see 'yarngym %s --help')", c.name, len(pos), c.name)
		}
		sc, err := scenario.Load(pos[0], sets)
		if err != nil {
			return nil, 0, err
		}
		if c.set("seed") {
			return sc, *seed, nil
		}
		return sc, sc.File.Seed, nil
	}
	return policy, out, load
}
