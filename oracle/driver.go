package oracle

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Driver runs the Maven module's driver (yarngym.oracle.Main) in a JVM.
type Driver struct {
	// Dir is the module's folder (the one holding pom.xml); its build is
	// in Dir/target (make oracle).
	Dir string
	// Java is the java command ("java" when empty).
	Java string
}

// FindDriver locates the module: $YARNGYM_ORACLE if set, else an oracle/
// folder holding pom.xml in the working directory or one of its parents, or
// the working directory itself when it is that folder.
func FindDriver() (*Driver, error) {
	if d := os.Getenv("YARNGYM_ORACLE"); d != "" {
		return checkDriver(d)
	}
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		for _, c := range []string{filepath.Join(dir, "oracle"), dir} {
			if _, err := os.Stat(filepath.Join(c, "pom.xml")); err == nil && filepath.Base(c) == "oracle" {
				return checkDriver(c)
			}
		}
		if filepath.Dir(dir) == dir {
			return nil, errors.New("no oracle/ module found from the working directory (set YARNGYM_ORACLE to its folder)")
		}
	}
}

func checkDriver(dir string) (*Driver, error) {
	if _, err := os.Stat(filepath.Join(dir, "target", "classes", "yarngym", "oracle", "Main.class")); err != nil {
		return nil, fmt.Errorf("the oracle driver in %s is not built: run `make oracle` (Maven, Java 17)", dir)
	}
	return &Driver{Dir: dir}, nil
}

// Run writes doc to dir/export.json and has the driver replay it into
// dir/hadoop/ (jobs.csv, tasks.csv). It returns Hadoop's jobs and the
// driver's cost line (stderr: start-up and containers/s, wall clock).
func (d *Driver) Run(doc *Document, dir string) (jobs []JobTime, cost string, err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, "", err
	}
	in := filepath.Join(dir, "export.json")
	b, err := json.MarshalIndent(doc, "", " ")
	if err != nil {
		return nil, "", err
	}
	if err := os.WriteFile(in, b, 0o644); err != nil {
		return nil, "", err
	}
	out := filepath.Join(dir, "hadoop")
	java := d.Java
	if java == "" {
		java = "java"
	}
	cp := filepath.Join(d.Dir, "target", "classes") + string(os.PathListSeparator) + filepath.Join(d.Dir, "target", "lib", "*")
	cmd := exec.Command(java, "-cp", cp, "yarngym.oracle.Main", "--in", in, "--out", out)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return nil, "", fmt.Errorf("the oracle driver on %s: %v: %s", in, err, strings.TrimSpace(stderr.String()))
	}
	f, err := os.Open(filepath.Join(out, "jobs.csv"))
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	jobs, err = ReadJobsCSV(f)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", filepath.Join(out, "jobs.csv"), err)
	}
	return jobs, strings.TrimSpace(stderr.String()), nil
}
