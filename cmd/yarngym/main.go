// Command yarngym runs yarngym's scenarios and lists what it has.
//
//	yarngym run SCENARIO [--policy NAME] [--set key=value ...] [--seed N] [--out DIR] [--format table|json] [--progress] [--controller MODEL]
//	yarngym repro PAPER [--seeds N] [--format table|json] [--parallel K]
//	yarngym bench SUITE [--seeds N] [--out DIR] [--parallel K] [--timeline S]
//	yarngym report RESULTS_DIR
//	yarngym scenarios
//	yarngym policies
//	yarngym tasks [--format table|json]
//	yarngym baselines TASK|all [--workers K] [--write DIR] [--grid] [--format table|json]
//	yarngym learn TASK[,TASK...]|all [--algo grid|random|cmaes|bo|ppo[,...]] [--budget N|ALGO=N,...] [--seed S] [--out DIR]
//	yarngym evaluate TASK --model DIR
//	yarngym export SCENARIO [--policy fair|capacity] [--seed N] [--out FILE]
//	yarngym oracle SCENARIO [--policy fair|capacity] [--seed N] [--out DIR]
//	yarngym --version
//
// 'yarngym COMMAND --help' prints a command's flags and an example (see
// command in flags.go: a new subcommand parses its flags through one).
// SCENARIO is a built-in scenario name or a TOML file. Exit status: 0 on
// success (a run that ends with stuck jobs reports them and still succeeds),
// 2 on bad input, 1 when the run itself fails.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"yarngym/benchmarks/suite"

	"yarngym/internal/atomicfile"
)

// usageError is bad input on the command line: exit 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return &usageError{fmt.Sprintf(format, a...)} }

// usage is the command's help; the bench suites are listed from their
// registry, so a new suite shows here.
var usage = strings.Replace(usageText, "SUITES", strings.Join(suite.Names(), ", "), 1)

const usageText = `usage:
  yarngym run SCENARIO [--policy NAME] [--set key=value ...] [--seed N] [--out DIR] [--format table|json] [--progress] [--controller MODEL]
  yarngym repro PAPER|all [--seeds N] [--format table|json] [--parallel K]
  yarngym bench SUITE|FILE.toml [--seeds N] [--out DIR] [--parallel K] [--timeline S]
  yarngym report RESULTS_DIR
  yarngym scenarios
  yarngym policies
  yarngym tasks [--format table|json]
  yarngym baselines TASK|all [--workers K] [--write DIR] [--grid] [--format table|json]
  yarngym learn TASK[,TASK...]|all [--algo grid|random|cmaes|bo|ppo[,...]] [--budget N|ALGO=N,...] [--seed S] [--out DIR]
  yarngym evaluate TASK --model DIR [--set workload.KEY=VALUE ...] [--split train|validation|test] [--format table|json]
  yarngym export SCENARIO [--policy fair|capacity] [--seed N] [--out FILE]
  yarngym oracle SCENARIO [--policy fair|capacity] [--seed N] [--out DIR]
  yarngym --version

SCENARIO is a built-in scenario (see 'yarngym scenarios') or a TOML file.
--set NAME=VALUE sets a policy parameter (see 'yarngym policies');
--set a.b.c=VALUE sets a key of the scenario file (e.g. workload.options.jobs=72).
bench runs every (scenario, policy, seed) of a suite (SUITES) and writes CSV,
summary.json and report.html to --out
(default out/bench/SUITE); report rebuilds report.html from such a folder.
'yarngym COMMAND --help' lists a command's flags with an example.
`

func main() {
	// Ctrl-C ends a command after the file being written, if any, is
	// complete: results already written stay readable, none is half-written.
	atomicfile.OnInterrupt(os.Stderr, "yarngym: interrupted: the files written so far are complete; the rest were not written")
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is main without the process: it returns the exit status.
func run(args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "yarngym: internal error: %v\n", r)
			code = 1
		}
	}()
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "run":
		err = cmdRun(args[1:], stdout, stderr)
	case "repro":
		err = cmdRepro(args[1:], stdout, stderr)
	case "bench":
		err = cmdBench(args[1:], stdout, stderr)
	case "report":
		err = cmdReport(args[1:], stdout)
	case "scenarios":
		err = cmdScenarios(args[1:], stdout)
	case "policies":
		err = cmdPolicies(args[1:], stdout)
	case "tasks":
		err = cmdTasks(args[1:], stdout)
	case "baselines":
		err = cmdBaselines(args[1:], stdout, stderr)
	case "learn":
		err = cmdLearn(args[1:], stdout, stderr)
	case "evaluate":
		err = cmdEvaluate(args[1:], stdout)
	case "export":
		err = cmdExport(args[1:], stdout)
	case "oracle":
		err = cmdOracle(args[1:], stdout, stderr)
	case "version", "--version":
		err = cmdVersion(stdout)
	case "help", "-h", "--help":
		if len(args) > 1 { // yarngym help CMD is yarngym CMD --help
			return run([]string{args[1], "--help"}, stdout, stderr)
		}
		fmt.Fprint(stdout, usage)
		return 0
	default:
		err = usagef("unknown command %q%s\n%s", args[0], nearestCommand(args[0]), usage)
	}
	if err == nil || errors.Is(err, flag.ErrHelp) { // a command's --help printed its help
		return 0
	}
	fmt.Fprintf(stderr, "yarngym: %v\n", err)
	var ue *usageError
	if errors.As(err, &ue) || isInputError(err) {
		return 2
	}
	return 1
}

// splitArgs separates positional arguments from flags so that flags may
// follow the positional ones (yarngym run quick --seed 2).
func splitArgs(args []string, takesValue map[string]bool) (pos, flags []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			flags = append(flags, a)
			name := strings.TrimLeft(a, "-")
			if !strings.Contains(name, "=") && takesValue[name] && i+1 < len(args) {
				flags = append(flags, args[i+1])
				i++
			}
			continue
		}
		pos = append(pos, a)
	}
	return pos, flags
}
