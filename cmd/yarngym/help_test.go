package main

import (
	"regexp"
	"strings"
	"testing"

	"yarngym/env/task"
)

// subcommands are the commands the top-level usage lists ("  yarngym CMD ..."),
// so a command added there is checked here too.
func subcommands(t *testing.T) []string {
	t.Helper()
	var out []string
	seen := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^  yarngym (\w+)`).FindAllStringSubmatch(usage, -1) {
		if !seen[m[1]] {
			seen[m[1]] = true
			out = append(out, m[1])
		}
	}
	if len(out) < 6 {
		t.Fatalf("usage lists %d commands: %v", len(out), out)
	}
	return out
}

// TestHelpEverySubcommand: `yarngym CMD --help` (and -h, -help, and
// `yarngym help CMD`) prints the command's usage line, its flags and an
// example on stdout and exits 0 (it printed "flag: help requested" and
// exited 2). Runs the built binary.
func TestHelpEverySubcommand(t *testing.T) {
	for _, cmd := range subcommands(t) {
		var first string
		for _, args := range [][]string{{cmd, "--help"}, {cmd, "-h"}, {cmd, "-help"}, {"help", cmd}} {
			code, stdout, stderr := runBin(t, "", args...)
			if code != 0 || stderr != "" {
				t.Fatalf("%v: exit %d, stderr %q; want exit 0 and nothing on stderr", args, code, stderr)
			}
			for _, want := range []string{"usage: yarngym " + cmd, "\nflags:\n", "  -h, --help", "\nexample:\n  yarngym " + cmd} {
				if !strings.Contains(stdout, want) {
					t.Fatalf("%v: help lacks %q:\n%s", args, want, stdout)
				}
			}
			// A task the example names is a registered one (evaluate's
			// example named a task that was never registered).
			for _, id := range regexp.MustCompile(`\b[A-Za-z0-9-]+-v\d+\b`).FindAllString(stdout[strings.Index(stdout, "\nexample:\n"):], -1) {
				if _, err := task.Lookup(id); err != nil {
					t.Fatalf("%v: the example names task %s: %v", args, id, err)
				}
			}
			if first == "" {
				first = stdout
			} else if stdout != first {
				t.Fatalf("%v prints another help than %s --help:\n%s", args, cmd, stdout)
			}
		}
	}
	// run's help lists every flag run takes, with its value and default.
	_, stdout, _ := runBin(t, "", "run", "--help")
	for _, want := range []string{"--policy NAME", "--set KEY=VALUE", "--seed SEED", "--out DIR", "--format FORMAT", "(default table)"} {
		if !strings.Contains(stdout, want) {
			t.Fatalf("run --help lacks %q:\n%s", want, stdout)
		}
	}
	// flags after the positional argument: still help, nothing runs.
	if code, stdout, _ := runBin(t, "", "run", "quick", "--help"); code != 0 || !strings.HasPrefix(stdout, "usage: yarngym run") {
		t.Fatalf("run quick --help: exit %d\n%s", code, stdout)
	}
}

// TestFlagErrors: a refused flag value says what the flag wants (it said
// "parse error"), and an unknown flag gets the nearest one.
func TestFlagErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "quick", "--seed", "-1"}, "yarngym: run: --seed -1: want a whole number from 0 to 18446744073709551615\n"},
		{[]string{"run", "quick", "--seed"}, "yarngym: run: --seed needs a value (see 'yarngym run --help')\n"},
		{[]string{"run", "quick", "--sed", "3"}, "yarngym: run: unknown flag --sed (did you mean --seed? see 'yarngym run --help')\n"},
		{[]string{"bench", "quick", "--seeds", "x"}, "yarngym: bench: --seeds x: want a whole number\n"},
		{[]string{"bench", "quick", "--timeline", "often"}, "yarngym: bench: --timeline often: want a number\n"},
	} {
		code, stdout, stderr := runBin(t, "", c.args...)
		if code != 2 || stderr != c.want || stdout != "" {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", c.args, code, stderr, c.want)
		}
	}
}
