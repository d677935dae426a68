package runner

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
)

// SummaryBytes is the JSON summary, indented, with a trailing newline.
func (r *Result) SummaryBytes() []byte {
	b := r.JSON().Marshal("  ")
	return append(b, '\n')
}

// WriteDir writes summary.json, jobs.csv and tasks.csv into dir. Files are
// written to temporary names and renamed, so a failed write leaves no
// half-written result behind.
func (r *Result) WriteDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	files := map[string][]byte{"summary.json": r.SummaryBytes(), "jobs.csv": csvBytes(r.JobsCSV()), "tasks.csv": csvBytes(r.TasksCSV())}
	for _, name := range []string{"summary.json", "jobs.csv", "tasks.csv"} {
		tmp := filepath.Join(dir, "."+name+".tmp")
		if err := os.WriteFile(tmp, files[name], 0o644); err != nil {
			return fmt.Errorf("write %s: %w", name, err)
		}
	}
	for _, name := range []string{"summary.json", "jobs.csv", "tasks.csv"} {
		if err := os.Rename(filepath.Join(dir, "."+name+".tmp"), filepath.Join(dir, name)); err != nil {
			return err
		}
	}
	return nil
}

func csvBytes(rows [][]string) []byte {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	_ = w.WriteAll(rows) // writes to memory: cannot fail
	return buf.Bytes()
}
