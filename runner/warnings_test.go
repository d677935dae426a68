package runner

import (
	"strings"
	"testing"

	"yarngym/internal/simtest"
)

// TestSummaryCarriesWarnings: a job history with a job killed before any
// attempt replays the others, and the run's summary (summary.json) says
// what was skipped (issue 29: it was on stderr only).
func TestSummaryCarriesWarnings(t *testing.T) {
	path := simtest.KilledJobHistory(t)
	res, err := Run(Options{Scenario: path})
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
