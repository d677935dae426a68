package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestTruncatedRunSaysSo: a run that reaches run.max_s says "truncated at N
// s" in the table, and its makespan row says so (it showed makespan_s 0 and
// nothing else); summary.json counts the tasks and the finished ones, which
// jobs.csv and tasks.csv confirm.
func TestTruncatedRunSaysSo(t *testing.T) {
	dir := t.TempDir()
	for _, maxS := range []string{"50", "200"} { // before any job finished, and after some
		out := filepath.Join(dir, maxS)
		code, _, stderr := runBin(t, "", "run", "quick", "--set", "run.max_s="+maxS, "--out", out, "--format", "json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		b, err := os.ReadFile(filepath.Join(out, "summary.json"))
		if err != nil {
			t.Fatal(err)
		}
		var s struct {
			Truncated     bool    `json:"truncated"`
			EndS          float64 `json:"end_s"`
			MakespanS     float64 `json:"makespan_s"`
			Completed     int     `json:"jobs_completed"`
			Unfinished    int     `json:"jobs_unfinished"`
			Tasks         *int    `json:"tasks"`
			TasksFinished *int    `json:"tasks_finished"`
		}
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		if !s.Truncated || s.Tasks == nil || s.TasksFinished == nil {
			t.Fatalf("summary.json: %s; want truncated with tasks and tasks_finished", b)
		}
		// The counts agree with the per-job and per-task tables.
		jobs, tasks := readCSV(t, filepath.Join(out, "jobs.csv")), readCSV(t, filepath.Join(out, "tasks.csv"))
		total, finished := 0, 0
		for _, r := range jobs[1:] {
			n, _ := strconv.Atoi(r[col(t, jobs[0], "tasks")])
			total += n
		}
		for _, r := range tasks[1:] {
			if r[col(t, tasks[0], "kind")] != "am" && r[col(t, tasks[0], "outcome")] == "done" {
				finished++
			}
		}
		if *s.Tasks != total || *s.TasksFinished != finished || finished >= total {
			t.Fatalf("summary: %d tasks, %d finished; jobs.csv counts %d, tasks.csv %d finished", *s.Tasks, *s.TasksFinished, total, finished)
		}
		// The table.
		_, table, _ := runBin(t, "", "run", "quick", "--set", "run.max_s="+maxS)
		wantTrunc := fmt.Sprintf("truncated at %v s (run.max_s reached): %d of %d jobs unfinished", s.EndS, s.Unfinished, len(jobs)-1)
		wantSpan := fmt.Sprintf("n/a (truncated at %v s before any job finished)", s.EndS)
		if s.Completed > 0 {
			wantSpan = fmt.Sprintf("%v (of the %d jobs finished; truncated at %v s)", s.MakespanS, s.Completed, s.EndS)
		}
		for _, want := range []string{wantTrunc, "makespan_s " + wantSpan, fmt.Sprintf("tasks finished / total %d / %d", finished, total)} {
			if !strings.Contains(squeeze(table), want) {
				t.Fatalf("max_s %s: table lacks %q:\n%s", maxS, want, table)
			}
		}
	}
	// A run that finishes has no truncated row.
	if _, table, _ := runBin(t, "", "run", "quick"); strings.Contains(table, "truncated") {
		t.Fatalf("a finished run says truncated:\n%s", table)
	}
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func col(t *testing.T, header []string, name string) int {
	t.Helper()
	i := slices.Index(header, name)
	if i < 0 {
		t.Fatalf("no column %q in %v", name, header)
	}
	return i
}

// squeeze collapses the table's alignment spaces to one.
func squeeze(s string) string { return regexp.MustCompile(` {2,}`).ReplaceAllString(s, " ") }
