// Command testprogress shows what `go test -json` is doing, for `make
// test`: a line per package as it finishes (as go test prints them), the
// output of failing tests and of failed builds, and, whenever nothing was
// printed for a while, which tests are running in which package, so that a
// long package (env/scenario runs every built-in scenario with invariants
// checked after every event) does not look hung. It exits 1 when a test or
// a build failed.
//
//	go test -json ./... | go run ./internal/testprogress
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"
)

func main() {
	r := newReporter(os.Stdout, 5*time.Second, time.Now())
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(os.Stdin)
		sc.Buffer(make([]byte, 1<<20), 1<<26)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case line, ok := <-lines:
			if !ok {
				os.Exit(r.exitCode())
			}
			r.line(line, time.Now())
		case now := <-tick.C:
			r.tick(now)
		}
	}
}

// event is one line of go test -json (cmd/test2json), or of go build's
// JSON build output.
type event struct {
	Action     string
	Package    string
	Test       string
	Output     string
	Elapsed    float64
	ImportPath string
}

type pkg struct {
	running map[string]bool     // tests running (not paused)
	active  map[string]bool     // tests started and not ended (running or paused)
	output  map[string][]string // output of tests not yet passed, by test ("" the package's own)
	passed  int
}

type reporter struct {
	w      io.Writer
	every  time.Duration
	last   time.Time // when something was last printed
	pkgs   map[string]*pkg
	failed bool
}

func newReporter(w io.Writer, every time.Duration, now time.Time) *reporter {
	return &reporter{w: w, every: every, last: now, pkgs: map[string]*pkg{}}
}

func (r *reporter) printf(now time.Time, format string, a ...any) {
	fmt.Fprintf(r.w, format, a...)
	r.last = now
}

// line handles one line of input; a line that is not JSON is printed as is.
func (r *reporter) line(s string, now time.Time) {
	var e event
	if err := json.Unmarshal([]byte(s), &e); err != nil || (e.Action == "" && e.ImportPath == "") {
		r.printf(now, "%s\n", s)
		return
	}
	r.handle(e, now)
}

func (r *reporter) handle(e event, now time.Time) {
	switch e.Action {
	case "build-output":
		r.printf(now, "%s", e.Output)
		return
	case "build-fail":
		r.failed = true
		return
	}
	p := r.pkgs[e.Package]
	if p == nil {
		p = &pkg{running: map[string]bool{}, active: map[string]bool{}, output: map[string][]string{}}
		r.pkgs[e.Package] = p
	}
	switch e.Action {
	case "output":
		p.output[e.Test] = append(p.output[e.Test], e.Output)
	case "run", "cont":
		p.running[e.Test], p.active[e.Test] = true, true
	case "pause":
		delete(p.running, e.Test)
	case "pass", "skip", "fail":
		if e.Test != "" {
			delete(p.running, e.Test)
			delete(p.active, e.Test)
			if e.Action == "fail" {
				return // its output is printed with the package's result
			}
			delete(p.output, e.Test)
			if e.Action == "pass" {
				p.passed++
			}
			return
		}
		r.finish(e, p, now)
	}
}

// finish prints a package's result line, after the output of its failed
// tests when it failed.
func (r *reporter) finish(e event, p *pkg, now time.Time) {
	defer delete(r.pkgs, e.Package)
	switch {
	case e.Action == "fail":
		r.failed = true
		var tests []string
		for t := range p.output {
			tests = append(tests, t)
		}
		sort.Strings(tests)
		for _, t := range tests {
			for _, o := range p.output[t] {
				if t == "" && (strings.HasPrefix(o, "FAIL\t") || strings.HasPrefix(o, "ok  \t")) {
					continue // the summary line, printed below
				}
				r.printf(now, "%s", o)
			}
		}
		r.printf(now, "FAIL\t%s\t%.3fs\n", e.Package, e.Elapsed)
	case e.Action == "skip":
		r.printf(now, "?   \t%s\t[no test files]\n", e.Package)
	default:
		for _, o := range p.output[""] { // go test's own line, e.g. with "(cached)"
			if strings.HasPrefix(o, "ok  \t") {
				r.printf(now, "%s", o)
				return
			}
		}
		r.printf(now, "ok  \t%s\t%.3fs\n", e.Package, e.Elapsed)
	}
}

// tick says which tests are running when nothing was printed for r.every.
func (r *reporter) tick(now time.Time) {
	if now.Sub(r.last) < r.every {
		return
	}
	var names []string
	for name, p := range r.pkgs {
		if len(leafTests(p.running, p.active)) > 0 {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		p := r.pkgs[name]
		leaves := leafTests(p.running, p.active)
		more := ""
		if len(leaves) > 3 {
			more = fmt.Sprintf(" and %d more", len(leaves)-3)
			leaves = leaves[:3]
		}
		r.printf(now, "  ... %s: %d tests passed so far; running %s%s\n", name, p.passed, strings.Join(leaves, ", "), more)
	}
	r.last = now
}

// leafTests are the running tests without a subtest that has started and
// not ended (a parent waiting for its parallel subtests is not doing the
// work), sorted.
func leafTests(running, active map[string]bool) []string {
	var out []string
	for t := range running {
		leaf := true
		for u := range active {
			if strings.HasPrefix(u, t+"/") {
				leaf = false
				break
			}
		}
		if leaf {
			out = append(out, t)
		}
	}
	sort.Strings(out)
	return out
}

func (r *reporter) exitCode() int {
	if r.failed {
		return 1
	}
	return 0
}
