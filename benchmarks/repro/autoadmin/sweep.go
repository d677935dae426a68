package autoadmin

import (
	"fmt"
	"math"
	"sort"

	"yarngym/benchmarks/repro"
)

// setting is one workload to compare the static reservations and AutoAdmin
// on: a scenario with its overrides; reservations above maxR admit nothing.
type setting struct {
	scenario string
	sets     []string
	maxR     int
}

// result is a setting's comparison: the best static reservation (lowest mean
// makespan over the seeds), the makespans there and under AutoAdmin, and the
// Perf. Score (Eq. 4.1) per seed against that best reservation.
type result struct {
	bestR                 int
	swept                 string
	static, dynamic, perf repro.Stat
	stuck                 int // AutoAdmin runs that left jobs unfinished
}

func staticRun(st setting, r int) repro.Run {
	sets := append([]string{"policy.name=static-reserve", fmt.Sprintf("reserved_vcores=%d", r)}, st.sets...)
	return repro.Run{Scenario: st.scenario, Sets: sets}
}

func dynamicRun(st setting) repro.Run {
	return repro.Run{Scenario: st.scenario, Sets: append([]string{"policy.name=autoadmin"}, st.sets...)}
}

// perSeed runs every run once per seed and returns the makespans by run and
// seed (NaN where jobs did not complete).
func perSeed(ctx repro.Context, runs []repro.Run) ([][]float64, error) {
	vals, err := repro.Sweep(ctx, runs, makespan)
	if err != nil {
		return nil, err
	}
	out := make([][]float64, len(runs))
	for i := range runs {
		out[i] = vals[i]["makespan"]
	}
	return out, nil
}

// compare sweeps the static reservation for every setting (coarse grid, then
// a refinement around the best) and runs AutoAdmin on it, per seed.
func compare(ctx repro.Context, settings []setting, o Options) ([]result, error) {
	const dynamic = -1
	type key struct{ setting, r int }
	ms := map[key][]float64{}
	var runs []repro.Run
	var keys []key
	flush := func() error {
		vals, err := perSeed(ctx, runs)
		if err != nil {
			return err
		}
		for i, k := range keys {
			ms[k] = vals[i]
		}
		runs, keys = nil, nil
		return nil
	}
	best := func(si int) int {
		b, bm := -1, math.Inf(1)
		var rs []int
		for k := range ms {
			if k.setting == si && k.r != dynamic {
				rs = append(rs, k.r)
			}
		}
		sort.Ints(rs)
		for _, r := range rs {
			if m := repro.MeanSD(ms[key{si, r}]).Mean; m < bm { // NaN (stuck) never wins
				b, bm = r, m
			}
		}
		return b
	}
	for si, st := range settings {
		keys, runs = append(keys, key{si, dynamic}), append(runs, dynamicRun(st))
		for _, r := range o.Coarse {
			if r <= st.maxR {
				keys, runs = append(keys, key{si, r}), append(runs, staticRun(st, r))
			}
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	lo, hi := make([]int, len(settings)), make([]int, len(settings))
	for si, st := range settings {
		b := best(si)
		lo[si], hi[si] = max(b-o.Refine, 0), min(b+o.Refine, st.maxR)
		for r := lo[si]; b >= 0 && r <= hi[si]; r++ {
			if _, done := ms[key{si, r}]; !done {
				keys, runs = append(keys, key{si, r}), append(runs, staticRun(st, r))
			}
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	out := make([]result, len(settings))
	for si := range settings {
		b := best(si)
		res := result{bestR: b, dynamic: repro.MeanSD(ms[key{si, dynamic}]), static: repro.Stat{Mean: math.NaN(), SD: math.NaN()},
			perf: repro.Stat{Mean: math.NaN(), SD: math.NaN()}}
		res.swept = fmt.Sprintf("%s, then %d..%d", grid(o.Coarse, settings[si].maxR), lo[si], hi[si])
		for _, m := range ms[key{si, dynamic}] {
			if math.IsNaN(m) {
				res.stuck++
			}
		}
		if b >= 0 {
			st := ms[key{si, b}]
			res.static = repro.MeanSD(st)
			perf := make([]float64, len(st))
			for i := range st {
				perf[i] = (1 - (ms[key{si, dynamic}][i]-st[i])/st[i]) * 100
			}
			res.perf = repro.MeanSD(perf)
		}
		out[si] = res
	}
	return out, nil
}

// grid describes the coarse reservations used up to maxR.
func grid(rs []int, maxR int) string {
	var used []int
	for _, r := range rs {
		if r <= maxR {
			used = append(used, r)
		}
	}
	switch {
	case len(used) == 0:
		return "none"
	case len(used) == 1:
		return fmt.Sprint(used[0])
	}
	return fmt.Sprintf("%d..%d step %d", used[0], used[len(used)-1], used[1]-used[0])
}
