package main

import (
	"bytes"
	"regexp"
	"testing"
)

// TestVersion: --version (and version) print the release, the build's
// commit and the Go toolchain, and exit 0 (issue 29: there was none).
func TestVersion(t *testing.T) {
	for _, arg := range []string{"--version", "version"} {
		var out, errb bytes.Buffer
		if code := run([]string{arg}, &out, &errb); code != 0 {
			t.Fatalf("%s: exit %d, stderr %q", arg, code, errb.String())
		}
		if !regexp.MustCompile(`^yarngym \d+\.\d+\.\d+ \(.+, go\S+\)\n$`).MatchString(out.String()) {
			t.Errorf("%s: %q", arg, out.String())
		}
	}
}
