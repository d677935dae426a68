package suite

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/BurntSushi/toml"

	"yarngym/benchmarks/models"
	"yarngym/benchmarks/repro"
	"yarngym/env/scenario"
	"yarngym/learn"
	"yarngym/registry"
)

// A suite file is a user's own suite, run by `yarngym bench FILE.toml` as
// the built-in suites are:
//
//	name = "my-suite"             # optional: the file's base name
//	doc = "what it compares"      # optional
//	papers = ["opera"]            # optional: reproductions to run alongside
//
//	[[runs]]
//	scenario = "opera-mr"         # a built-in scenario or a TOML file
//	policy = "fair"
//
//	[[runs]]
//	scenario = "my/cluster.toml"  # relative to the suite file's folder
//	policy = "opera"
//	sets = ["rho=1.2"]            # --set overrides
//	label = "opera + mine"        # the variant's name in tables
//	model = "out/learn/OPERA-v0/ppo"  # a trained controller: model.json or its folder, or a committed TASK/ALGO
//
// Every key is checked when the file loads (unknown keys, a scenario that
// does not load, a model that does not, an unknown paper): the error names
// the file, the key and the reason.
type suiteFile struct {
	Name   string    `toml:"name"`
	Doc    string    `toml:"doc"`
	Papers []string  `toml:"papers"`
	Runs   []fileRun `toml:"runs"`
}

type fileRun struct {
	Scenario string   `toml:"scenario"`
	Policy   string   `toml:"policy"`
	Sets     []string `toml:"sets"`
	Label    string   `toml:"label"`
	Model    string   `toml:"model"`
}

// LoadFile reads a suite file (see suiteFile).
func LoadFile(path string) (Suite, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Suite{}, &scenario.Error{Source: path, Reason: err.Error()}
	}
	var f suiteFile
	md, err := toml.NewDecoder(bytes.NewReader(data)).Decode(&f)
	if err != nil {
		return Suite{}, scenario.TOMLError(path, data, err)
	}
	bad := func(key, format string, a ...any) error {
		return &scenario.Error{Source: path, Key: key, Reason: fmt.Sprintf(format, a...)}
	}
	if und := md.Undecoded(); len(und) > 0 {
		valid := "name, doc, papers, runs"
		if len(und[0]) > 1 {
			valid = "scenario, policy, sets, label, model"
		}
		return Suite{}, bad(und[0].String(), "unknown key (valid: %s)", valid)
	}
	s := Suite{Name: f.Name, Doc: f.Doc, Papers: f.Papers}
	if s.Name == "" {
		s.Name = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	}
	if s.Doc == "" {
		s.Doc = "the suite file " + path
	}
	for i, p := range f.Papers {
		if _, ok := repro.Lookup(p); !ok {
			return Suite{}, bad(fmt.Sprintf("papers[%d]", i), "unknown paper %q%s (known: %s)", p, registry.DidYouMean(p, repro.Names()), strings.Join(repro.Names(), ", "))
		}
	}
	if len(f.Runs) == 0 && len(f.Papers) == 0 {
		return Suite{}, bad("runs", "no [[runs]] and no papers: nothing to run")
	}
	dir := filepath.Dir(path)
	for i, r := range f.Runs {
		key := func(k string) string { return fmt.Sprintf("runs[%d].%s", i, k) }
		switch {
		case r.Scenario == "":
			return Suite{}, bad(key("scenario"), "missing: a built-in scenario or a TOML file")
		case r.Policy == "":
			return Suite{}, bad(key("policy"), "missing")
		}
		p := Pair{Scenario: resolveScenario(dir, r.Scenario), Policy: r.Policy, Sets: r.Sets, Label: r.Label}
		if r.Model != "" {
			p.Model = resolveModel(dir, r.Model)
			if _, err := LoadModel(p.Model); err != nil {
				return Suite{}, bad(key("model"), "%v", err)
			}
		}
		sc, err := scenario.Load(p.Scenario, p.loadSets())
		if err == nil {
			_, err = sc.Build(1, p.Policy)
		}
		if err != nil {
			return Suite{}, bad(key("scenario"), "%s under %s: %v", r.Scenario, r.Policy, err)
		}
		s.Pairs = append(s.Pairs, p)
	}
	return s, nil
}

// resolveScenario is a run's scenario: a built-in name as it is, a file
// relative to the suite file's folder.
func resolveScenario(dir, name string) string {
	if scenario.IsBuiltin(name) || filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(dir, name)
}

// resolveModel is a run's model: a committed TASK/ALGO as it is, a path
// relative to the suite file's folder.
func resolveModel(dir, m string) string {
	if _, err := models.Load(m); err == nil || filepath.IsAbs(m) {
		return m
	}
	return filepath.Join(dir, m)
}

// LoadModel loads a pair's model: a committed TASK/ALGO (benchmarks/models)
// or a model file or folder written by yarngym learn.
func LoadModel(m string) (*learn.Model, error) {
	if mm, err := models.Load(m); err == nil {
		return mm, nil
	}
	mm, err := learn.LoadModel(m)
	if err != nil {
		return nil, fmt.Errorf("%q is neither a committed model (%s) nor a model file: %v", m, strings.Join(models.Keys(), ", "), err)
	}
	return mm, nil
}
