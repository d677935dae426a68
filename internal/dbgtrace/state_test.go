package dbg

import (
	"fmt"
	"os"
	"strconv"
	"testing"

	"yarngym/env/scenario"
	"yarngym/env/sim"
)

func TestState(t *testing.T) {
	sc, _ := scenario.Load(os.Getenv("SC"), nil)
	cfg, _ := sc.Build(1, os.Getenv("POL"))
	at, _ := strconv.ParseInt(os.Getenv("AT"), 10, 64)
	s, _ := sim.New(cfg)
	s.RunUntil(at)
	for _, j := range s.Active() {
		fmt.Printf("job %d alloc %v running %d excess %d asking %v\n", j.ID, j.Alloc, j.Running, len(j.Excess()), s.HasPending(j))
		for _, st := range j.Stages {
			fmt.Printf("   stage %d pending %d running %d done %d asking %d\n", st.Index, st.Pending, st.Running, st.Done, st.Asking())
		}
	}
}
