package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// The CLI tests below run the real binary, built once per test process from
// this package into a temporary folder (removed by TestMain).
var (
	binOnce sync.Once
	binDir  string
	binPath string
	binErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// binary returns the path of the yarngym binary built from this package,
// or $YARNGYM_TEST_BIN when set (to run these tests against another build,
// e.g. one of an older commit: they should fail there).
func binary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		if p := os.Getenv("YARNGYM_TEST_BIN"); p != "" {
			binPath = p
			return
		}
		goTool, err := exec.LookPath("go")
		if err != nil {
			binErr = errors.New("no go tool on PATH to build the binary: " + err.Error())
			return
		}
		if binDir, binErr = os.MkdirTemp("", "yarngym-bin-"); binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "yarngym")
		out, err := exec.Command(goTool, "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			binErr = errors.New("go build: " + err.Error() + "\n" + string(out))
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

// runBin runs the built binary with args in dir (the working directory; ""
// for the test's own) and returns its exit status and output.
func runBin(t *testing.T, dir string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(binary(t), args...)
	cmd.Dir = dir
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatalf("running %v: %v", args, err)
	}
	return code, o.String(), e.String()
}

// writeFile writes text to dir/name, making the folders on the way.
func writeFile(t *testing.T, dir, name, text string) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
