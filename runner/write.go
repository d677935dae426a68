package runner

import (
	"bytes"
	"encoding/csv"
	"io"
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
	return atomicfile.WriteAll(dir, []string{"summary.json", "jobs.csv", "tasks.csv"}, func(name string, w io.Writer) error {
		switch name {
		case "summary.json":
			_, err := w.Write(r.SummaryBytes())
			return err
		case "jobs.csv":
			_, err := w.Write(csvBytes(r.JobsCSV()))
			return err
		}
		// tasks.csv, a row at a time to the file: a run writes millions
		// (225 MB for scale-50k), more than it otherwise holds.
		c := csv.NewWriter(w)
		r.taskRows(func(row []string) { _ = c.Write(row) }) // an error sticks: Flush reports it
		c.Flush()
		return c.Error()
	})
}

func csvBytes(rows [][]string) []byte {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	_ = w.WriteAll(rows) // writes to memory: cannot fail
	return buf.Bytes()
}
