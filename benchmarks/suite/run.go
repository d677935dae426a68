package suite

import (
	"fmt"
	"math"
	"sync"

	"yarngym/benchmarks/repro"
	_ "yarngym/benchmarks/repro/all" // registers every paper's reproduction
	"yarngym/env/sim"
	"yarngym/runner"
)

// Options controls a suite run.
type Options struct {
	Seeds int // seeds 1..Seeds per pair (default 3)
	// Parallel is how many runs execute at once (goroutines outside the
	// deterministic core; the results do not depend on it).
	Parallel int
	// TimelineS is the timeline sampling interval (default 1 s).
	TimelineS float64
	// MaxPoints bounds the saved samples per run (default 600).
	MaxPoints int
	// Progress, if set, is told of each finished unit of work: done of total
	// runs (a paper's reproduction counts as one), and what finished.
	Progress func(done, total int, what string)
}

func (o *Options) defaults() {
	if o.Seeds < 1 {
		o.Seeds = 3
	}
	if o.Parallel < 1 {
		o.Parallel = 1
	}
	if o.TimelineS <= 0 {
		o.TimelineS = 1
	}
	if o.MaxPoints < 2 {
		o.MaxPoints = 600
	}
}

// Run executes every runnable (scenario, policy, seed) of the suite and its
// papers' reproductions. Pairs whose policy is not registered and papers
// without a registered reproduction are listed in Results.Skipped. A run
// that fails is an error; a reproduction that fails is recorded as skipped
// with its error, so one paper's problem does not hide the others' results.
func Run(s Suite, o Options) (*Results, error) {
	o.defaults()
	pairs, skipped := s.Resolve()
	res := &Results{Suite: s.Name, Doc: s.Doc, Seeds: repro.Seeds(o.Seeds), TimelineS: o.TimelineS, MaxPoints: o.MaxPoints,
		Skipped: skipped, Runs: []Record{}, Papers: []Paper{}}
	var papers []repro.Paper
	for _, name := range s.Papers {
		p, ok := repro.Lookup(name)
		if !ok {
			res.Skipped = append(res.Skipped, Skip{Paper: name, Reason: "no reproduction registered in benchmarks/repro/all"})
			continue
		}
		papers = append(papers, p)
	}
	if res.Skipped == nil {
		res.Skipped = []Skip{}
	}

	type unit struct {
		pair Pair
		seed uint64
	}
	var units []unit
	for _, p := range pairs {
		for _, seed := range res.Seeds {
			units = append(units, unit{p, seed})
		}
	}
	total := len(units) + len(papers)
	runs := make([]Record, len(units))
	headers := make([][]string, len(units))
	errs := make([]error, len(units))
	var mu sync.Mutex
	done := 0
	tick := func(what string) {
		mu.Lock()
		defer mu.Unlock()
		done++
		if o.Progress != nil {
			o.Progress(done, total, what)
		}
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, o.Parallel)
	for i, u := range units {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			seed := u.seed
			ro := runner.Options{Scenario: u.pair.Scenario, Sets: u.pair.loadSets(), Policy: u.pair.Policy, Seed: &seed, TimelineS: o.TimelineS}
			if u.pair.Model != "" {
				m, err := LoadModel(u.pair.Model)
				if err != nil {
					errs[i] = err
					return
				}
				ro.Model = m
			}
			r, err := runner.Run(ro)
			if err != nil {
				errs[i] = fmt.Errorf("%s under %s (seed %d): %w", u.pair.Scenario, u.pair.Name(), seed, err)
				return
			}
			runs[i], headers[i] = collect(r, u.pair, o.MaxPoints)
			tick(fmt.Sprintf("%s %s seed %d", u.pair.Scenario, u.pair.Name(), seed))
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	res.Runs = runs
	res.Aggregates = AggregateRuns(runs)
	if len(units) > 0 {
		res.JobColumns = headers[0]
	}
	for _, p := range papers {
		ctx := repro.Context{Seeds: res.Seeds, Parallel: o.Parallel}
		rows, err := p.Run(ctx)
		if err != nil {
			res.Skipped = append(res.Skipped, Skip{Paper: p.Name, Reason: "reproduction failed: " + err.Error()})
			tick("reproduction " + p.Name + " (failed)")
			continue
		}
		res.Papers = append(res.Papers, Paper{Name: p.Name, Title: p.Title, Rows: paperRows(rows)})
		tick("reproduction " + p.Name)
	}
	return res, nil
}

// collect keeps what the report needs from a finished run, and returns the
// header of its per-job rows.
func collect(r *runner.Result, p Pair, maxPoints int) (Record, []string) {
	run := Record{Variant: p.Name(), Sets: append([]string{}, p.Sets...), SummaryJSON: r.JSON(), StateVars: []string{}}
	finite(run.Params)
	finite(run.PolicyState)
	for _, v := range r.Sim.Policy().State {
		run.StateVars = append(run.StateVars, v.Name)
	}
	jobs := r.JobsCSV()
	run.Jobs = jobs[1:]
	tl := r.Sim.Timeline()
	for _, i := range keep(len(tl), maxPoints) {
		run.Timeline = append(run.Timeline, point(tl[i]))
	}
	return run, jobs[0]
}

// finite drops NaN and infinite entries, which JSON cannot hold.
func finite(m map[string]float64) {
	for k, v := range m {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			delete(m, k)
		}
	}
}

// keep returns the indexes of the samples kept: all of them when there are
// at most max, else every k-th (k = ceil(n/max)) and the last.
func keep(n, max int) []int {
	step := 1
	if n > max {
		step = (n + max - 1) / max
	}
	var out []int
	for i := 0; i < n; i += step {
		out = append(out, i)
	}
	if n > 0 && out[len(out)-1] != n-1 {
		out = append(out, n-1)
	}
	return out
}

func point(s sim.Sample) Point {
	p := Point{TS: float64(s.AtMs) / 1000, VCoresGuaranteed: float64(s.VCoresGuaranteed), VCoresOpp: float64(s.VCoresOpp),
		VCoresUsed: round6(s.CPUUsed), MemMBReserved: float64(s.MemMBReserved), MemMBUsed: round6(s.MemMBUsed),
		ContainersNormal: float64(s.ContainersG), ContainersOpp: float64(s.ContainersO), PendingTasks: float64(s.PendingTasks),
		WaitingJobs: float64(s.WaitingJobs), RunningJobs: float64(s.RunningJobs), State: make([]float64, len(s.Policy))}
	for i, v := range s.Policy {
		p.State[i] = round6(v)
	}
	return p
}
