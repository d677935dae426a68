package runner

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"yarngym/data"
)

// TestSummaryCarriesWarnings: a job history with a job killed before any
// attempt replays the others, and the run's summary (summary.json) says
// what was skipped (issue 29: it was on stderr only).
func TestSummaryCarriesWarnings(t *testing.T) {
	src, err := data.Open("${traces}/hadoop-sls/2jobs2min-rumen-jh.json")
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(src)
	var jobs [2]map[string]any
	for i := range jobs {
		if err := dec.Decode(&jobs[i]); err != nil {
			t.Fatal(err)
		}
	}
	src.Close()
	jobs[0]["outcome"], jobs[0]["mapTasks"], jobs[0]["reduceTasks"] = "KILLED", []any{}, []any{}
	dir := t.TempDir()
	var trace []byte
	for _, j := range jobs {
		b, _ := json.Marshal(j)
		trace = append(append(trace, b...), '\n')
	}
	toml := "name = \"killed\"\n[[cluster.nodes]]\ncount = 4\nvcores = 8\nmem_mb = 16384\n[policy]\nname = \"fifo\"\n" +
		"[workload]\ngenerator = \"rumen\"\n[workload.options]\npath = \"history.json\"\n"
	for name, body := range map[string][]byte{"history.json": trace, "s.toml": []byte(toml)} {
		if err := os.WriteFile(filepath.Join(dir, name), body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err := Run(Options{Scenario: filepath.Join(dir, "s.toml")})
	if err != nil {
		t.Fatal(err)
	}
	sum := res.JSON()
	if sum.JobsCompleted != 1 || len(sum.Warnings) != 1 || !strings.Contains(sum.Warnings[0], "1 job(s) skipped") {
		t.Fatalf("%d jobs completed, warnings %q: want the second job run and the first reported skipped", sum.JobsCompleted, sum.Warnings)
	}
	if !strings.Contains(string(res.SummaryBytes()), `"warnings": [`) {
		t.Error("summary.json has no warnings")
	}
}
