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

func TestTraceResv(t *testing.T) {
	sc, _ := scenario.Load(os.Getenv("SC"), nil)
	cfg, _ := sc.Build(1, os.Getenv("POL"))
	f, _ := os.Create(os.Getenv("OUT"))
	defer f.Close()
	fmt.Fprintln(f, "time_ms,node,app,priority,mem_mb")
	var prev []string
	cfg.OnGive = func(s *sim.Sim, tk *sim.Task, n *sim.Node) {
		p := 0
		if tk.Stage != nil {
			p = oracle.Priority(tk.Stage.Index, len(tk.Job.Stages))
		}
		fmt.Fprintf(f, "%d,%d,%d,%d,%d\n", s.Now(), n.ID, tk.Job.ID, p, tk.Alloc.MemMB)
	}
	cfg.AfterEvent = func(s *sim.Sim) {
		if prev == nil {
			prev = make([]string, len(s.Nodes))
		}
		for i, n := range s.Nodes {
			r := ""
			if t := n.Reserved; t != nil {
				p := 0
				if t.Stage != nil {
					p = oracle.Priority(t.Stage.Index, len(t.Job.Stages))
				}
				r = fmt.Sprintf("%d:%d", t.Job.ID, p)
			}
			if r != prev[i] {
				x := r
				if x == "" {
					x = "-"
				}
				fmt.Fprintf(f, "%d,%d,R%s,0,0\n", s.Now(), i, x)
				prev[i] = r
			}
		}
	}
	s, _ := sim.New(cfg)
	s.Run()
}
