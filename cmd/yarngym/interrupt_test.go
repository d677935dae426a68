package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestInterruptLeavesWholeFiles: Ctrl-C (SIGINT) during yarngym learn,
// once its first learner's results are written and while the second
// trains, and during yarngym bench, ends the command with status 130 and
// a message; every file left is complete (JSON parses, CSV parses, HTML
// ends), none is a temporary one, and what was not finished is absent.
func TestInterruptLeavesWholeFiles(t *testing.T) {
	for _, c := range []struct {
		name  string
		args  []string
		ready string // interrupt once this file exists ("" : after a moment)
	}{
		{"learn", []string{"learn", "AutoAdmin66-Fair-v0", "--algo", "grid,random", "--budget", "grid=3,random=400", "--train-seeds", "4"},
			"AutoAdmin66-Fair-v0/grid/report.html"},
		{"bench", []string{"bench", "papers", "--seeds", "2", "--parallel", "1"}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			cmd := exec.Command(binary(t), append(c.args, "--out", out)...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(2 * time.Minute)
			if c.ready != "" {
				for {
					if _, err := os.Stat(filepath.Join(out, c.ready)); err == nil {
						break
					}
					if time.Now().After(deadline) {
						cmd.Process.Kill()
						t.Fatalf("%s never appeared: %s", c.ready, stderr.String())
					}
					time.Sleep(20 * time.Millisecond)
				}
			} else {
				time.Sleep(time.Second)
			}
			if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 130 || !strings.Contains(stderr.String(), "interrupted") {
				t.Fatalf("after SIGINT: %v, stderr %q; want exit 130 and a message", err, stderr.String())
			}
			checkWholeFiles(t, out)
			if c.name == "learn" {
				if _, err := os.Stat(filepath.Join(out, "AutoAdmin66-Fair-v0/random/eval.json")); err == nil {
					t.Error("the interrupted learner's evaluation was written")
				}
			}
		})
	}
}

// checkWholeFiles fails t on any file under dir that is temporary or not
// whole.
func checkWholeFiles(t *testing.T, dir string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) && path == dir {
			return filepath.SkipDir // nothing written at all: fine
		}
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		name := d.Name()
		switch {
		case strings.HasSuffix(name, ".tmp"):
			t.Errorf("%s: a temporary file is left", path)
		case strings.HasSuffix(name, ".json"):
			if !json.Valid(data) {
				t.Errorf("%s: not whole JSON", path)
			}
		case strings.HasSuffix(name, ".csv"):
			if _, err := csv.NewReader(bytes.NewReader(data)).ReadAll(); err != nil {
				t.Errorf("%s: %v", path, err)
			}
		case strings.HasSuffix(name, ".html"):
			if !strings.HasSuffix(strings.TrimSpace(string(data)), "</html>") {
				t.Errorf("%s: does not end with </html>", path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
