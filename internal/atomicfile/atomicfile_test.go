package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestWriteAll: every file is streamed to its temporary name and all are
// renamed together; an error writing one leaves none of them, and no
// temporary file.
func TestWriteAll(t *testing.T) {
	dir := t.TempDir()
	names := []string{"a.txt", "b.txt"}
	if err := WriteAll(dir, names, func(name string, w io.Writer) error {
		_, err := io.WriteString(w, "hello "+name)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if b, err := os.ReadFile(filepath.Join(dir, n)); err != nil || string(b) != "hello "+n {
			t.Fatalf("%s: %q, %v", n, b, err)
		}
	}
	bad := t.TempDir()
	err := WriteAll(bad, names, func(name string, w io.Writer) error {
		if name == "b.txt" {
			return errors.New("boom")
		}
		_, err := io.WriteString(w, "partial")
		return err
	})
	if err == nil || err.Error() != "write b.txt: boom" {
		t.Fatalf("error %v, want write b.txt: boom", err)
	}
	left, _ := os.ReadDir(bad)
	var got []string
	for _, e := range left {
		got = append(got, e.Name())
	}
	if !slices.Equal(got, nil) {
		t.Fatalf("a failed write left %v", got)
	}
}
