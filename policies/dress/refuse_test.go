package dress_test

import (
	"fmt"
	"testing"

	"yarngym/env/scenario"
	"yarngym/env/sim"
	"yarngym/policies/base"
	"yarngym/policies/dress"
)

// allowOnly hides a Limit's other methods: the allocator then asks it task
// by task (the naive reference for base.JobLimit's shortcut).
type allowOnly struct{ base.Limit }

// build makes scenario sc's run for seed under DRESS with sets; naive: the
// DRESS limit answers task by task only; after, if set, is called after
// every event.
func build(t *testing.T, sc string, sets []string, seed uint64, naive bool, after func(*sim.Sim, *dress.Dress)) *sim.Sim {
	t.Helper()
	s, err := scenario.Load(sc, sets)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := s.Build(seed, "dress")
	if err != nil {
		t.Fatal(err)
	}
	a := cfg.Policy.Allocate.(*base.Allocator)
	var d *dress.Dress
	for i, l := range a.Limits {
		if x, ok := l.(*dress.Dress); ok {
			d = x
			if naive {
				a.Limits[i] = allowOnly{x}
			}
		}
	}
	if d == nil {
		t.Fatal("no DRESS limit in the allocator")
	}
	if after != nil {
		cfg.AfterEvent = func(s *sim.Sim) { after(s, d) }
	}
	sm, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return sm
}

// outcome is what a run leaves: its summary, every job's end and the
// policy's state (sd_used shows when DRESS last summed its pools).
func outcome(s *sim.Sim) string {
	sum := s.Run()
	out := fmt.Sprintf("%+v\n", sum)
	for _, j := range s.Jobs {
		out += fmt.Sprintf("%d %v %d %d\n", j.ID, j.State, j.StartMs, j.FinishMs)
	}
	for _, v := range s.Policy().State {
		out += fmt.Sprintf("%s=%v\n", v.Name, v.Get())
	}
	return out
}

// refuseCases are DRESS runs where the pools hold jobs back: an empty SD
// pool (the run stalls on its small jobs), tight pools, Alg. 3 itself, and
// the MapReduce run (maps under the CapacityScheduler's delay scheduling).
var refuseCases = []struct {
	scenario string
	sets     []string
}{
	{"dress-spark", []string{"delta_fixed=0"}},
	{"dress-spark", []string{"delta_fixed=0.05"}},
	{"dress-spark", nil},
	{"dress-spark", []string{"theta=0.3"}},
	{"dress-mr", []string{"delta_fixed=0"}},
	{"dress-mr", []string{"delta_fixed=1"}},
	{"dress-mr", []string{"theta=0.3"}},
	{"dress-mixed", []string{"delta_fixed=0.05"}},
}

// TestJobRefusalSameRun: the allocator's shortcut for jobs DRESS refuses
// whole (base.JobLimit: they are not ranked) gives the run the naive
// allocator gives, asking DRESS task by task: same summary, job times and
// policy state.
func TestJobRefusalSameRun(t *testing.T) {
	for _, c := range refuseCases {
		for _, seed := range []uint64{1, 2} {
			t.Run(fmt.Sprintf("%s/%v/%d", c.scenario, c.sets, seed), func(t *testing.T) {
				fast := build(t, c.scenario, c.sets, seed, false, nil)
				naive := build(t, c.scenario, c.sets, seed, true, nil)
				if got, want := outcome(fast), outcome(naive); got != want {
					t.Fatalf("with the shortcut:\n%s\nasking task by task:\n%s", got, want)
				}
			})
		}
	}
}

// TestRefusesJobOnlyWhereAllowRefuses: after every event, a job DRESS
// refuses whole has no pending task its Allow would give a container (the
// JobLimit contract), and the runs do refuse some.
func TestRefusesJobOnlyWhereAllowRefuses(t *testing.T) {
	for _, c := range refuseCases {
		t.Run(fmt.Sprintf("%s/%v", c.scenario, c.sets), func(t *testing.T) {
			refused := 0
			s := build(t, c.scenario, c.sets, 1, false, func(s *sim.Sim, d *dress.Dress) {
				h := s.Handle()
				n := s.Nodes[0]
				d.PrepareRefusals(h)
				for _, j := range s.Asking() {
					if !d.RefusesJob(j) {
						continue
					}
					refused++
					tasks := []*sim.Task{j.AM}
					for _, st := range j.Stages {
						tasks = append(tasks, st.Tasks...)
					}
					for _, tk := range tasks {
						if tk != nil && tk.State == sim.TaskPending && d.Allow(h, tk, n) {
							t.Fatalf("t=%d: job %d refused whole, but Allow gives task %d (%v) a container", s.Now(), j.ID, tk.ID, tk.Req)
						}
					}
				}
			})
			s.Run()
			if refused == 0 {
				t.Errorf("no job refused whole: the test checks nothing here")
			}
		})
	}
}
