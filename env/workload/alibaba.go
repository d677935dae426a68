package workload

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"yarngym/env/sim"
)

// AlibabaOptions configures the loader of the Alibaba cluster-trace-v2017
// batch jobs as CloudSimPy prepares them
// (data/traces/alibaba2017/jobs.csv): one row per task, with its job,
// submission time (s), instance count, mean instance duration (s), CPU
// (cores) and memory (a fraction of a machine).
//
// Each job becomes a "batch" job with one stage per task, in the order its
// rows appear. The csv carries no dependencies between a job's tasks, so the
// loader assumes they run one after another: stage i+1 is requested once
// every instance of stage i has finished (slow-start 1). This sequential
// chain is an assumption, not the trace's DAG; a job is submitted at the
// earliest submission time of its rows, and later rows' own submission times
// are not used.
type AlibabaOptions struct {
	// Path is the csv file; required.
	Path string `toml:"path"`
	// MachineMemMB turns the normalised memory column into MB: assumed
	// 64 GiB, the order of the 2017 trace's machines (their real size is
	// not published; the trace only gives fractions).
	MachineMemMB int64 `toml:"machine_mem_mb"`
	// MaxJobs keeps only the first max_jobs jobs by submission time (0: all),
	// of the repeated trace when repeat > 1, of the window with a window.
	MaxJobs int `toml:"max_jobs"`
	// TimeScale multiplies submission times; 0 submits every job at time 0.
	// It applies after repeat.
	TimeScale float64 `toml:"time_scale"`
	// Repeat lays repeat copies of the trace end to end, as the swim
	// loader's repeat does: copy k submits each job k periods (the span from
	// first to last submission plus the mean gap) after the original; copy
	// k > 0 of job ID is named alibaba-ID-copyK and draws its own durations.
	Repeat int `toml:"repeat"`
	// WindowS, Window, WindowsFrom and WindowsTo replay one window of the
	// trace, as the swim loader's (window.go): window_s seconds of
	// submissions counted from time 0 (0: the whole trace), the k-th window
	// (window = k >= 0) or one drawn per seed among windows_from to
	// windows_to (inclusive; -1: the last) that hold jobs (window = -1), so
	// that a scenario is a family of workloads whose parts share no window.
	// A job falls in the window of its submission; the window's jobs are
	// submitted relative to its start, then max_jobs and time_scale apply.
	// A window and repeat > 1 exclude each other.
	WindowS     float64 `toml:"window_s"`
	Window      int     `toml:"window"`
	WindowsFrom int     `toml:"windows_from"`
	WindowsTo   int     `toml:"windows_to"`
	// Sigma is the log-space spread of instance durations around the
	// task's mean duration (used as the median).
	Sigma float64 `toml:"sigma"`
	// AMVCores and AMMemMB are a per-job master's request; both 0 (the
	// default) means the jobs have no AM.
	AMVCores int64 `toml:"am_vcores"`
	AMMemMB  int64 `toml:"am_mem_mb"`
	// Strict refuses a trace with a row that cannot be replayed (a wrong
	// column count, an empty id, a repeated task, a bad or out-of-range
	// number); by default such a row is skipped and the skip reported
	// (Notes), as real traces hold damaged lines.
	Strict bool `toml:"strict"`
	notes  []string
}

// Notes are the rows the last load skipped, for the user; the scenario
// reports them as warnings.
func (o *AlibabaOptions) Notes() []string { return o.notes }

// AlibabaDefaults returns the Alibaba loader's default options (Path is
// empty).
func AlibabaDefaults() *AlibabaOptions {
	return &AlibabaOptions{MachineMemMB: 65536, TimeScale: 1, Sigma: 0.1, Repeat: 1, WindowsTo: -1}
}

