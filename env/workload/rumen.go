package workload

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"yarngym/env/sim"
)

// RumenOptions configures the loader of Hadoop job histories as Apache
// Rumen writes them (format "rumen", e.g. Hadoop SLS's sample trace
// data/traces/hadoop-sls/2jobs2min-rumen-jh.json) and of the Scheduler
// Load Simulator's own JSON job format (format "sls", what
// hadoop-sls's rumen2sls writes: SchedulerLoadSimulator.md, "SLS JSON input
// file format").
//
// A Rumen file is a stream of JSON job objects (LoggedJob), not an array.
// Each job has map and reduce tasks (LoggedTask), each with its attempts
// (LoggedTaskAttempt): host, start and finish times and, from Hadoop 2 on,
// the measured usage curves over twelve progress splits: clockSplits (wall
// ms of each split), cpuUsages (CPU ms spent in it) and physMemKbytes
// (resident memory). The loader replays, as SLS does (AMDefinitionRumen),
// each task's last attempt (its successful one if any):
//
//   - its recorded duration (finish - start) is the task's nominal duration:
//     what it took on its real node, under that node's load; the model
//     slows it further only if the simulated node is overcommitted;
//   - its measured curves are its usage profile (usage = "measured"): one
//     phase per split, CPU = cpuUsages / clockSplits cores, memory =
//     physMemKbytes, splits shorter than 1/24 of the attempt merged with
//     their neighbours (Rumen interpolates status reports into the twelve
//     splits, so a 40 ms split can carry 700 ms of CPU), no fluctuation (the
//     curve is the measurement). A reduce's first third of progress is its
//     shuffle (Hadoop's reduce progress: copy, sort, reduce, a third each),
//     gated on map outputs as the engine's shuffle is. Attempts without
//     curves keep the engine's default profile for their kind;
//   - its host (and a map's preferredLocations, when the trace has them) is
//     a locality hint (hints = true): hosts are numbered in order of first
//     appearance in the file and host k is node k mod the cluster's node
//     count (sim.StageSpec.Hosts);
//   - jobs are submitted at their recorded submitTime, relative to the
//     earliest in the file, times time_scale.
//
// Requests come from each job's recorded configuration (jobProperties)
// unless an option sets them: mapreduce.map.memory.mb and .cpu.vcores,
// mapreduce.reduce.*, yarn.app.mapreduce.am.resource.mb and .cpu-vcores
// (Hadoop 2's defaults 1024 MB, 1 vCore, AM 1536 MB, where unrecorded),
// rounded up to a multiple of yarn.scheduler.minimum-allocation-mb, as the
// ResourceManager normalises requests; reduces are requested after
// mapreduce.job.reduce.slowstart.completedmaps of the maps finished (0.05
// where unrecorded). Queue names are dropped (every job in the default
// queue) unless keep_queues is set: a scenario must then configure them.
//
// SLS format: an optional {"num.nodes": N, "num.racks": R} object, then job
// objects with am.type (only "mapreduce"), job.start.ms, job.end.ms,
// job.queue.name, job.id, job.count (copies), and job.tasks, each with
// count, container.host, container.start.ms / container.end.ms or
// duration.ms (container.duration.ms), container.type ("map" or "reduce"),
// and optionally container.memory-mb and container.vcores (am.memory-mb,
// am.vcores for the AM; defaults 1024 MB, 1 vCore, SLS's). SLS's MapReduce
// AM asks for the reduces once every map has finished, so the slow-start is
// 1. The format has no usage curves: tasks use the engine's default
// profiles.
//
// The job's commit, from its last task's end to its recorded finishTime
// (the AM commits the output, writes the history and unregisters), is
// replayed as recorded (sim.JobSpec.CommitMs; commit = false ends each job
// with its last task). Setup and cleanup tasks (Hadoop 1's otherTasks) are
// not replayed.
type RumenOptions struct {
	// Path is the trace file; required.
	Path string `toml:"path"`
	// Format is "rumen" or "sls"; empty detects it from the first object
	// (SLS objects have job.tasks or num.nodes keys).
	Format string `toml:"format"`
	// Usage is "measured" (the attempts' curves, where recorded) or
	// "default" (the engine's profiles).
	Usage string `toml:"usage"`
	// Hints makes recorded hosts locality hints.
	Hints bool `toml:"hints"`
	// Requests: 0 takes them from the trace (see above).
	MapVCores    int64 `toml:"map_vcores"`
	MapMemMB     int64 `toml:"map_mem_mb"`
	ReduceVCores int64 `toml:"reduce_vcores"`
	ReduceMemMB  int64 `toml:"reduce_mem_mb"`
	AMVCores     int64 `toml:"am_vcores"`
	AMMemMB      int64 `toml:"am_mem_mb"`
	// MinAllocMB rounds memory requests up to a multiple of it; -1 takes
	// the trace's yarn.scheduler.minimum-allocation-mb (none if
	// unrecorded), 0 rounds nothing.
	MinAllocMB int64 `toml:"min_alloc_mb"`
	// SlowStart is the reduces' slow-start; -1 takes the trace's.
	SlowStart float64 `toml:"slow_start"`
	// KeepQueues keeps the trace's queue names.
	KeepQueues bool `toml:"keep_queues"`
	// Commit replays each job's recorded commit (RumenJob.CommitMs).
	Commit bool `toml:"commit"`
	// MaxJobs keeps only the first max_jobs jobs by submission (0: all).
	MaxJobs int `toml:"max_jobs"`
	// TimeScale multiplies submission times; 0 submits every job at 0.
	TimeScale float64 `toml:"time_scale"`
	// Strict refuses a trace with a job that has nothing to replay (a job
	// killed before any task attempt ran); by default such a job is skipped
	// and the skip reported (Notes).
	Strict bool `toml:"strict"`
	notes  []string
}

