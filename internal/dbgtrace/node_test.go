package dbg

import (
	"fmt"
	"os"
	"strconv"
	"testing"

	"yarngym/env/scenario"
	"yarngym/env/sim"
	"yarngym/policies/base"
)

func TestNode(t *testing.T) {
	sc, _ := scenario.Load(os.Getenv("SC"), nil)
	cfg, _ := sc.Build(1, os.Getenv("POL"))
	at, _ := strconv.ParseInt(os.Getenv("AT"), 10, 64)
	nid, _ := strconv.Atoi(os.Getenv("NODE"))
	s, _ := sim.New(cfg)
	s.RunUntil(at)
	a := cfg.Policy.Allocate.(*base.Allocator)
	n := s.Nodes[nid]
	fmt.Println("node", nid, "free", n.Free(), "reserved", n.Reserved)
	for _, j := range a.Ranked(s) {
		tk := a.TaskFor(s, j, n)
		fmt.Println(" job", j.ID, "alloc", j.Alloc, "considers", a.Considers(s, j), "task", tk)
		if tk != nil {
			fmt.Println("   fits", s.FitsFree(tk.Req, n), "allowed", a.Allowed(s, tk, n))
		}
	}
}
