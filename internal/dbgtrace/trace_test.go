package dbg

import (
	"fmt"
	"os"
	"testing"

	"yarngym/env/scenario"
	"yarngym/env/sim"
	"yarngym/oracle"
)

func TestTrace(t *testing.T) {
	sc, err := scenario.Load(os.Getenv("SC"), nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := sc.Build(1, os.Getenv("POL"))
	if err != nil {
		t.Fatal(err)
	}
	f, _ := os.Create(os.Getenv("OUT"))
	defer f.Close()
	fmt.Fprintln(f, "time_ms,node,app,priority,mem_mb")
	cfg.OnGive = func(s *sim.Sim, tk *sim.Task, n *sim.Node) {
		p := 0
		if tk.Stage != nil {
			p = oracle.Priority(tk.Stage.Index, len(tk.Job.Stages))
		}
		fmt.Fprintf(f, "%d,%d,%d,%d,%d\n", s.Now(), n.ID, tk.Job.ID, p, tk.Alloc.MemMB)
	}
	s, _ := sim.New(cfg)
	s.Run()
}
