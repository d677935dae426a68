package ikayak_test

import (
	"testing"

	"yarngym/env/sim"
	"yarngym/policies/ikayak"
	"yarngym/runner"
)

// byID is a Remainer for the property test: a reducer's remaining time
// from its ID, so that Alg. 2's waits differ between nodes.
type byID struct{}

func (byID) Remaining(_ sim.Handle, t *sim.Task) float64 { return float64(t.ID%7) * 30 }

// TestChooseNowMatchesChoose: the placer's shortcut for executors behind
// the head request (Reservation.ChooseNow) against its naive reference,
// Choose's node when the executor fits there now and nil otherwise, on the
// states of a scaled iKayak run: every pending executor without a
// reservation, with no node excluded and with each node excluded in turn.
func TestChooseNowMatchesChoose(t *testing.T) {
	seed := uint64(3)
	r := &ikayak.Reservation{Pred: byID{}}
	var checked, fits, events int
	o := runner.Options{Scenario: "ikayak", Policy: "ikayak", Seed: &seed,
		Sets: []string{"workload.options.mr_jobs=12", "workload.options.spark_jobs=12"}}
	o.AfterEvent = func(s *sim.Sim) {
		if events++; events%25 != 0 {
			return
		}
		for _, j := range s.Active() {
			for _, st := range j.Stages {
				for _, tk := range st.Tasks {
					if tk.Kind != sim.KindExecutor || tk.State != sim.TaskPending || tk.ReservedOn() != nil {
						continue
					}
					for k := -1; k < len(s.Nodes); k++ {
						var exclude *sim.Node
						if k >= 0 {
							exclude = s.Nodes[k]
						}
						want := r.Choose(s.Handle(), tk, exclude)
						if want != nil && !s.CalcOn(want).Fits(tk.Req, want.Free()) { // as the scheduler compares
							want = nil
						}
						if got := r.ChooseNow(s.Handle(), tk, exclude); got != want {
							t.Fatalf("t=%d ms, %s, exclude %v: ChooseNow %v, Choose (fitting now) %v", s.Now(), tk, exclude, got, want)
						}
						checked++
						if want != nil {
							fits++
						}
					}
				}
			}
		}
	}
	if _, err := runner.Run(o); err != nil {
		t.Fatal(err)
	}
	// Both outcomes must occur, or the comparison proves little.
	if fits == 0 || fits == checked {
		t.Fatalf("%d comparisons, %d with a node fitting now: want both outcomes", checked, fits)
	}
	t.Logf("%d comparisons, %d with a node fitting now", checked, fits)
}
