package suite

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"yarngym/benchmarks/models"
	"yarngym/env/scenario"
)

// TestSuiteFile: a user's suite file runs a built-in scenario and one of
// its own (relative to the file), a policy parameter, and a trained model
// from a folder of its own beside the same policy without it; the runs
// carry the labels, and the controlled run differs from the plain one.
func TestSuiteFile(t *testing.T) {
	dir := t.TempDir()
	m, err := models.Load("AutoAdmin66-Fair-v0/grid")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Save(filepath.Join(dir, "mymodel")); err != nil {
		t.Fatal(err)
	}
	src, err := scenario.BuiltinSource("quick")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "sc"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sc", "myquick.toml"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "mine.toml")
	writeSuite(t, path, `
doc = "mine"
[[runs]]
scenario = "quick"
policy = "fifo"
[[runs]]
scenario = "sc/myquick.toml"
policy = "fair"
sets = ["max_am_share=0.25"]
label = "fair-0.25"
[[runs]]
scenario = "autoadmin-66"
policy = "fair"
[[runs]]
scenario = "autoadmin-66"
policy = "fair"
label = "fair + mine"
model = "mymodel"
`)
	s, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "mine" || len(s.Pairs) != 4 || s.Pairs[1].Scenario != filepath.Join(dir, "sc", "myquick.toml") || s.Pairs[3].Model != filepath.Join(dir, "mymodel") {
		t.Fatalf("suite %+v", s)
	}
	res, err := Run(s, Options{Seeds: 1, Parallel: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Skipped) != 0 || len(res.Runs) != 4 {
		t.Fatalf("%d runs, skipped %+v", len(res.Runs), res.Skipped)
	}
	if res.Runs[1].Variant != "fair-0.25" || res.Runs[3].Variant != "fair + mine" {
		t.Errorf("variants %q and %q", res.Runs[1].Variant, res.Runs[3].Variant)
	}
	if res.Runs[2].MeanCompletionS == res.Runs[3].MeanCompletionS {
		t.Errorf("the model's run has the plain run's mean completion %v: the controller did nothing", res.Runs[2].MeanCompletionS)
	}
}

// TestSuiteFileErrors: bad suite files are refused naming the file, the
// key and the reason (a scenario.Error: exit 2 at the command line).
func TestSuiteFileErrors(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ body, want string }{
		{"[[runs]]\nscenario = \"quick\"\npolicy = \"fifo\"\nmodle = \"x\"\n", "runs.modle: unknown key (valid: scenario, policy, sets, label, model)"},
		{"nmae = \"x\"\n", "nmae: unknown key (valid: name, doc, papers, runs)"},
		{"[[runs]]\npolicy = \"fifo\"\n", "runs[0].scenario: missing"},
		{"[[runs]]\nscenario = \"quick\"\n", "runs[0].policy: missing"},
		{"[[runs]]\nscenario = \"quik\"\npolicy = \"fifo\"\n", "runs[0].scenario: quik under fifo"},
		{"[[runs]]\nscenario = \"quick\"\npolicy = \"fifo\"\nsets = [\"nope=1\"]\n", "runs[0].scenario: quick under fifo"},
		{"[[runs]]\nscenario = \"quick\"\npolicy = \"fifo\"\nmodel = \"none/ppo\"\n", "runs[0].model: \"" + filepath.Join(dir, "none/ppo") + "\" is neither a committed model"},
		{"papers = [\"opra\"]\n", "papers[0]: unknown paper \"opra\"; did you mean opera?"},
		{"doc = \"nothing\"\n", "runs: no [[runs]] and no papers"},
		{"[[runs]\n", "line 1"},
	} {
		path := filepath.Join(dir, "bad.toml")
		writeSuite(t, path, c.body)
		_, err := LoadFile(path)
		var se *scenario.Error
		if !errors.As(err, &se) || !strings.HasPrefix(err.Error(), path+": ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want a scenario.Error for %s containing %q", c.body, err, path, c.want)
		}
	}
}

func writeSuite(t *testing.T, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}
