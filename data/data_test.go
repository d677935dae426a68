package data

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"testing"
)

// The shipped traces are the upstream files byte for byte (the hashes in
// traces/README.md), and each folder carries its licence.
func TestShippedTraces(t *testing.T) {
	for _, c := range []struct{ path, sha256 string }{
		{"${traces}/swim/FB-2009_samples_24_times_1hr_0.tsv", "5033ea98faed398b132957e4555c9ba88653d1ffaac470f370b761b79cd44c19"},
		{"${traces}/alibaba2017/jobs.csv", "b422d8aa185fe5025b139d6843d6d49b91fab486c487df4d606aa52fffba4a2b"},
		{"${traces}/hadoop-sls/2jobs2min-rumen-jh.json", "e96ae13cb882854900916408c2a16a3fb78571454b079bc35edb8c50564ea92e"},
	} {
		if !Shipped(c.path) {
			t.Errorf("%s: not recognised as a shipped trace", c.path)
		}
		f, err := Open(c.path)
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		h := sha256.New()
		if _, err := io.Copy(h, f); err != nil {
			t.Fatal(err)
		}
		f.Close()
		if got := hex.EncodeToString(h.Sum(nil)); got != c.sha256 {
			t.Errorf("%s: sha256 %s, want %s", c.path, got, c.sha256)
		}
	}
	for _, lic := range []string{"traces/swim/LICENSE", "traces/alibaba2017/LICENSE-CloudSimPy", "traces/hadoop-sls/LICENSE", "traces/README.md"} {
		if _, err := fs.Stat(Traces(), lic); err != nil {
			t.Errorf("%s: %v", lic, err)
		}
	}
	if _, err := Open("${traces}/swim/nope.tsv"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing shipped trace: got %v, want not-exist", err)
	}
	if Shipped("/data/traces/swim/x.tsv") || Shipped("${traces}x") {
		t.Error("a path outside ${traces}/ taken for a shipped trace")
	}
}
