package main

import (
	"fmt"
	"io"
	"runtime/debug"
)

// Version is yarngym's release (the Python package's, pyproject.toml).
const Version = "0.1.0"

// versionLine is what --version prints: the release, the commit the binary
// was built from when the build recorded it (a "+dirty" suffix for
// uncommitted changes), and the Go toolchain.
func versionLine() string {
	rev, dirty := "", false
	info, ok := debug.ReadBuildInfo()
	goVersion := "unknown Go"
	if ok {
		goVersion = info.GoVersion
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev == "" {
		rev = "commit unknown"
	} else if dirty {
		rev += "+dirty"
	}
	return fmt.Sprintf("yarngym %s (%s, %s)\n", Version, rev, goVersion)
}

func cmdVersion(stdout io.Writer) error {
	_, err := io.WriteString(stdout, versionLine())
	return err
}
