package runner

import (
	"bytes"
	"encoding/csv"
	"os"

	"yarngym/internal/atomicfile"
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
	// tasks.csv is written a row at a time into a buffer sized for its
	// rows (about 60 bytes each) rather than built as a table first.
	var tasks bytes.Buffer
	tasks.Grow(64 * (len(r.Sim.TaskRecords()) + 1))
	w := csv.NewWriter(&tasks)
	r.taskRows(func(row []string) { _ = w.Write(row) }) // to memory: cannot fail
	w.Flush()
	files := map[string][]byte{"summary.json": r.SummaryBytes(), "jobs.csv": csvBytes(r.JobsCSV()), "tasks.csv": tasks.Bytes()}
	return atomicfile.WriteAll(dir, []string{"summary.json", "jobs.csv", "tasks.csv"}, files)
}

func csvBytes(rows [][]string) []byte {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	_ = w.WriteAll(rows) // writes to memory: cannot fail
	return buf.Bytes()
}
