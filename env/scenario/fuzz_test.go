package scenario_test

import (
	"testing"

	"yarngym/env/scenario"
	"yarngym/env/sim"
)

// FuzzParse: no input makes the parser panic, and anything it accepts builds
// a run that the engine accepts.
func FuzzParse(f *testing.F) {
	f.Add([]byte(good))
	f.Add([]byte("name = 1"))
	f.Add([]byte("[cluster]\n[[cluster.nodes]]\ncount = 1\nvcores = 1\nmem_mb = 1\n[policy]\nname = \"fifo\"\n[workload]\ngenerator = \"autoadmin\"\n[workload.options]\njobs = 2\n"))
	f.Add([]byte("[workload.options]\nx = 1"))
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := scenario.Parse(data, "fuzz.toml", ".", nil)
		if err != nil {
			return
		}
		cfg, err := sc.Build(1, "")
		if err != nil {
			t.Fatalf("validated scenario fails to build: %v", err)
		}
		if len(cfg.Jobs) > 50 {
			return // keep the fuzz loop fast; the engine was fed similar input above
		}
		cfg.MaxMs = 3600 * 1000
		if _, err := sim.New(cfg); err != nil {
			t.Fatalf("validated scenario refused by the engine: %v", err)
		}
	})
}

// FuzzSet: no --set string makes loading panic.
func FuzzSet(f *testing.F) {
	f.Add("cluster.nodes.0.vcores=4")
	f.Add("max_am_share=0.3")
	f.Add("a.b.c.d=[1,2]")
	f.Fuzz(func(t *testing.T, set string) {
		_, _ = scenario.Parse([]byte(good), "fuzz.toml", ".", []string{set})
	})
}
