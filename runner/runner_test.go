package runner_test

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"yarngym/runner"
)

// TestProgressSameResults: a run with progress reporting (the engine run in
// slices of simulated time) gives the same bytes as a run without, whatever
// the slice length, for finished, stuck and truncated runs; the progress
// calls move forward and the last one says the run is done.
func TestProgressSameResults(t *testing.T) {
	seed := uint64(2)
	for _, c := range []struct {
		scenario string
		sets     []string
	}{
		{"quick", nil},
		{"opera-mr", nil},
		{"dress-mixed", nil},
		{"terasort-burst", []string{"max_am_share=-1"}}, // stuck
		{"swim-fb2009", []string{"run.max_s=120"}},      // truncated
	} {
		out := func(o runner.Options) []byte {
			o.Scenario, o.Sets, o.Seed, o.RecordTasks, o.TimelineS = c.scenario, c.sets, &seed, true, 5
			r, err := runner.Run(o)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			b.Write(r.SummaryBytes())
			fmt.Fprint(&b, r.JobsCSV(), r.TasksCSV(), r.Sim.Timeline())
			return b.Bytes()
		}
		want := out(runner.Options{})
		for _, slice := range []float64{0, 0.001, 0.7, 13, 1e9} {
			var calls []runner.Progress
			got := out(runner.Options{SliceS: slice, Progress: func(p runner.Progress) { calls = append(calls, p) }})
			if !bytes.Equal(got, want) {
				t.Fatalf("%s %v: slices of %v s give other results than one run", c.scenario, c.sets, slice)
			}
			last := calls[len(calls)-1]
			if !last.Done || last.Jobs == 0 || last.Events == 0 || slices.ContainsFunc(calls[:len(calls)-1], func(p runner.Progress) bool { return p.Done }) {
				t.Fatalf("%s, slices of %v s: progress calls %+v; want the last, only the last, done", c.scenario, slice, calls)
			}
			for i := 1; i < len(calls); i++ {
				if calls[i].NowS < calls[i-1].NowS || calls[i].Events < calls[i-1].Events || calls[i].JobsDone < calls[i-1].JobsDone {
					t.Fatalf("%s: progress went back: %+v then %+v", c.scenario, calls[i-1], calls[i])
				}
			}
			if slice == 0.7 && len(calls) < 10 {
				t.Fatalf("%s: %d progress calls in slices of 0.7 s", c.scenario, len(calls))
			}
		}
	}
}
