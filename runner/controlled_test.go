package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"yarngym/learn"
)

func saveStatic(t *testing.T, dir, taskID string, params []string, low, high, action []float64) string {
	t.Helper()
	m := &learn.Model{Version: learn.ModelVersion, Task: taskID, Algo: "cmaes", Kind: learn.KindStatic, Params: params,
		Low: low, High: high, Action: action}
	path, err := m.Save(dir)
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// TestControlledStaticEqualsSet: a static model's run is the run with its
// action set from the start (the controller acts before the first event),
// reported as "POLICY + ALGO".
func TestControlledStaticEqualsSet(t *testing.T) {
	path := saveStatic(t, t.TempDir(), "OPERA-v0", []string{"rho", "posterior_cutoff"}, []float64{0.5, 0}, []float64{2, 1}, []float64{1.7, 0.3})
	seed := uint64(2)
	a, err := Run(Options{Scenario: "opera-mr", Policy: "opera", Seed: &seed, Controller: path, RecordTasks: true})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Run(Options{Scenario: "opera-mr", Sets: []string{"policy.name=opera", "rho=1.7", "posterior_cutoff=0.3"}, Seed: &seed, RecordTasks: true})
	if err != nil {
		t.Fatal(err)
	}
	if a.Policy != "opera + cmaes" || b.Policy != "opera" {
		t.Errorf("policies %q and %q", a.Policy, b.Policy)
	}
	ja, jb := a.JSON(), b.JSON()
	ja.Policy = jb.Policy
	if ja.MeanCompletionS != jb.MeanCompletionS || ja.Events != jb.Events || ja.TasksKilled != jb.TasksKilled || len(a.Sim.TaskRecords()) != len(b.Sim.TaskRecords()) {
		t.Errorf("controlled run %+v, --set run %+v", ja, jb)
	}
}

// TestScenarioNamesController: [controller] model in a scenario file,
// relative to the file, runs the model; a model that does not fit the
// scenario's policy is refused with the key.
func TestScenarioNamesController(t *testing.T) {
	dir := t.TempDir()
	saveStatic(t, filepath.Join(dir, "models", "aa"), "AutoAdmin-v0", []string{"rrp_scale"}, []float64{0}, []float64{2}, []float64{1.5})
	scn := "name = \"ctl\"\nseed = 3\n[cluster]\n[[cluster.nodes]]\ncount = 8\nvcores = 8\nmem_mb = 12288\n[policy]\nname = \"autoadmin\"\n" +
		"[workload]\ngenerator = \"autoadmin\"\n[workload.options]\njobs = 20\n[controller]\nmodel = \"models/aa\"\n"
	if err := os.WriteFile(filepath.Join(dir, "ctl.toml"), []byte(scn), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir()) // the path is the file's, not the working folder's
	r, err := Run(Options{Scenario: filepath.Join(dir, "ctl.toml")})
	if err != nil {
		t.Fatal(err)
	}
	if r.Policy != "autoadmin + cmaes" || r.Summary.JobsCompleted != 20 {
		t.Fatalf("policy %q, %d jobs done", r.Policy, r.Summary.JobsCompleted)
	}
	if got := *r.Sim.Policy().Params.Get("rrp_scale").Value; got != 1.5 {
		t.Errorf("rrp_scale %v, want the model's 1.5", got)
	}
	_, err = Run(Options{Scenario: filepath.Join(dir, "ctl.toml"), Policy: "fair"})
	if err == nil || !strings.Contains(err.Error(), "controller.model") || !strings.Contains(err.Error(), "rrp_scale") {
		t.Errorf("a model for another policy: %v", err)
	}
}
