package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"yarngym/runner"

	"golang.org/x/term"
)

// isTerminal reports whether w is a terminal (x/term: a character device
// such as /dev/null is not one).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// runProgress shows a run's progress on stderr: on a terminal one line
// redrawn in place, once the run has taken more than half a second; with
// --progress and no terminal a line every 2 seconds; and a last line when
// the run ends (with --progress always, else only if a line was shown). It reads
// the wall clock; the engine never does, and the results do not depend on it.
type runProgress struct {
	w      io.Writer
	tty    bool
	forced bool // --progress
	shown  bool
	last   time.Duration // wall time of the last line
	width  int
}

func (p *runProgress) update(pr runner.Progress) {
	first, every := 2*time.Second, 2*time.Second
	if p.tty {
		first, every = 500*time.Millisecond, 250*time.Millisecond
	}
	switch {
	case pr.Done:
		if !p.forced && !p.shown {
			return
		}
	case !p.shown && pr.Wall < first, p.shown && pr.Wall-p.last < every:
		return
	}
	p.shown, p.last = true, pr.Wall
	line := progressLine(pr)
	if !p.tty {
		fmt.Fprintln(p.w, line)
		return
	}
	pad := max(p.width-len(line), 0)
	p.width = len(line)
	fmt.Fprint(p.w, "\r"+line+strings.Repeat(" ", pad))
	if pr.Done {
		fmt.Fprintln(p.w)
	}
}

// progressLine: "progress: simulated 1234 s of 3600, 12/40 jobs done, 1.23M
// events (3.4M events/s)", and "progress: done at simulated ..." at the end.
func progressLine(pr runner.Progress) string {
	var b strings.Builder
	b.WriteString("progress: ")
	if pr.Done {
		b.WriteString("done at ")
	}
	fmt.Fprintf(&b, "simulated %s s", trimFloat(pr.NowS))
	if pr.MaxS > 0 && !pr.Done {
		fmt.Fprintf(&b, " of %s (run.max_s)", trimFloat(pr.MaxS))
	}
	fmt.Fprintf(&b, ", %d/%d jobs done, %s events", pr.JobsDone, pr.Jobs, si(float64(pr.Events)))
	if pr.Done {
		fmt.Fprintf(&b, " in %.1f s", pr.Wall.Seconds())
	}
	if s := pr.Wall.Seconds(); s > 0 {
		fmt.Fprintf(&b, " (%s events/s)", si(float64(pr.Events)/s))
	}
	return b.String()
}

func trimFloat(x float64) string {
	s := fmt.Sprintf("%.3f", x)
	return strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
}

// si writes x with a k, M or G suffix and 3 significant digits.
func si(x float64) string {
	switch {
	case x >= 1e9:
		return fmt.Sprintf("%.3gG", x/1e9)
	case x >= 1e6:
		return fmt.Sprintf("%.3gM", x/1e6)
	case x >= 1e4:
		return fmt.Sprintf("%.3gk", x/1e3)
	}
	return fmt.Sprintf("%.0f", x)
}

// progress shows a bar on a terminal and plain lines otherwise, each with
// the time left at the pace so far (ETA). It reads the wall clock; what it
// reports on never does.
type progress struct {
	w     io.Writer
	tty   bool
	last  int
	start time.Time
	now   func() time.Time // the clock (tests set it)
}

func newProgress(w io.Writer) *progress {
	return &progress{w: w, tty: isTerminal(w), start: time.Now(), now: time.Now}
}

// restart measures the pace from now on (a new series of steps).
func (p *progress) restart() { p.start = p.now() }

func (p *progress) update(done, total int, what string) {
	eta := ""
	if done > 0 && done < total {
		left := p.now().Sub(p.start) * time.Duration(total-done) / time.Duration(done)
		eta = " ETA " + left.Round(time.Second).String()
	}
	if !p.tty {
		fmt.Fprintf(p.w, "  [%d/%d]%s %s\n", done, total, eta, what)
		return
	}
	const width = 30
	fill := 0
	if total > 0 {
		fill = done * width / total
	}
	line := fmt.Sprintf("\r[%s%s] %d/%d%s %s", strings.Repeat("=", fill), strings.Repeat(" ", width-fill), done, total, eta, what)
	if len(line) > 80 { // one line of a standard terminal, or \r cannot redraw it
		line = line[:80]
	}
	pad := max(p.last-len(line), 0)
	p.last = len(line)
	fmt.Fprint(p.w, line+strings.Repeat(" ", pad))
}

func (p *progress) finish() {
	if p.tty && p.last > 0 {
		fmt.Fprintln(p.w)
	}
}