func (o *AlibabaOptions) validate() error {
	if o.MachineMemMB <= 0 || o.MachineMemMB > 1<<40 {
		return fmt.Errorf("machine_mem_mb: must be in [1, 2^40], got %d", o.MachineMemMB)
	}
	if err := checkRepeat(o.Repeat); err != nil {
		return err
	}
	if err := checkWindows(o.WindowS, o.Window, o.WindowsFrom, o.WindowsTo, o.Repeat); err != nil {
		return err
	}
	return checkTraceCommon(o.Sigma, o.TimeScale, o.MaxJobs, o.AMVCores, o.AMMemMB)
}

// alibabaColumns are the columns the loader reads; "disk" is checked when
// present but not used, other columns (the leading row index) are ignored.
var alibabaColumns = []string{"submit_time", "duration", "cpu", "memory", "job_id", "task_id", "instances_num"}

type alibabaTask struct {
	id        string
	instances int
	durS      float64
	req       sim.Res
}

type alibabaJob struct {
	id      string
	submitS float64
	tasks   []alibabaTask
	copy    int // which copy of the trace (repeat); submitS includes its shift
}

// LoadAlibaba reads a CloudSimPy-style Alibaba 2017 jobs csv from r (name is
// used in error messages) and builds its jobs with options o (nil: the
// defaults; o.Path is not used). The header names the columns (see
// alibabaColumns); numbers must be finite and non-negative, instances_num an
// integer of at least 1 and memory at most 1 (a whole machine). Jobs are
// returned by submission time, ties in the order they first appear.
func LoadAlibaba(r io.Reader, name string, o *AlibabaOptions, rng *sim.Rand) ([]sim.JobSpec, error) {
	return loadTraceFrom("alibaba", r, name, o, AlibabaDefaults, parseAlibaba, buildAlibaba, rng)
}