// Notes are what the last load skipped or replayed in part (killed jobs),
// for the user; the scenario reports them as warnings.
func (o *RumenOptions) Notes() []string { return o.notes }

// SetNotes: see Notes (set by the loader).
func (o *RumenOptions) SetNotes(n []string) { o.notes = n }

// RumenDefaults returns the Rumen loader's default options (Path empty).
func RumenDefaults() *RumenOptions {
	return &RumenOptions{Usage: "measured", Hints: true, MinAllocMB: -1, SlowStart: -1, TimeScale: 1, Commit: true}
}

// PathPtr: see SWIMOptions.PathPtr.
func (o *RumenOptions) PathPtr() *string { return &o.Path }

func (o *RumenOptions) validate() error {
	if o.Format != "" && o.Format != "rumen" && o.Format != "sls" {
		return fmt.Errorf("format: %q is not rumen or sls (or empty: detect)", o.Format)
	}
	if o.Usage != "measured" && o.Usage != "default" {
		return fmt.Errorf("usage: %q is not measured or default", o.Usage)
	}
	for _, c := range []struct {
		key string
		v   int64
	}{{"map_vcores", o.MapVCores}, {"map_mem_mb", o.MapMemMB}, {"reduce_vcores", o.ReduceVCores}, {"reduce_mem_mb", o.ReduceMemMB},
		{"am_vcores", o.AMVCores}, {"am_mem_mb", o.AMMemMB}} {
		if c.v < 0 || c.v > 1<<30 {
			return fmt.Errorf("%s: must be in [0, 2^30] (0: from the trace), got %d", c.key, c.v)
		}
	}
	if o.MinAllocMB < -1 || o.MinAllocMB > 1<<30 {
		return fmt.Errorf("min_alloc_mb: must be -1 (the trace's), 0 (none) or a size in MB, got %d", o.MinAllocMB)
	}
	if !(o.SlowStart == -1 || (o.SlowStart >= 0 && o.SlowStart <= 1)) {
		return fmt.Errorf("slow_start: must be in [0, 1], or -1 for the trace's, got %v", o.SlowStart)
	}
	return checkTraceCommon(0, o.TimeScale, o.MaxJobs, 0, 0)
}

