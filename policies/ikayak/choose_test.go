package ikayak

import (
	"math"
	"testing"

	"yarngym/env/sim"
	"yarngym/policies/base"
)

// naiveChoose is Alg. 1 as written: every usable node evaluated in full
// (Alg. 2 waits included), the best (case, key) first in node order, and an
// executor keeps its reserved node unless another node is in a better case.
func naiveChoose(r *Reservation, s sim.Handle, t *sim.Task, exclude *sim.Node) *sim.Node {
	var best *sim.Node
	bestCase, bestKey := CaseNone+1, math.Inf(1)
	for _, n := range s.Nodes() {
		if !usable(n, t, exclude) {
			continue
		}
		c, k := r.Evaluate(s, n, t)
		if c < bestCase || (c == bestCase && k < bestKey) {
			best, bestCase, bestKey = n, c, k
		}
	}
	if cur := t.ReservedOn(); cur != nil {
		if c, _ := r.Evaluate(s, cur, t); c == CaseFree || bestCase >= c {
			return cur
		}
	}
	if bestCase == CaseNone {
		return nil
	}
	return best
}

// checkedChoice runs Reservation.Choose, which skips Alg. 2 while some node
// is in case 1 or 2, and compares it with naiveChoose on every call.
type checkedChoice struct {
	t     *testing.T
	r     *Reservation
	calls int
	cases [CaseNone + 1]int
}

func (c *checkedChoice) Choose(h sim.Handle, t *sim.Task, exclude *sim.Node) *sim.Node {
	got, want := c.r.Choose(h, t, exclude), naiveChoose(c.r, h, t, exclude)
	if got != want {
		c.t.Fatalf("t=%d %s: Choose gave %v, the full evaluation %v", h.Now(), t, got, want)
	}
	c.calls++
	if want != nil {
		cs, _ := c.r.Evaluate(h, want, t)
		c.cases[cs]++
	}
	return got
}

// TestChooseMatchesFullEvaluation: iKayak's placement, run through the
// engine on a cluster where executors meet free nodes, nodes busy with maps
// and nodes held by reducers, chooses exactly the node the full Alg. 1-2
// evaluation chooses, in every case.
// Reference: iKayak Sec. 3.1, Alg. 1-2.
func TestChooseMatchesFullEvaluation(t *testing.T) {
	pol, err := New(base.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	pl := pol.Allocate.(*Placer)
	chk := &checkedChoice{t: t, r: pl.Strategy.(*Reservation)}
	pl.Strategy = chk
	var nodes []sim.NodeSpec
	for i := 0; i < 4; i++ {
		nodes = append(nodes, sim.NodeSpec{Name: string(rune('a' + i)), Cap: res(8, 16384)})
	}
	var jobs []sim.JobSpec
	for i := 0; i < 6; i++ {
		at := float64(i * 40)
		jobs = append(jobs, mrSpec("mr"+string(rune('0'+i)), at, 30, 20+float64(5*i), 4, 60, res(1, 2048), 0.05))
		jobs = append(jobs, sparkSpec("sp"+string(rune('0'+i)), at+10, 3, 90, res(4, 6144)))
	}
	run(t, sim.Config{Nodes: nodes, Jobs: jobs, Policy: pol}, nil)
	if chk.calls == 0 {
		t.Fatal("the placement was never asked")
	}
	for _, cs := range []Case{CaseFree, CaseMap, CaseReduce} {
		if chk.cases[cs] == 0 {
			t.Fatalf("no choice fell in case %d (cases %v over %d calls): the scenario does not cover Alg. 1", cs, chk.cases, chk.calls)
		}
	}
}
