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

// SWIMOptions configures the loader of SWIM traces (Chen et al., the
// Statistical Workload Injector for MapReduce), such as the Facebook 2009
// samples in data/traces/swim/FB-2009_samples_24_times_1hr_0.tsv.
//
// A SWIM line gives only a job's submission time and its bytes: map input,
// shuffle and reduce output. Task counts, durations and requests are not in
// the trace; they are modelled from the bytes with the options below, all
// assumed (the trace's paper states no task times):
//
//   - maps = max(1, ceil(map_input_bytes / block_mb MiB)), capped at
//     max_maps_per_job; each map's median nominal duration is
//     map_sec_per_block times the fraction of a block it reads (its share of
//     the job's input), at least min_task_sec. A capped job keeps its total
//     map work: its maps read, and take, more than one block each.
//   - reduces = ceil(shuffle_bytes / reduce_mb_per_task MiB) (0 when nothing
//     is shuffled), capped at max_reduces_per_job; a reducer's median is
//     reduce_sec_per_gb times the GiB it shuffles, at least min_task_sec.
//   - durations are log-normal around those medians with spread sigma.
type SWIMOptions struct {
	// Path is the trace file; required.
	Path string `toml:"path"`
	// BlockMB is the HDFS block size (MiB) a map reads: Hadoop's default
	// since 2.x (dfs.blocksize = 128 MB).
	BlockMB int64 `toml:"block_mb"`
	// MapSecPerBlock is the median nominal seconds of a map that reads one
	// full block. 20 s, assumed: about 2 s of JVM launch and task setup, then
	// 128 MiB read, deserialised and mapped at roughly 8-10 MB/s per task
	// (a node's few disks and cores are shared by all its map slots), about
	// 13-16 s, then a spill and commit of a few seconds. It is the order of
	// the median map times of tens of seconds usually reported for
	// production Hadoop clusters, whose maps each read one block.
	MapSecPerBlock float64 `toml:"map_sec_per_block"`
	// ReduceMBPerTask is the shuffle data (MiB) one reducer takes: assumed
	// 1 GiB, the usual rule of thumb for sizing mapreduce.job.reduces.
	ReduceMBPerTask int64 `toml:"reduce_mb_per_task"`
	// ReduceSecPerGB is a reducer's median nominal seconds per GiB it
	// shuffles (fetch, merge and reduce); assumed 60.
	ReduceSecPerGB float64 `toml:"reduce_sec_per_gb"`
	// MinTaskSec is the least median of any task (JVM launch, setup and
	// commit), so that jobs of a few bytes do not get millisecond tasks;
	// assumed 2.
	MinTaskSec float64 `toml:"min_task_sec"`
	// MaxMapsPerJob caps a job's maps (0: no cap). The largest FB-2009 job
	// reads 7.5 TB, 56,262 blocks of 128 MiB.
	MaxMapsPerJob int `toml:"max_maps_per_job"`
	// MaxReducesPerJob caps a job's reduces (0: no cap).
	MaxReducesPerJob int `toml:"max_reduces_per_job"`
	// Sigma is the log-space spread of task durations.
	Sigma        float64 `toml:"sigma"`
	MapVCores    int64   `toml:"map_vcores"`
	MapMemMB     int64   `toml:"map_mem_mb"`
	ReduceVCores int64   `toml:"reduce_vcores"`
	ReduceMemMB  int64   `toml:"reduce_mem_mb"`
	// AMVCores and AMMemMB are the ApplicationMaster's request; both 0 means
	// jobs without an AM.
	AMVCores int64 `toml:"am_vcores"`
	AMMemMB  int64 `toml:"am_mem_mb"`
	// SlowStart is the fraction of maps that must finish before reduces are
	// requested (mapreduce.job.reduce.slowstart.completedmaps, default 0.05).
	SlowStart float64 `toml:"slow_start"`
	// MaxJobs keeps only the first max_jobs jobs by submission time (0: all),
	// of the repeated trace when repeat > 1.
	MaxJobs int `toml:"max_jobs"`
	// TimeScale multiplies submission times: 0.5 submits twice as densely;
	// 0 submits every job at time 0. It applies after repeat.
	TimeScale float64 `toml:"time_scale"`
	// Repeat lays repeat copies of the trace end to end: copy k (from 0)
	// submits each job k periods after the original, the period being the
	// trace's span from first to last submission plus its mean gap between
	// submissions, so arrivals go on at the trace's rate. Copy k > 0 of job
	// ID is named swim-ID-copyK and draws task durations of its own.
	Repeat int `toml:"repeat"`
	// WindowS cuts the trace into consecutive windows of window_s seconds
	// of submissions (0: the whole trace is one workload), and Window picks
	// one: k >= 0 the k-th (from 0), -1 one drawn per seed among the windows
	// that hold jobs, so that a scenario is a family of workloads (SWIM
	// FB-2009: an hour of the day per seed). The window's jobs are submitted
	// relative to its start; max_jobs and time_scale then apply to them.
	// A window and repeat > 1 exclude each other.
	WindowS float64 `toml:"window_s"`
	Window  int     `toml:"window"`
	// WindowsFrom and WindowsTo (inclusive; -1: the last window) restrict
	// the windows window = -1 draws from, so that a family of workloads
	// splits into parts that share no window: a task trains on some hours of
	// a day and is tested on others (see env/task, Task.Splits). Default:
	// every window.
	WindowsFrom int `toml:"windows_from"`
	WindowsTo   int `toml:"windows_to"`
	// Strict refuses a trace with a row that cannot be replayed (too few
	// columns, an empty or repeated job id, a number that is not a
	// non-negative integer); by default such a row is skipped and the skip
	// reported (Notes), as real traces hold damaged lines.
	Strict bool `toml:"strict"`
	notes  []string
}