// parseAlibaba validates o and reads the trace's jobs, sorted by submission
// and cut to max_jobs. It draws nothing: the jobs serve every seed.
func parseAlibaba(r io.Reader, name string, o *AlibabaOptions) ([]*alibabaJob, error) {
	if err := o.validate(); err != nil {
		return nil, err
	}
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	wrap := func(err error) error {
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			return fmt.Errorf("%s:%d: character %d: %v", name, pe.Line, pe.Column, pe.Err)
		}
		return fmt.Errorf("%s: %w", name, err)
	}
	header, err := cr.Read()
	if err == io.EOF {
		return nil, fmt.Errorf("%s: empty file (want a header: ,submit_time,duration,cpu,memory,job_id,task_id,instances_num,disk)", name)
	}
	if err != nil {
		return nil, wrap(err)
	}
	ncol := len(header)
	col := map[string]int{}
	for i, h := range header {
		h = strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))
		if h == "" {
			continue
		}
		if j, ok := col[h]; ok {
			return nil, fmt.Errorf("%s:1: column %d: header %q repeats column %d", name, i+1, h, j+1)
		}
		col[h] = i
	}
	for _, c := range alibabaColumns {
		if _, ok := col[c]; !ok {
			return nil, fmt.Errorf("%s:1: header has no %q column (want ,submit_time,duration,cpu,memory,job_id,task_id,instances_num,disk)", name, c)
		}
	}
	_, hasDisk := col["disk"]

	var jobs []*alibabaJob
	byID := map[string]*alibabaJob{}
	taskLine := map[[2]string]int{}
	o.notes = nil
	// parseRow reads one row; an error is the row's (skipped unless
	// o.Strict).
	parseRow := func(rec []string, line int) (string, alibabaTask, float64, error) {
		if len(rec) != ncol {
			return "", alibabaTask{}, 0, fmt.Errorf("%s:%d: %d columns, want %d as in the header", name, line, len(rec), ncol)
		}
		where := func(key string) string {
			return fmt.Sprintf("%s:%d: column %d (%s)", name, line, col[key]+1, key)
		}
		num := func(key string) (float64, error) {
			s := strings.TrimSpace(rec[col[key]])
			v, err := strconv.ParseFloat(s, 64)
			switch {
			case err != nil && !errors.Is(err, strconv.ErrRange):
				return 0, fmt.Errorf("%s: %q is not a number", where(key), s)
			case err != nil || math.IsInf(v, 0) || math.IsNaN(v):
				return 0, fmt.Errorf("%s: %q is not a finite number", where(key), s)
			case v < 0:
				return 0, fmt.Errorf("%s: %v is negative", where(key), v)
			}
			return v, nil
		}
		ident := func(key string) (string, error) {
			s := strings.TrimSpace(rec[col[key]])
			if s == "" {
				return "", fmt.Errorf("%s: empty", where(key))
			}
			return s, nil
		}
		jobID, err := ident("job_id")
		if err != nil {
			return "", alibabaTask{}, 0, err
		}
		taskID, err := ident("task_id")
		if err != nil {
			return "", alibabaTask{}, 0, err
		}
		if prev, ok := taskLine[[2]string{jobID, taskID}]; ok {
			return "", alibabaTask{}, 0, fmt.Errorf("%s: job %s task %s already appears on line %d", where("task_id"), jobID, taskID, prev)
		}
		var v [4]float64
		for i, key := range []string{"submit_time", "duration", "cpu", "memory"} {
			if v[i], err = num(key); err != nil {
				return "", alibabaTask{}, 0, err
			}
		}
		submitS, durS, cpu, mem := v[0], v[1], v[2], v[3]
		if _, err := traceSubmitMs(submitS, o.TimeScale); err != nil {
			return "", alibabaTask{}, 0, fmt.Errorf("%s: %v", where("submit_time"), err)
		}
		if durS > traceMaxSec {
			return "", alibabaTask{}, 0, fmt.Errorf("%s: %v s is over the limit of %g s", where("duration"), durS, float64(traceMaxSec))
		}
		if cpu > 1e6 {
			return "", alibabaTask{}, 0, fmt.Errorf("%s: %v cores is over the limit of 1e6", where("cpu"), cpu)
		}
		if mem > 1 {
			return "", alibabaTask{}, 0, fmt.Errorf("%s: %v is over 1 (memory is a fraction of a machine)", where("memory"), mem)
		}
		if hasDisk {
			if _, err := num("disk"); err != nil {
				return "", alibabaTask{}, 0, err
			}
		}
		s := strings.TrimSpace(rec[col["instances_num"]])
		n, err := strconv.ParseInt(s, 10, 64)
		switch {
		case err != nil:
			return "", alibabaTask{}, 0, fmt.Errorf("%s: %q is not an integer", where("instances_num"), s)
		case n < 1:
			return "", alibabaTask{}, 0, fmt.Errorf("%s: %d, want at least 1", where("instances_num"), n)
		case n > int64(traceMaxStageTasks):
			return "", alibabaTask{}, 0, fmt.Errorf("%s: %d is over the limit of %d instances", where("instances_num"), n, traceMaxStageTasks)
		}
		return jobID, alibabaTask{id: taskID, instances: int(n), durS: durS, req: sim.Res{
			VCores: max(1, int64(math.Ceil(cpu))),
			MemMB:  max(1, int64(math.Round(mem*float64(o.MachineMemMB))))}}, submitS, nil
	}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, wrap(err)
		}
		line, _ := cr.FieldPos(0)
		jobID, t, submitS, err := parseRow(rec, line)
		if err != nil {
			if o.Strict {
				return nil, err
			}
			o.notes = append(o.notes, err.Error()+": row skipped (strict = true refuses the trace)")
			continue
		}
		taskLine[[2]string{jobID, t.id}] = line
		j := byID[jobID]
		if j == nil {
			j = &alibabaJob{id: jobID, submitS: submitS}
			byID[jobID] = j
			jobs = append(jobs, j)
		}
		j.submitS = min(j.submitS, submitS)
		j.tasks = append(j.tasks, t)
	}
	if len(jobs) == 0 {
		if len(o.notes) > 0 {
			return nil, fmt.Errorf("%s: no jobs (%d rows skipped; the first: %s)", name, len(o.notes), o.notes[0])
		}
		return nil, fmt.Errorf("%s: no jobs (only a header)", name)
	}
	sort.SliceStable(jobs, func(a, b int) bool { return jobs[a].submitS < jobs[b].submitS })
	if o.Repeat > 1 {
		period := repeatPeriod(jobs[0].submitS, jobs[len(jobs)-1].submitS, len(jobs))
		last := jobs[len(jobs)-1].submitS + float64(o.Repeat-1)*period
		if _, err := traceSubmitMs(last, o.TimeScale); err != nil {
			return nil, fmt.Errorf("%s: repeat: the last copy's last submission: %v", name, err)
		}
		n := len(jobs)
		for k := 1; k < o.Repeat; k++ {
			for _, j := range jobs[:n] {
				jobs = append(jobs, &alibabaJob{id: j.id, submitS: j.submitS + float64(k)*period, tasks: j.tasks, copy: k})
			}
		}
	}
	if err := checkWindowsIn(name, jobs[len(jobs)-1].submitS, o.WindowS, o.Window, o.WindowsFrom, o.WindowsTo); err != nil {
		return nil, err
	}
	if o.WindowS == 0 && o.MaxJobs > 0 && len(jobs) > o.MaxJobs { // with a window, buildAlibaba cuts the window's
		jobs = jobs[:o.MaxJobs]
	}
	return jobs, nil
}

