package suite

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"yarngym/internal/atomicfile"
)

// The files a results folder holds. Load needs all but runs.csv (which
// repeats summary.json's runs as a flat table for spreadsheets and pandas).
const (
	SummaryFile  = "summary.json"
	RunsFile     = "runs.csv"
	JobsFile     = "jobs.csv"
	TimelineFile = "timeline.csv"
	StateFile    = "policy_state.csv"
)

var keyCols = []string{"scenario", "variant", "policy", "seed"}

var runCols = []struct {
	name string
	get  func(r *Record) string
}{
	{"sets", func(r *Record) string { return strings.Join(r.Sets, " ") }},
	{"makespan_s", func(r *Record) string { return ff(r.MakespanS) }},
	{"mean_wait_s", func(r *Record) string { return ff(r.MeanWaitS) }},
	{"mean_completion_s", func(r *Record) string { return ff(r.MeanCompletionS) }},
	{"jobs_completed", func(r *Record) string { return fmt.Sprint(r.JobsCompleted) }},
	{"jobs_stuck", func(r *Record) string { return fmt.Sprint(r.JobsStuck) }},
	{"jobs_unfinished", func(r *Record) string { return fmt.Sprint(r.JobsUnfinished) }},
	{"tasks_killed", func(r *Record) string { return fmt.Sprint(r.TasksKilled) }},
	{"wasted_work_s", func(r *Record) string { return ff(r.WastedWorkS) }},
	{"reducers_preempted", func(r *Record) string { return fmt.Sprint(r.ReducersPreempted) }},
	{"opportunistic_started", func(r *Record) string { return fmt.Sprint(r.OpportunisticStarted) }},
	{"reducers_suspended", func(r *Record) string { return fmt.Sprint(r.ReducersSuspended) }},
	{"vcores_reserved_mean", func(r *Record) string { return ff(r.VCoresReservedMean) }},
	{"vcores_used_mean", func(r *Record) string { return ff(r.VCoresUsedMean) }},
	{"mem_mb_reserved_mean", func(r *Record) string { return ff(r.MemMBReservedMean) }},
	{"mem_mb_used_mean", func(r *Record) string { return ff(r.MemMBUsedMean) }},
	{"swap_s", func(r *Record) string { return ff(r.SwapS) }},
	{"events", func(r *Record) string { return fmt.Sprint(r.Events) }},
	{"end_s", func(r *Record) string { return ff(r.EndS) }},
	{"truncated", func(r *Record) string { return fmt.Sprint(r.Truncated) }},
}

var timelineCols = []string{"t_s", "vcores_guaranteed", "vcores_opportunistic", "vcores_used", "mem_mb_reserved", "mem_mb_used",
	"containers_normal", "containers_opportunistic", "pending_tasks", "waiting_jobs", "running_jobs"}

func (p *Point) fields() []*float64 {
	return []*float64{&p.TS, &p.VCoresGuaranteed, &p.VCoresOpp, &p.VCoresUsed, &p.MemMBReserved, &p.MemMBUsed,
		&p.ContainersNormal, &p.ContainersOpp, &p.PendingTasks, &p.WaitingJobs, &p.RunningJobs}
}

// ff formats a float so that parsing it gives the same float back.
func ff(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

func (r *Record) key() []string {
	return []string{r.Scenario, r.Variant, r.Policy, fmt.Sprint(r.Seed)}
}

// Write saves res in dir: summary.json, runs.csv, jobs.csv, timeline.csv
// and policy_state.csv. The same results give the same bytes.
func Write(dir string, res *Results) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	sum, err := SummaryJSON(res)
	if err != nil {
		return err
	}
	if err := atomicfile.Write(filepath.Join(dir, SummaryFile), sum); err != nil {
		return err
	}
	runs := [][]string{append(append([]string{"suite"}, keyCols...), names(runCols)...)}
	jobs := [][]string{append(append([]string{}, keyCols...), res.JobColumns...)}
	tl := [][]string{append(append([]string{}, keyCols...), timelineCols...)}
	st := [][]string{append(append([]string{}, keyCols...), "t_s", "var", "value")}
	for i := range res.Runs {
		r := &res.Runs[i]
		k := r.key()
		row := append([]string{res.Suite}, k...)
		for _, c := range runCols {
			row = append(row, c.get(r))
		}
		runs = append(runs, row)
		for _, j := range r.Jobs {
			jobs = append(jobs, append(append([]string{}, k...), j...))
		}
		for pi := range r.Timeline {
			p := &r.Timeline[pi]
			row := append([]string{}, k...)
			for _, f := range p.fields() {
				row = append(row, ff(*f))
			}
			tl = append(tl, row)
			for vi, v := range p.State {
				st = append(st, append(append([]string{}, k...), ff(p.TS), r.StateVars[vi], ff(v)))
			}
		}
	}
	for name, rows := range map[string][][]string{RunsFile: runs, JobsFile: jobs, TimelineFile: tl, StateFile: st} {
		if err := writeCSV(filepath.Join(dir, name), rows); err != nil {
			return err
		}
	}
	return nil
}