// Notes are the rows the last load skipped, for the user; the scenario
// reports them as warnings.
func (o *SWIMOptions) Notes() []string { return o.notes }

// SWIMDefaults returns the SWIM loader's default options (Path is empty).
func SWIMDefaults() *SWIMOptions {
	return &SWIMOptions{BlockMB: 128, MapSecPerBlock: 20, ReduceMBPerTask: 1024, ReduceSecPerGB: 60, MinTaskSec: 2,
		MaxMapsPerJob: 20000, Sigma: 0.3, MapVCores: 1, MapMemMB: 1024, ReduceVCores: 1, ReduceMemMB: 2048,
		AMVCores: 1, AMMemMB: 1024, SlowStart: 0.05, TimeScale: 1, Repeat: 1, WindowsTo: -1}
}

// Limits that keep a trace's numbers inside what the simulator can hold: a
// task count a stage may reach (a variable so that fuzz tests can lower it)
// and the longest time, in seconds, a submission or a task median may have.
var traceMaxStageTasks = 1 << 22

const traceMaxSec = 1e9 // about 31.7 years

var swimColumns = [...]string{"job_id", "submit_time_s", "inter_job_gap_s", "map_input_bytes", "shuffle_bytes", "reduce_output_bytes"}

func (o *SWIMOptions) validate() error {
	if o.BlockMB <= 0 || o.BlockMB > 1<<30 {
		return fmt.Errorf("block_mb: must be in [1, 2^30], got %d", o.BlockMB)
	}
	if o.ReduceMBPerTask <= 0 || o.ReduceMBPerTask > 1<<30 {
		return fmt.Errorf("reduce_mb_per_task: must be in [1, 2^30], got %d", o.ReduceMBPerTask)
	}
	for _, c := range []struct {
		key string
		v   float64
	}{{"map_sec_per_block", o.MapSecPerBlock}, {"reduce_sec_per_gb", o.ReduceSecPerGB}, {"min_task_sec", o.MinTaskSec}} {
		if !(c.v >= 0 && c.v <= traceMaxSec) {
			return fmt.Errorf("%s: must be in [0, %g], got %v", c.key, float64(traceMaxSec), c.v)
		}
	}
	if o.MapSecPerBlock == 0 && o.MinTaskSec == 0 {
		return fmt.Errorf("map_sec_per_block: must be positive when min_task_sec is 0")
	}
	if o.MaxMapsPerJob < 0 {
		return fmt.Errorf("max_maps_per_job: must not be negative, got %d", o.MaxMapsPerJob)
	}
	if o.MaxReducesPerJob < 0 {
		return fmt.Errorf("max_reduces_per_job: must not be negative, got %d", o.MaxReducesPerJob)
	}
	if err := checkTraceCommon(o.Sigma, o.TimeScale, o.MaxJobs, o.AMVCores, o.AMMemMB); err != nil {
		return err
	}
	if err := checkRepeat(o.Repeat); err != nil {
		return err
	}
	if err := checkWindows(o.WindowS, o.Window, o.WindowsFrom, o.WindowsTo, o.Repeat); err != nil {
		return err
	}
	for _, c := range []struct {
		key string
		v   int64
	}{{"map_vcores", o.MapVCores}, {"map_mem_mb", o.MapMemMB}, {"reduce_vcores", o.ReduceVCores}, {"reduce_mem_mb", o.ReduceMemMB}} {
		if c.v <= 0 {
			return fmt.Errorf("%s: must be positive, got %d", c.key, c.v)
		}
	}
	if !(o.SlowStart >= 0 && o.SlowStart <= 1) {
		return fmt.Errorf("slow_start: must be in [0, 1], got %v", o.SlowStart)
	}
	return nil
}

