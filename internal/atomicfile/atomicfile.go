// Package atomicfile writes result files so that no reader, and no
// interrupted run, ever sees one half-written: a file is written under a
// temporary name in its folder and renamed into place, and Ctrl-C (SIGINT,
// SIGTERM) waits for a write in progress to end before the process exits
// (OnInterrupt). What was finished stays readable; the rest is absent.
package atomicfile

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
)

// writing is held while a file is written: the interrupt handler takes it
// before the process exits, so that it never exits mid-write.
var writing sync.Mutex

// Write writes data to path: to a temporary file beside it first, renamed
// over path once complete.
func Write(path string, data []byte) error {
	writing.Lock()
	defer writing.Unlock()
	tmp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".tmp")
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// WriteAll writes several files of one folder as one: every one to its
// temporary name first, then all renamed, so that an error before the
// renames leaves none of them (names in the order given). write writes
// the file called name to w (buffered): a large file is streamed to disk
// rather than held in memory whole.
func WriteAll(dir string, names []string, write func(name string, w io.Writer) error) error {
	writing.Lock()
	defer writing.Unlock()
	tmp := func(name string) string { return filepath.Join(dir, "."+name+".tmp") }
	for _, name := range names {
		if err := writeFile(tmp(name), func(w io.Writer) error { return write(name, w) }); err != nil {
			for _, n := range names {
				os.Remove(tmp(n))
			}
			return fmt.Errorf("write %s: %w", name, err)
		}
	}
	for _, name := range names {
		if err := os.Rename(tmp(name), filepath.Join(dir, name)); err != nil {
			return err
		}
	}
	return nil
}

// OnInterrupt makes SIGINT and SIGTERM end the process cleanly: once any
// write in progress has finished, say is printed to w (if not empty) and
// the process exits with status 130, as a shell reports an interrupted
// command. Call it once, at the start of a long command.
func OnInterrupt(w io.Writer, say string) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ch
		writing.Lock() // never released: the process ends holding it
		if say != "" {
			fmt.Fprintln(w, say)
		}
		os.Exit(130)
	}()
}

// writeFile creates path and writes it through a buffer with write.
func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	b := bufio.NewWriterSize(f, 1<<16)
	err = write(b)
	if err == nil {
		err = b.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