func names(cols []struct {
	name string
	get  func(r *Record) string
}) []string {
	var out []string
	for _, c := range cols {
		out = append(out, c.name)
	}
	return out
}

// SummaryJSON returns summary.json's bytes (indented, newline-terminated).
func SummaryJSON(res *Results) ([]byte, error) {
	b, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("summary.json: %w", err)
	}
	return append(b, '\n'), nil
}

func writeCSV(path string, rows [][]string) error {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	if err := w.WriteAll(rows); err != nil {
		return err
	}
	return atomicfile.Write(path, buf.Bytes())
}

func readCSV(path string) ([][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s: empty (no header)", path)
	}
	return rows, nil
}

// Load reads a results folder written by Write.
func Load(dir string) (*Results, error) {
	b, err := os.ReadFile(filepath.Join(dir, SummaryFile))
	if err != nil {
		return nil, err
	}
	res := &Results{}
	if err := json.Unmarshal(b, res); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, SummaryFile), err)
	}
	idx := map[string]int{}
	for i := range res.Runs {
		idx[strings.Join(res.Runs[i].key(), "\x00")] = i
	}
	find := func(file string, line int, row []string) (*Record, error) {
		if len(row) < len(keyCols) {
			return nil, fmt.Errorf("%s line %d: too few columns", file, line)
		}
		i, ok := idx[strings.Join(row[:len(keyCols)], "\x00")]
		if !ok {
			return nil, fmt.Errorf("%s line %d: run %v is not in %s", file, line, row[:len(keyCols)], SummaryFile)
		}
		return &res.Runs[i], nil
	}

	jobs, err := readCSV(filepath.Join(dir, JobsFile))
	if err != nil {
		return nil, err
	}
	res.JobColumns = jobs[0][len(keyCols):]
	for n, row := range jobs[1:] {
		r, err := find(JobsFile, n+2, row)
		if err != nil {
			return nil, err
		}
		r.Jobs = append(r.Jobs, row[len(keyCols):])
	}

	tl, err := readCSV(filepath.Join(dir, TimelineFile))
	if err != nil {
		return nil, err
	}
	if got := strings.Join(tl[0], ","); got != strings.Join(append(append([]string{}, keyCols...), timelineCols...), ",") {
		return nil, fmt.Errorf("%s: unexpected header %q", TimelineFile, got)
	}
	for n, row := range tl[1:] {
		r, err := find(TimelineFile, n+2, row)
		if err != nil {
			return nil, err
		}
		if len(row) != len(keyCols)+len(timelineCols) {
			return nil, fmt.Errorf("%s line %d: %d columns, want %d", TimelineFile, n+2, len(row), len(keyCols)+len(timelineCols))
		}
		p := Point{State: make([]float64, len(r.StateVars))}
		for i := range p.State {
			p.State[i] = math.NaN()
		}
		for i, f := range p.fields() {
			if *f, err = strconv.ParseFloat(row[len(keyCols)+i], 64); err != nil {
				return nil, fmt.Errorf("%s line %d: %s: %w", TimelineFile, n+2, timelineCols[i], err)
			}
		}
		r.Timeline = append(r.Timeline, p)
	}

	st, err := readCSV(filepath.Join(dir, StateFile))
	if err != nil {
		return nil, err
	}
	at := map[*Record]map[float64]int{}
	for n, row := range st[1:] {
		r, err := find(StateFile, n+2, row)
		if err != nil {
			return nil, err
		}
		if len(row) != len(keyCols)+3 {
			return nil, fmt.Errorf("%s line %d: %d columns, want %d", StateFile, n+2, len(row), len(keyCols)+3)
		}
		if at[r] == nil {
			at[r] = map[float64]int{}
			for i, p := range r.Timeline {
				at[r][p.TS] = i
			}
		}
		t, err1 := strconv.ParseFloat(row[len(keyCols)], 64)
		v, err2 := strconv.ParseFloat(row[len(keyCols)+2], 64)
		pi, ok := at[r][t]
		vi := indexOf(r.StateVars, row[len(keyCols)+1])
		if err1 != nil || err2 != nil || !ok || vi < 0 {
			return nil, fmt.Errorf("%s line %d: bad sample %v", StateFile, n+2, row[len(keyCols):])
		}
		r.Timeline[pi].State[vi] = v
	}
	return res, nil
}

func indexOf(xs []string, x string) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}