// checkTraceCommon validates the options the trace loaders share.
func checkTraceCommon(sigma, timeScale float64, maxJobs int, amVCores, amMemMB int64) error {
	if !(sigma >= 0 && sigma <= 5) {
		return fmt.Errorf("sigma: must be in [0, 5], got %v", sigma)
	}
	if !(timeScale >= 0 && timeScale <= 1e6) {
		return fmt.Errorf("time_scale: must be in [0, 1e6], got %v", timeScale)
	}
	if maxJobs < 0 {
		return fmt.Errorf("max_jobs: must not be negative (0 keeps all jobs), got %d", maxJobs)
	}
	if amVCores < 0 || amMemMB < 0 || (amVCores == 0) != (amMemMB == 0) {
		return fmt.Errorf("am_vcores, am_mem_mb: must both be 0 (no AM) or both positive, got %d and %d", amVCores, amMemMB)
	}
	return nil
}

// traceSubmitMs converts a trace's submission time (s) to scaled Ms.
func traceSubmitMs(s, timeScale float64) (sim.Ms, error) {
	v := s * timeScale
	if !(v >= 0 && v <= traceMaxSec) {
		return 0, fmt.Errorf("%v s times time_scale %v is outside [0, %g] s", s, timeScale, float64(traceMaxSec))
	}
	return sim.Ms(math.Round(v * 1000)), nil
}

// swimRecord is one parsed line of a SWIM trace.
type swimRecord struct {
	line             int
	id               string
	submitS          int64
	copy             int     // which copy of the trace (repeat)
	shiftS           float64 // added to submitS: copy x the repeat period
	input, shuffle   int64
	maps, reduces    int
	mapMedS, redMedS float64
}

// ceilDiv returns ceil(a / b) for a >= 0, b > 0, without overflow.
func ceilDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 {
		q++
	}
	return q
}

// LoadSWIM reads a SWIM trace from r (name is used in error messages) and
// builds its jobs with options o (nil: the defaults; o.Path is not used).
// Lines are tab separated, without a header: job_id, submit_time_s,
// inter_job_gap_s, map_input_bytes, shuffle_bytes, reduce_output_bytes; every
// number a non-negative integer. Empty lines are skipped. Jobs are returned
// by submission time (ties in file order).
func LoadSWIM(r io.Reader, name string, o *SWIMOptions, rng *sim.Rand) ([]sim.JobSpec, error) {
	return loadTraceFrom("swim", r, name, o, SWIMDefaults, parseSWIM, buildSWIM, rng)
}

