package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutDirCheckedFirst: an --out that cannot take the results is refused
// before any run, with exit 2 and nothing written (issue 29: run --out over
// a bench folder overwrote part of it, bench --out FILE failed only after
// every run, with exit 1).
func TestOutDirCheckedFirst(t *testing.T) {
	bench := t.TempDir()
	if err := os.WriteFile(filepath.Join(bench, "runs.csv"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "out.json")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "quick", "--out", bench}, "holds a bench's results"},
		{[]string{"bench", "quick", "--seeds", "1", "--out", file}, "is a file"},
	} {
		var out, errb bytes.Buffer
		code := run(c.args, &out, &errb)
		if code != 2 || !strings.Contains(errb.String(), c.want) || strings.Contains(errb.String(), "[1/") {
			t.Errorf("%v: exit %d, %q (want 2, %q, and no run)", c.args, code, errb.String(), c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(bench, "summary.json")); err == nil {
		t.Error("run wrote into the bench folder")
	}
}