// RumenTrace is a parsed trace: the jobs to replay, and what the trace
// recorded of them, to set simulated times beside.
type RumenTrace struct {
	Jobs []RumenJob
	// Hosts are the trace's host names, in node order (host k is node k
	// mod the node count).
	Hosts []string
	// Nodes is the SLS header's num.nodes (0 if absent or a Rumen trace).
	Nodes int
	// Skipped are the jobs left out (nothing to replay), Unsuccessful the
	// jobs replayed whose outcome was not SUCCESS (KILLED, FAILED: their
	// attempts that ran are replayed), each "object K (job id...)".
	Skipped, Unsuccessful []string
}

// Notes is what a load of the trace reports: the skipped jobs and how many
// were replayed from an unsuccessful run.
func (tr *RumenTrace) Notes() []string {
	var out []string
	if n := len(tr.Skipped); n > 0 {
		out = append(out, fmt.Sprintf("rumen: %d job(s) skipped, nothing to replay (strict = true refuses them): %s", n, strings.Join(tr.Skipped, "; ")))
	}
	if n := len(tr.Unsuccessful); n > 0 {
		out = append(out, fmt.Sprintf("rumen: %d job(s) replayed from their attempts although they did not succeed: %s", n, strings.Join(tr.Unsuccessful, "; ")))
	}
	return out
}

// RumenJob is one job of a trace.
type RumenJob struct {
	ID, Name, Queue string
	// SubmitMs is the submission, relative to the trace's earliest;
	// FinishMs the recorded finish on the same clock (-1 if unrecorded).
	SubmitMs, FinishMs sim.Ms
	AM                 sim.Res
	Maps, Reduces      []RumenTask
	MapReq, ReduceReq  sim.Res
	SlowStart          float64
}

// CommitMs is the job's commit as recorded: from the end of its last task
// replayed to its finishTime (0 where either is unrecorded, or the finish
// comes first).
func (j *RumenJob) CommitMs() sim.Ms {
	if j.FinishMs < 0 {
		return 0
	}
	last := sim.Ms(-1)
	for _, ts := range [][]RumenTask{j.Maps, j.Reduces} {
		for _, t := range ts {
			if t.StartMs >= 0 {
				last = max(last, t.StartMs+t.DurMs)
			}
		}
	}
	if last < 0 {
		return 0
	}
	return max(j.FinishMs-last, 0)
}

// RumenTask is one task to replay: its recorded duration, its host hint
// (-1: none) and its measured profile (nil: the engine's default), and when
// it started (on the clock of RumenJob.SubmitMs; -1 if unrecorded).
type RumenTask struct {
	DurMs   sim.Ms
	Host    int32
	Profile *sim.Profile
	StartMs sim.Ms
}

// LoadRumen reads a Rumen (or SLS) trace from r (name is used in error
// messages) and builds its jobs with options o (nil: the defaults; o.Path
// is not used).
func LoadRumen(r io.Reader, name string, o *RumenOptions, rng *sim.Rand) ([]sim.JobSpec, error) {
	return loadTraceFrom("rumen", r, name, o, RumenDefaults, ParseRumen, buildRumen, rng)
}

// rumen JSON: only the fields the loader reads. Numbers that Rumen writes
// as longs (or SLS as numbers or strings) decode through jsonInt.
type rumenJob struct {
	JobID         *string           `json:"jobID"`
	JobName       string            `json:"jobName"`
	Queue         string            `json:"queue"`
	SubmitTime    *jsonInt          `json:"submitTime"`
	FinishTime    *jsonInt          `json:"finishTime"`
	Outcome       string            `json:"outcome"`
	JobMapMB      *jsonInt          `json:"jobMapMB"`
	JobReduceMB   *jsonInt          `json:"jobReduceMB"`
	MapTasks      []rumenTask       `json:"mapTasks"`
	ReduceTasks   []rumenTask       `json:"reduceTasks"`
	JobProperties map[string]string `json:"jobProperties"`
}