// parseSWIM validates o and reads the trace's records, with each job's task
// counts and medians worked out, sorted by submission and cut to max_jobs.
// It draws nothing: the records serve every seed.
func parseSWIM(r io.Reader, name string, o *SWIMOptions) ([]swimRecord, error) {
	if err := o.validate(); err != nil {
		return nil, err
	}
	blockBytes := o.BlockMB << 20
	redBytes := o.ReduceMBPerTask << 20
	var recs []swimRecord
	seen := map[string]int{}
	o.notes = nil
	// The trace is tab-separated values without quoting (encoding/csv with
	// a tab as the separator; a quote is an ordinary character).
	cr := csv.NewReader(r)
	cr.Comma, cr.FieldsPerRecord, cr.LazyQuotes, cr.ReuseRecord = '\t', -1, true, true
	for {
		f, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		line, _ := cr.FieldPos(0)
		if len(f) == 1 && strings.TrimSpace(f[0]) == "" {
			continue // a line of blanks
		}
		rec, err := parseSWIMRow(f, line, name, seen, o)
		if err != nil {
			if o.Strict {
				return nil, err
			}
			o.notes = append(o.notes, err.Error()+": row skipped (strict = true refuses the trace)")
			continue
		}
		seen[rec.id] = line

		maps := max(1, ceilDiv(rec.input, blockBytes))
		if o.MaxMapsPerJob > 0 && maps > int64(o.MaxMapsPerJob) {
			maps = int64(o.MaxMapsPerJob)
		}
		if maps > int64(traceMaxStageTasks) {
			return nil, fmt.Errorf("%s:%d: column 4 (map_input_bytes): %d bytes make %d maps, over the limit of %d; set max_maps_per_job",
				name, line, rec.input, maps, traceMaxStageTasks)
		}
		rec.maps = int(maps)
		frac := float64(rec.input) / (float64(maps) * float64(blockBytes))
		rec.mapMedS = max(o.MinTaskSec, o.MapSecPerBlock*frac)
		if rec.mapMedS > traceMaxSec {
			return nil, fmt.Errorf("%s:%d: column 4 (map_input_bytes): %d bytes over %d maps make a median map of %g s, over %g s; raise max_maps_per_job",
				name, line, rec.input, maps, rec.mapMedS, float64(traceMaxSec))
		}
		if rec.shuffle > 0 {
			reduces := ceilDiv(rec.shuffle, redBytes)
			if o.MaxReducesPerJob > 0 && reduces > int64(o.MaxReducesPerJob) {
				reduces = int64(o.MaxReducesPerJob)
			}
			if reduces > int64(traceMaxStageTasks) {
				return nil, fmt.Errorf("%s:%d: column 5 (shuffle_bytes): %d bytes make %d reduces, over the limit of %d; set max_reduces_per_job",
					name, line, rec.shuffle, reduces, traceMaxStageTasks)
			}
			rec.reduces = int(reduces)
			gib := float64(rec.shuffle) / float64(reduces) / (1 << 30)
			rec.redMedS = max(o.MinTaskSec, o.ReduceSecPerGB*gib)
			if rec.redMedS > traceMaxSec {
				return nil, fmt.Errorf("%s:%d: column 5 (shuffle_bytes): %d bytes over %d reduces make a median reduce of %g s, over %g s; raise max_reduces_per_job",
					name, line, rec.shuffle, reduces, rec.redMedS, float64(traceMaxSec))
			}
		}
		recs = append(recs, rec)
	}
	if len(recs) == 0 {
		if len(o.notes) > 0 {
			return nil, fmt.Errorf("%s: no jobs (%d rows skipped; the first: %s)", name, len(o.notes), o.notes[0])
		}
		return nil, fmt.Errorf("%s: no jobs (empty file)", name)
	}
	sort.SliceStable(recs, func(a, b int) bool { return recs[a].submitS < recs[b].submitS })
	if o.Repeat > 1 {
		period := repeatPeriod(float64(recs[0].submitS), float64(recs[len(recs)-1].submitS), len(recs))
		last := float64(recs[len(recs)-1].submitS) + float64(o.Repeat-1)*period
		if _, err := traceSubmitMs(last, o.TimeScale); err != nil {
			return nil, fmt.Errorf("%s: repeat: the last copy's last submission: %v", name, err)
		}
		n := len(recs)
		for k := 1; k < o.Repeat; k++ {
			for _, r := range recs[:n] {
				r.copy, r.shiftS = k, float64(k)*period
				recs = append(recs, r)
			}
		}
	}
	if err := checkWindowsIn(name, float64(recs[len(recs)-1].submitS), o.WindowS, o.Window, o.WindowsFrom, o.WindowsTo); err != nil {
		return nil, err
	}
	return recs, nil
}