// alibabaWindow returns the jobs of the window o selects (drawing it from
// rng when o.Window is -1), submitted relative to its start (copies: the
// parsed jobs are shared by every seed), cut to max_jobs; jobs itself
// without a window.
func alibabaWindow(o *AlibabaOptions, jobs []*alibabaJob, rng *sim.Rand) ([]*alibabaJob, error) {
	w := o.WindowS
	if w <= 0 {
		return jobs, nil
	}
	submits := make([]float64, len(jobs))
	for i, j := range jobs {
		submits[i] = j.submitS
	}
	k, lo, hi, err := pickWindow(submits, w, o.Window, o.WindowsFrom, o.WindowsTo, rng)
	if err != nil {
		return nil, err
	}
	var in []*alibabaJob
	for _, j := range jobs {
		if j.submitS >= lo && j.submitS < hi {
			c := *j
			c.submitS -= lo
			in = append(in, &c)
		}
	}
	if len(in) == 0 {
		return nil, fmt.Errorf("window %d ([%g, %g) s) has no jobs", k, lo, hi)
	}
	if o.MaxJobs > 0 && len(in) > o.MaxJobs {
		in = in[:o.MaxJobs]
	}
	return in, nil
}

// buildAlibaba draws one seed's jobs from parsed ones.
func buildAlibaba(o *AlibabaOptions, jobs []*alibabaJob, rng *sim.Rand) ([]sim.JobSpec, error) {
	jobs, err := alibabaWindow(o, jobs, rng)
	if err != nil {
		return nil, err
	}
	am := sim.Res{VCores: o.AMVCores, MemMB: o.AMMemMB}
	out := make([]sim.JobSpec, 0, len(jobs))
	for _, j := range jobs {
		at, _ := traceSubmitMs(j.submitS, o.TimeScale) // checked while parsing
		spec := sim.JobSpec{Name: copyName("alibaba-"+j.id, j.copy), App: "alibaba", Framework: "batch", SubmitMs: at, AM: am}
		for i, t := range j.tasks {
			st := sim.StageSpec{Name: "task-" + t.id, Kind: sim.KindGeneric, Req: t.req, Profile: sim.MapProfile,
				DurationsMs: durations(rng, t.instances, t.durS, o.Sigma)}
			if i > 0 {
				st.SlowStart = 1 // assumed: the previous task must finish first
			}
			spec.Stages = append(spec.Stages, st)
		}
		out = append(out, spec)
	}
	return out, nil
}

func init() {
	registerTrace("alibaba", "Alibaba 2017 batch trace (CloudSimPy jobs.csv, data/traces/alibaba2017/): path required; one stage per task, chained one after another (assumed)",
		AlibabaDefaults, parseAlibaba, buildAlibaba)
}
