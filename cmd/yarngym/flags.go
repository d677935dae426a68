package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"yarngym/registry"
)

// command is one subcommand's flags and help. Every subcommand parses its
// arguments through one, so each gets, for free:
//
//   - `yarngym CMD --help` (or -h, -help, `yarngym help CMD`): the usage
//     line, what the command does, its flags with their defaults and an
//     example, on stdout, exit status 0;
//   - flags before or after the positional arguments;
//   - errors that say what a flag wants (`--seed -1: want a whole number
//     from 0 to ...`) and the nearest flag for an unknown one, exit status 2.
//
// A new subcommand:
//
//	c := newCommand("tasks", "[NAME]", "Lists the tasks ...", "yarngym tasks quick")
//	n := c.fs.Int("seeds", 3, "seeds per task")
//	pos, err := c.parse(args, stdout)
//	if err != nil {
//		return err // flag.ErrHelp after --help: run() exits 0
//	}
type command struct {
	fs      *flag.FlagSet
	name    string
	args    string // positional arguments in the usage line, e.g. "SCENARIO"
	about   string
	example string
	bad     *flagError
}

// flagError is a flag value its flag refused.
type flagError struct{ name, value, why string }

func newCommand(name, args, about, example string) *command {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return &command{fs: fs, name: name, args: args, about: about, example: example}
}

// parse parses args (flags may follow positional arguments; "--" ends the
// flags). After --help it prints the help on stdout and returns
// flag.ErrHelp; bad flags are usage errors naming the flag and the reason.
func (c *command) parse(args []string, stdout io.Writer) ([]string, error) {
	takesValue := map[string]bool{}
	c.fs.VisitAll(func(f *flag.Flag) {
		takesValue[f.Name] = !isBool(f.Value)
		if _, ok := f.Value.(*checkedValue); !ok {
			f.Value = &checkedValue{Value: f.Value, name: f.Name, c: c}
		}
	})
	pos, flags := splitArgs(args, takesValue)
	err := c.fs.Parse(flags)
	switch {
	case err == nil:
		return append(pos, c.fs.Args()...), nil
	case errors.Is(err, flag.ErrHelp):
		c.printHelp(stdout)
		return nil, flag.ErrHelp
	case c.bad != nil:
		return nil, usagef("%s: --%s %s: %s", c.name, c.bad.name, c.bad.value, c.bad.why)
	}
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		name = strings.TrimLeft(name, "-")
		hint := ""
		if near := registry.Nearest(name, c.flagNames()); near != "" {
			hint = fmt.Sprintf("did you mean --%s? ", near)
		}
		return nil, usagef("%s: unknown flag --%s (%ssee 'yarngym %s --help')", c.name, name, hint, c.name)
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: "); ok {
		return nil, usagef("%s: --%s needs a value (see 'yarngym %s --help')", c.name, strings.TrimLeft(name, "-"), c.name)
	}
	return nil, usagef("%s: %v", c.name, err)
}

// set reports whether the flag was given on the command line.
func (c *command) set(name string) bool {
	found := false
	c.fs.Visit(func(f *flag.Flag) { found = found || f.Name == name })
	return found
}

func (c *command) flagNames() []string {
	var n []string
	c.fs.VisitAll(func(f *flag.Flag) { n = append(n, f.Name) })
	return append(n, "help")
}

// printHelp writes the usage line, what the command does, its flags and an
// example.
func (c *command) printHelp(w io.Writer) {
	line := "yarngym " + c.name
	if c.args != "" {
		line += " " + c.args
	}
	fmt.Fprintf(w, "usage: %s [flags]\n\n%s\n\nflags:\n", line, strings.TrimSpace(c.about))
	var fl []*flag.Flag
	c.fs.VisitAll(func(f *flag.Flag) { fl = append(fl, f) })
	tw := tabwriter.NewWriter(w, 0, 0, 3, ' ', 0)
	for _, f := range fl {
		arg, usage := flag.UnquoteUsage(f)
		name := "--" + f.Name
		if !isBool(f.Value) {
			name += " " + strings.ToUpper(arg)
		}
		if d := f.DefValue; d != "" && d != "0" && d != "false" && d != "[]" {
			usage += fmt.Sprintf(" (default %s)", d)
		}
		fmt.Fprintf(tw, "  %s\t%s\n", name, usage)
	}
	fmt.Fprintf(tw, "  -h, --help\tshow this help\n")
	tw.Flush()
	if c.example != "" {
		fmt.Fprintf(w, "\nexample:\n")
		for _, ex := range strings.Split(strings.TrimSpace(c.example), "\n") {
			fmt.Fprintf(w, "  %s\n", strings.TrimSpace(ex))
		}
	}
}

func isBool(v flag.Value) bool {
	b, ok := v.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// checkedValue wraps a flag's value so that a refused value says what the
// flag wants rather than the flag package's "parse error".
type checkedValue struct {
	flag.Value
	name string
	c    *command
}

func (v *checkedValue) IsBoolFlag() bool { return isBool(v.Value) }

func (v *checkedValue) Set(s string) error {
	err := v.Value.Set(s)
	if err == nil {
		return nil
	}
	why := err.Error()
	if g, ok := v.Value.(flag.Getter); ok {
		switch g.Get().(type) {
		case uint64, uint:
			why = fmt.Sprintf("want a whole number from 0 to %d", uint64(math.MaxUint64))
		case int, int64:
			why = "want a whole number"
		case float64:
			why = "want a number"
		case bool:
			why = "want true or false"
		}
	}
	if v.c.bad == nil {
		shown := s
		if strings.TrimSpace(s) != s || s == "" {
			shown = fmt.Sprintf("%q", s)
		}
		v.c.bad = &flagError{name: v.name, value: shown, why: why}
	}
	return errors.New(why)
}

// nearestCommand is "; did you mean X?" for the command nearest to name
// among those the usage lists, or "".
func nearestCommand(name string) string {
	var cmds []string
	for _, line := range strings.Split(usage, "\n") {
		if rest, ok := strings.CutPrefix(line, "  yarngym "); ok {
			cmds = append(cmds, strings.Fields(rest)[0])
		}
	}
	return registry.DidYouMean(name, cmds)
}