type rumenTask struct {
	TaskID             string          `json:"taskID"`
	Attempts           []rumenAttempt  `json:"attempts"`
	PreferredLocations []rumenLocation `json:"preferredLocations"`
}

type rumenLocation struct {
	Layers []string `json:"layers"`
}

type rumenAttempt struct {
	AttemptID     string         `json:"attemptID"`
	Result        string         `json:"result"`
	StartTime     *jsonInt       `json:"startTime"`
	FinishTime    *jsonInt       `json:"finishTime"`
	HostName      string         `json:"hostName"`
	Location      *rumenLocation `json:"location"`
	ClockSplits   []jsonInt      `json:"clockSplits"`
	CPUUsages     []jsonInt      `json:"cpuUsages"`
	PhysMemKbytes []jsonInt      `json:"physMemKbytes"`
}

// jsonInt is an integer written as a JSON number or a string of one.
type jsonInt int64

func (v *jsonInt) UnmarshalJSON(b []byte) error {
	s := string(bytes.TrimSpace(b))
	if s == "null" {
		return errors.New("null where an integer belongs")
	}
	if strings.HasPrefix(s, `"`) {
		var str string
		if err := json.Unmarshal(b, &str); err != nil {
			return err
		}
		s = strings.TrimSpace(str)
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		f, ferr := strconv.ParseFloat(s, 64)
		if ferr != nil || f != math.Trunc(f) || math.Abs(f) > 1<<62 {
			return fmt.Errorf("%s is not an integer", s)
		}
		n = int64(f)
	}
	*v = jsonInt(n)
	return nil
}

// traceMaxMs bounds trace times (ms) and durations.
const traceMaxMs = traceMaxSec * 1000

// ParseRumen validates o and reads a trace's jobs: what Compile does once,
// with no random draws.
func ParseRumen(r io.Reader, name string, o *RumenOptions) (*RumenTrace, error) {
	if err := o.validate(); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(r)
	dec.UseNumber()
	p := &rumenParser{name: name, o: o, hostIdx: map[string]int32{}, tr: &RumenTrace{}}
	for k := 1; ; k++ {
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: object %d: %v", name, k, jsonErr(err))
		}
		var keys map[string]json.RawMessage
		if err := json.Unmarshal(raw, &keys); err != nil {
			return nil, fmt.Errorf("%s: object %d: not a JSON object", name, k)
		}
		format := o.Format
		if format == "" {
			format = p.format
		}
		if format == "" {
			format = "rumen"
			if _, ok := keys["job.tasks"]; ok {
				format = "sls"
			} else if _, ok := keys["num.nodes"]; ok {
				format = "sls"
			}
			p.format = format
		}
		if format == "sls" {
			err = p.slsObject(k, raw, keys)
		} else {
			err = p.rumenObject(k, raw)
		}
		if err != nil {
			return nil, err
		}
		if len(p.jobs) > traceMaxStageTasks {
			return nil, fmt.Errorf("%s: object %d: more than %d jobs", name, k, traceMaxStageTasks)
		}
	}
	if len(p.jobs) == 0 {
		if n := len(p.tr.Skipped); n > 0 {
			return nil, fmt.Errorf("%s: no jobs to replay (%d skipped: %s)", name, n, strings.Join(p.tr.Skipped, "; "))
		}
		return nil, fmt.Errorf("%s: no jobs", name)
	}
	// Submission relative to the earliest, in file order among ties.
	first := p.jobs[0].SubmitMs
	for _, j := range p.jobs {
		first = min(first, j.SubmitMs)
	}
	for i := range p.jobs {
		j := &p.jobs[i]
		at := float64(j.SubmitMs-first) * o.TimeScale
		if at > traceMaxMs {
			return nil, fmt.Errorf("%s: job %s submitted %g s after the first, beyond %g s", name, j.ID, at/1000, float64(traceMaxSec))
		}
		if j.FinishMs >= 0 {
			j.FinishMs -= first
		}
		for _, ts := range [][]RumenTask{j.Maps, j.Reduces} {
			for k := range ts {
				if ts[k].StartMs >= 0 {
					ts[k].StartMs -= first
				}
			}
		}
		j.SubmitMs = sim.Ms(math.Round(at))
	}
	sort.SliceStable(p.jobs, func(a, b int) bool { return p.jobs[a].SubmitMs < p.jobs[b].SubmitMs })
	if o.MaxJobs > 0 && len(p.jobs) > o.MaxJobs {
		p.jobs = p.jobs[:o.MaxJobs]
	}
	p.tr.Jobs = p.jobs
	return p.tr, nil
}