// parseSWIMRow reads one row's id and numbers; an error is the row's
// (the caller skips it unless o.Strict).
func parseSWIMRow(f []string, line int, name string, seen map[string]int, o *SWIMOptions) (swimRecord, error) {
	if len(f) != len(swimColumns) {
		return swimRecord{}, fmt.Errorf("%s:%d: %d tab-separated columns, want %d (%s)", name, line, len(f), len(swimColumns),
			strings.Join(swimColumns[:], ", "))
	}
	rec := swimRecord{line: line, id: strings.TrimSpace(f[0])}
	if rec.id == "" {
		return rec, fmt.Errorf("%s:%d: column 1 (job_id): empty", name, line)
	}
	if prev, ok := seen[rec.id]; ok {
		return rec, fmt.Errorf("%s:%d: column 1 (job_id): %q already appears on line %d", name, line, rec.id, prev)
	}
	var nums [5]int64
	for i := range nums {
		s := strings.TrimSpace(f[i+1])
		v, err := strconv.ParseInt(s, 10, 64)
		col := fmt.Sprintf("%s:%d: column %d (%s)", name, line, i+2, swimColumns[i+1])
		switch {
		case errors.Is(err, strconv.ErrRange):
			return rec, fmt.Errorf("%s: %q is out of the 64-bit integer range", col, s)
		case err != nil:
			return rec, fmt.Errorf("%s: %q is not an integer", col, s)
		case v < 0:
			return rec, fmt.Errorf("%s: %d is negative", col, v)
		}
		nums[i] = v
	}
	rec.submitS, rec.input, rec.shuffle = nums[0], nums[2], nums[3]
	if _, err := traceSubmitMs(float64(rec.submitS), o.TimeScale); err != nil {
		return rec, fmt.Errorf("%s:%d: column 2 (submit_time_s): %v", name, line, err)
	}
	return rec, nil
}

// swimWindow returns the records of the window o selects (drawing it from
// rng when o.Window is -1), submitted relative to its start, cut to
// max_jobs.
func swimWindow(o *SWIMOptions, recs []swimRecord, rng *sim.Rand) ([]swimRecord, error) {
	if w := o.WindowS; w > 0 {
		submits := make([]float64, len(recs))
		for i, r := range recs {
			submits[i] = float64(r.submitS)
		}
		k, lo, hi, err := pickWindow(submits, w, o.Window, o.WindowsFrom, o.WindowsTo, rng)
		if err != nil {
			return nil, err
		}
		var in []swimRecord
		for _, r := range recs {
			if t := float64(r.submitS); t >= lo && t < hi {
				r.submitS = int64(math.Round(t - lo))
				in = append(in, r)
			}
		}
		if len(in) == 0 {
			return nil, fmt.Errorf("window %d ([%g, %g) s) has no jobs", k, lo, hi)
		}
		recs = in
	}
	if o.MaxJobs > 0 && len(recs) > o.MaxJobs {
		recs = recs[:o.MaxJobs]
	}
	return recs, nil
}

// buildSWIM draws one seed's jobs from parsed records.
func buildSWIM(o *SWIMOptions, recs []swimRecord, rng *sim.Rand) ([]sim.JobSpec, error) {
	recs, err := swimWindow(o, recs, rng)
	if err != nil {
		return nil, err
	}
	am := sim.Res{VCores: o.AMVCores, MemMB: o.AMMemMB}
	mapReq := sim.Res{VCores: o.MapVCores, MemMB: o.MapMemMB}
	redReq := sim.Res{VCores: o.ReduceVCores, MemMB: o.ReduceMemMB}
	jobs := make([]sim.JobSpec, 0, len(recs))
	for _, rec := range recs {
		at, _ := traceSubmitMs(float64(rec.submitS)+rec.shiftS, o.TimeScale) // checked while parsing
		jobs = append(jobs, mrJob(rng, copyName("swim-"+rec.id, rec.copy), "swim", "", at, am, rec.maps, mapReq, rec.mapMedS,
			rec.reduces, redReq, rec.redMedS, o.Sigma, o.SlowStart))
	}
	return jobs, nil
}

func init() {
	registerTrace("swim", "SWIM MapReduce trace (e.g. Facebook 2009, data/traces/swim/): path required; maps from input bytes / block_mb, reduces from shuffle bytes / reduce_mb_per_task, durations modelled (assumed)",
		SWIMDefaults, parseSWIM, buildSWIM)
}
