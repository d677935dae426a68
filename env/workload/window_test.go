package workload

import (
	"reflect"
	"strings"
	"testing"

	"yarngym/env/sim"
)

// TestAlibabaWindows: the alibaba loader replays one window of the trace as
// the swim loader does (TestSWIMWindows): a fixed window, or one drawn per
// seed among those from windows_from to windows_to that hold jobs; the
// window's jobs are submitted relative to its start and cut to max_jobs;
// bad settings are refused naming the keys. Windows of 100 s over a trace
// with jobs at 5 s (window 0), 150 and 160 s (window 1) and 390 s (window
// 3; window 2 is empty).
func TestAlibabaWindows(t *testing.T) {
	const csv = ",submit_time,duration,cpu,memory,job_id,task_id,instances_num,disk\n" +
		"0,5,10,1,0.01,1,1,2,0\n" +
		"1,160,10,1,0.01,3,1,1,0\n" +
		"2,150,10,1,0.01,2,1,1,0\n" +
		"3,390,10,1,0.01,4,1,1,0\n" +
		"4,7,10,1,0.01,1,2,1,0\n"
	type sub struct {
		name string
		ms   int64
	}
	for _, c := range []struct {
		name       string
		set        func(o *AlibabaOptions)
		want       []sub // one seed's jobs (seeds 1..40 when draws is set)
		draws      [][]sub
		err        string
		errOnParse bool
	}{
		{name: "window 0", set: func(o *AlibabaOptions) { o.Window = 0 }, want: []sub{{"alibaba-1", 5000}}},
		{name: "window 1", set: func(o *AlibabaOptions) { o.Window = 1 }, want: []sub{{"alibaba-2", 50000}, {"alibaba-3", 60000}}},
		{name: "window 3", set: func(o *AlibabaOptions) { o.Window = 3 }, want: []sub{{"alibaba-4", 90000}}},
		{name: "window 1, max_jobs 1", set: func(o *AlibabaOptions) { o.Window, o.MaxJobs = 1, 1 }, want: []sub{{"alibaba-2", 50000}}},
		{name: "window 1, time_scale 2", set: func(o *AlibabaOptions) { o.Window, o.TimeScale = 1, 2 }, want: []sub{{"alibaba-2", 100000}, {"alibaba-3", 120000}}},
		{name: "drawn in 1..2: only 1 holds jobs", set: func(o *AlibabaOptions) { o.Window, o.WindowsFrom, o.WindowsTo = -1, 1, 2 },
			draws: [][]sub{{{"alibaba-2", 50000}, {"alibaba-3", 60000}}}},
		{name: "drawn among all", set: func(o *AlibabaOptions) { o.Window = -1 },
			draws: [][]sub{{{"alibaba-1", 5000}}, {{"alibaba-2", 50000}, {"alibaba-3", 60000}}, {{"alibaba-4", 90000}}}},
		{name: "drawn from 2 to the last", set: func(o *AlibabaOptions) { o.Window, o.WindowsFrom = -1, 2 },
			draws: [][]sub{{{"alibaba-4", 90000}}}},
		{name: "empty window", set: func(o *AlibabaOptions) { o.Window = 2 }, err: "window 2 ([200, 300) s) has no jobs"},
		{name: "no window holds jobs", set: func(o *AlibabaOptions) { o.Window, o.WindowsFrom, o.WindowsTo = -1, 2, 2 }, err: "no window from 2 to 2 holds jobs"},
		{name: "window past the trace", set: func(o *AlibabaOptions) { o.Window = 4 }, err: "the trace has 4 windows of 100 s", errOnParse: true},
		{name: "range past the trace", set: func(o *AlibabaOptions) { o.Window, o.WindowsTo = -1, 7 }, err: "windows_from, windows_to: 0, 7: the trace has 4 windows", errOnParse: true},
		{name: "range reversed", set: func(o *AlibabaOptions) { o.Window, o.WindowsFrom, o.WindowsTo = -1, 3, 1 }, err: "windows_from <= windows_to", errOnParse: true},
		{name: "range with a fixed window", set: func(o *AlibabaOptions) { o.Window, o.WindowsFrom = 1, 1 }, err: "need window = -1", errOnParse: true},
		{name: "window without window_s", set: func(o *AlibabaOptions) { o.WindowS, o.Window = 0, 1 }, err: "window: 1", errOnParse: true},
		{name: "window and repeat", set: func(o *AlibabaOptions) { o.Window, o.Repeat = 1, 2 }, err: "exclude each other", errOnParse: true},
		{name: "negative window_s", set: func(o *AlibabaOptions) { o.WindowS = -1 }, err: "window_s", errOnParse: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := AlibabaDefaults()
			o.WindowS = 100
			c.set(o)
			// Parse once, then build seeds from it, as a scenario does.
			parsed, err := parseAlibaba(strings.NewReader(csv), "a.csv", o)
			if c.errOnParse {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := func(seed uint64) ([]sub, error) {
				jobs, err := buildAlibaba(o, parsed, sim.NewRand(seed))
				var out []sub
				for _, j := range jobs {
					out = append(out, sub{j.Name, j.SubmitMs})
				}
				return out, err
			}
			if c.err != "" {
				if _, err := got(1); err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want %q", err, c.err)
				}
				return
			}
			if c.draws == nil {
				jobs, err := got(1)
				if err != nil || !reflect.DeepEqual(jobs, c.want) {
					t.Fatalf("jobs %v (%v), want %v", jobs, err, c.want)
				}
				return
			}
			seen := map[int]bool{}
			for seed := uint64(1); seed <= 40; seed++ {
				jobs, err := got(seed)
				if err != nil {
					t.Fatal(err)
				}
				again, _ := got(seed)
				if !reflect.DeepEqual(jobs, again) {
					t.Fatalf("seed %d drew %v, then %v", seed, jobs, again)
				}
				k := -1
				for i, d := range c.draws {
					if reflect.DeepEqual(jobs, d) {
						k = i
					}
				}
				if k < 0 {
					t.Fatalf("seed %d: jobs %v, none of the windows allowed %v", seed, jobs, c.draws)
				}
				seen[k] = true
			}
			if len(seen) != len(c.draws) {
				t.Errorf("40 seeds drew windows %v of %d", seen, len(c.draws))
			}
		})
	}
	// The parsed jobs serve every seed: a window's shift is not kept.
	o := AlibabaDefaults()
	o.WindowS, o.Window = 100, 1
	parsed, err := parseAlibaba(strings.NewReader(csv), "a.csv", o)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if jobs, err := buildAlibaba(o, parsed, sim.NewRand(1)); err != nil || jobs[0].SubmitMs != 50000 {
			t.Fatalf("a second build: %v, %v", jobs, err)
		}
	}
}

// TestAlibabaWindowsRealTrace: the shipped trace's hours are the full
// trace's jobs cut by submission hour, each submitted inside its hour.
func TestAlibabaWindowsRealTrace(t *testing.T) {
	g, _ := Lookup("alibaba")
	all := loadTrace(t, "alibaba", alibabaPath, 1)
	perHour := map[int]int{}
	for _, j := range all {
		perHour[int(j.SubmitMs/3600000)]++
	}
	if len(perHour) != 17 {
		t.Fatalf("the trace spans %d hours, want 17 (0 to 59,829 s)", len(perHour))
	}
	for k := range 17 {
		o := g.Options().(*AlibabaOptions)
		o.Path, o.WindowS, o.Window = alibabaPath, 3600, k
		jobs, err := g.Generate(o, sim.NewRand(1))
		if err != nil {
			t.Fatal(err)
		}
		if len(jobs) != perHour[k] || jobs[len(jobs)-1].SubmitMs >= 3600000 {
			t.Errorf("hour %d: %d jobs (the trace has %d in it), the last submitted at %d ms", k, len(jobs), perHour[k], jobs[len(jobs)-1].SubmitMs)
		}
	}
}