// jsonErr shortens encoding/json's messages.
func jsonErr(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("invalid JSON at byte %d: %v", se.Offset, se)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return "unexpected end of file inside an object"
	}
	return err.Error()
}

type rumenParser struct {
	name    string
	o       *RumenOptions
	format  string
	hostIdx map[string]int32
	jobs    []RumenJob
	tr      *RumenTrace
}

// host numbers a host name by first appearance ("" and unknown: -1).
func (p *rumenParser) host(h string) int32 {
	h = strings.TrimSpace(h)
	if i := strings.LastIndexByte(h, '/'); i >= 0 {
		h = h[i+1:]
	}
	if h == "" || !p.o.Hints {
		return -1
	}
	if k, ok := p.hostIdx[h]; ok {
		return k
	}
	k := int32(len(p.tr.Hosts))
	p.hostIdx[h] = k
	p.tr.Hosts = append(p.tr.Hosts, h)
	return k
}

func (p *rumenParser) rumenObject(k int, raw json.RawMessage) error {
	var rj rumenJob
	if err := json.Unmarshal(raw, &rj); err != nil {
		return fmt.Errorf("%s: object %d: %v", p.name, k, err)
	}
	if rj.JobID == nil || strings.TrimSpace(*rj.JobID) == "" {
		return fmt.Errorf("%s: object %d: no jobID (not a Rumen job)", p.name, k)
	}
	id := *rj.JobID
	where := fmt.Sprintf("%s: job %d (%s)", p.name, k, id)
	if rj.SubmitTime == nil || *rj.SubmitTime < 0 || float64(*rj.SubmitTime) > 1e16 {
		return fmt.Errorf("%s: submitTime missing or negative", where)
	}
	j := RumenJob{ID: id, Name: rj.JobName, SubmitMs: sim.Ms(*rj.SubmitTime), FinishMs: -1}
	if rj.FinishTime != nil && *rj.FinishTime >= *rj.SubmitTime && float64(*rj.FinishTime) <= 1e16 {
		j.FinishMs = sim.Ms(*rj.FinishTime)
	}
	if p.o.KeepQueues {
		j.Queue = rj.Queue
	}
	prop := func(key string) (int64, bool) {
		v, ok := rj.JobProperties[key]
		if !ok {
			return 0, false
		}
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		return n, err == nil && n > 0 && n <= 1<<30
	}
	pick := func(opt int64, key string, fallback int64) int64 {
		if opt > 0 {
			return opt
		}
		if v, ok := prop(key); ok {
			return v
		}
		return fallback
	}
	mapMB := int64(1024)
	if rj.JobMapMB != nil && *rj.JobMapMB > 0 && *rj.JobMapMB <= 1<<30 {
		mapMB = int64(*rj.JobMapMB)
	}
	redMB := int64(1024)
	if rj.JobReduceMB != nil && *rj.JobReduceMB > 0 && *rj.JobReduceMB <= 1<<30 {
		redMB = int64(*rj.JobReduceMB)
	}
	minAlloc := p.o.MinAllocMB
	if minAlloc < 0 {
		minAlloc, _ = prop("yarn.scheduler.minimum-allocation-mb")
	}
	j.MapReq = sim.Res{VCores: pick(p.o.MapVCores, "mapreduce.map.cpu.vcores", 1),
		MemMB: roundUp(pick(p.o.MapMemMB, "mapreduce.map.memory.mb", mapMB), minAlloc)}
	j.ReduceReq = sim.Res{VCores: pick(p.o.ReduceVCores, "mapreduce.reduce.cpu.vcores", 1),
		MemMB: roundUp(pick(p.o.ReduceMemMB, "mapreduce.reduce.memory.mb", redMB), minAlloc)}
	j.AM = sim.Res{VCores: pick(p.o.AMVCores, "yarn.app.mapreduce.am.resource.cpu-vcores", 1),
		MemMB: roundUp(pick(p.o.AMMemMB, "yarn.app.mapreduce.am.resource.mb", 1536), minAlloc)}
	j.SlowStart = p.o.SlowStart
	if j.SlowStart < 0 {
		j.SlowStart = 0.05
		if v, ok := rj.JobProperties["mapreduce.job.reduce.slowstart.completedmaps"]; ok {
			if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil && f >= 0 && f <= 1 {
				j.SlowStart = f
			}
		}
	}
	var err error
	if j.Maps, err = p.rumenTasks(where, "map", rj.MapTasks, j.MapReq); err != nil {
		return err
	}
	if j.Reduces, err = p.rumenTasks(where, "reduce", rj.ReduceTasks, j.ReduceReq); err != nil {
		return err
	}
	if len(j.Maps) == 0 && len(j.Reduces) == 0 {
		if p.o.Strict {
			return fmt.Errorf("%s: no map or reduce task with an attempt (strict)", where)
		}
		// A real job history holds jobs killed before any attempt ran:
		// nothing to replay.
		p.tr.Skipped = append(p.tr.Skipped, fmt.Sprintf("%s: no map or reduce task with an attempt", where))
		return nil
	}
	if rj.Outcome != "" && rj.Outcome != "SUCCESS" {
		p.tr.Unsuccessful = append(p.tr.Unsuccessful, fmt.Sprintf("%s (%s)", where, rj.Outcome))
	}
	p.jobs = append(p.jobs, j)
	return nil
}

