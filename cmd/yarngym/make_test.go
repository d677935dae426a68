package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestMakeTestShowsProgress: make test runs the Go tests through
// internal/testprogress, which says what is running while a package takes
// long (it printed nothing during the ~30 s of env/scenario).
func TestMakeTestShowsProgress(t *testing.T) {
	mk, err := exec.LookPath("make")
	if err != nil {
		t.Fatalf("no make: %v", err)
	}
	b, err := exec.Command(mk, "-n", "-C", filepath.Join("..", ".."), "gotest", "GO=go").CombinedOutput()
	if err != nil {
		t.Fatalf("make -n gotest: %v\n%s", err, b)
	}
	if !regexp.MustCompile(`go test -json (-timeout \S+ )?\./\.\.\. \| go run \./internal/testprogress`).Match(b) || !strings.Contains(string(b), "pipefail") {
		t.Fatalf("make gotest does not run go test through internal/testprogress:\n%s", b)
	}
}

// TestMakeDemoSaysWhereOnce: `make demo` names each output folder and the
// report once (the Makefile echoed them again after yarngym had).
func TestMakeDemoSaysWhereOnce(t *testing.T) {
	mk, err := exec.LookPath("make")
	if err != nil {
		t.Fatalf("no make to run the demo with: %v", err)
	}
	tmp := t.TempDir()
	out := filepath.Join(tmp, "demo")
	cmd := exec.Command(mk, "-s", "-C", filepath.Join("..", ".."), "demo", "BIN="+filepath.Join(tmp, "yarngym"), "DEMO_OUT="+out)
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make demo: %v\n%s", err, b)
	}
	text := string(b)
	for _, p := range []string{filepath.Join(out, "opera-mr"), filepath.Join(out, "quick", "report.html")} {
		if n := strings.Count(text, p); n != 1 {
			t.Errorf("make demo names %s %d times, want once:\n%s", p, n, text)
		}
	}
	for _, f := range []string{"opera-mr/summary.json", "quick/report.html"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("make demo did not write %s: %v", f, err)
		}
	}
}