// roundUp rounds mb up to a multiple of step (none if step <= 0).
func roundUp(mb, step int64) int64 {
	if step <= 0 || mb%step == 0 {
		return mb
	}
	return (mb/step + 1) * step
}

func (p *rumenParser) rumenTasks(where, kind string, ts []rumenTask, req sim.Res) ([]RumenTask, error) {
	if len(ts) > traceMaxStageTasks {
		return nil, fmt.Errorf("%s: %d %s tasks, over the limit of %d", where, len(ts), kind, traceMaxStageTasks)
	}
	var out []RumenTask
	for i, t := range ts {
		if len(t.Attempts) == 0 {
			continue // never ran: nothing to replay (SLS refuses these; a job history can hold them)
		}
		// The successful attempt, else the last (SLS replays the last).
		a := t.Attempts[len(t.Attempts)-1]
		for _, x := range t.Attempts {
			if x.Result == "SUCCESS" {
				a = x
			}
		}
		at := fmt.Sprintf("%s: %s task %d (%s) attempt %s", where, kind, i, t.TaskID, a.AttemptID)
		if a.StartTime == nil || a.FinishTime == nil {
			return nil, fmt.Errorf("%s: startTime or finishTime missing", at)
		}
		d := int64(*a.FinishTime) - int64(*a.StartTime)
		if *a.StartTime < 0 || d <= 0 || float64(d) > traceMaxMs {
			return nil, fmt.Errorf("%s: finishTime %d is not after startTime %d (or the attempt is longer than %g s)", at, *a.FinishTime, *a.StartTime, float64(traceMaxSec))
		}
		rt := RumenTask{DurMs: sim.Ms(d), Host: -1, StartMs: sim.Ms(*a.StartTime)}
		if kind == "map" {
			for _, l := range t.PreferredLocations {
				if len(l.Layers) > 0 {
					rt.Host = p.host(l.Layers[len(l.Layers)-1])
					break
				}
			}
		}
		if rt.Host < 0 && kind == "map" { // only maps read blocks: a reduce's host is no hint
			h := a.HostName
			if a.Location != nil && len(a.Location.Layers) > 0 {
				h = a.Location.Layers[len(a.Location.Layers)-1]
			}
			rt.Host = p.host(h)
		}
		if p.o.Usage == "measured" {
			prof, err := measuredProfile(kind, a.ClockSplits, a.CPUUsages, a.PhysMemKbytes)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", at, err)
			}
			rt.Profile = prof
		}
		out = append(out, rt)
	}
	return out, nil
}

// buildRumen makes one seed's jobs from a parsed trace: the recorded tasks
// exactly (the seed only moves the engine's own draws: blocks of maps
// without hints, default profiles' fluctuation).
func buildRumen(o *RumenOptions, tr *RumenTrace, _ *sim.Rand) ([]sim.JobSpec, error) {
	jobs := make([]sim.JobSpec, 0, len(tr.Jobs))
	for _, rj := range tr.Jobs {
		j := sim.JobSpec{Name: rj.ID, App: rj.Name, Framework: "mapreduce", Queue: rj.Queue, SubmitMs: rj.SubmitMs, AM: rj.AM}
		if o.Commit && !rj.AM.IsZero() {
			j.CommitMs = rj.CommitMs()
		}
		if j.App == "" {
			j.App = "rumen"
		}
		for _, st := range []struct {
			name  string
			kind  sim.TaskKind
			req   sim.Res
			prof  *sim.Profile
			tasks []RumenTask
			slow  float64
		}{{"map", sim.KindMap, rj.MapReq, sim.MapProfile, rj.Maps, 0}, {"reduce", sim.KindReduce, rj.ReduceReq, sim.ReduceProfile, rj.Reduces, rj.SlowStart}} {
			if len(st.tasks) == 0 {
				continue
			}
			ss := sim.StageSpec{Name: st.name, Kind: st.kind, Req: st.req, Profile: st.prof, SlowStart: st.slow,
				DurationsMs: make([]sim.Ms, len(st.tasks))}
			if len(j.Stages) == 0 {
				ss.SlowStart = 0 // the first stage starts with the job
			}
			hints, profiles := false, false
			for _, t := range st.tasks {
				hints = hints || t.Host >= 0
				profiles = profiles || t.Profile != nil
			}
			if hints && st.kind == sim.KindMap {
				ss.Hosts = make([]int32, len(st.tasks))
			}
			if profiles {
				ss.Profiles = make([]*sim.Profile, len(st.tasks))
			}
			for i, t := range st.tasks {
				ss.DurationsMs[i] = t.DurMs
				if ss.Hosts != nil {
					ss.Hosts[i] = t.Host
				}
				if profiles {
					ss.Profiles[i] = t.Profile
				}
			}
			j.Stages = append(j.Stages, ss)
		}
		jobs = append(jobs, j)
	}
	return jobs, nil
}

func init() {
	registerTrace("rumen", "Hadoop job history as Rumen writes it (e.g. data/traces/hadoop-sls/), or SLS's JSON job format (format = \"sls\"): path required; replays each task's recorded duration, its host as a locality hint and its measured cpuUsages / physMemKbytes curves as its usage",
		RumenDefaults, ParseRumen, buildRumen)
}
