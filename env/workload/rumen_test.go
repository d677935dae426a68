package workload

import (
	"math"
	"os"
	"strings"
	"testing"

	"yarngym/env/sim"
)

const rumenTrace = tracesDir + "/hadoop-sls/2jobs2min-rumen-jh.json"

// TestLoadRumenSLSSample loads Hadoop SLS's sample trace: two TeraGen jobs
// of 96 maps on four hosts, their recorded submissions (105.2 s apart) and
// finishes, the requests from their recorded configuration (1024 MB maps;
// the 1536 MB AM rounded up to the 1024 MB minimum allocation), the
// recorded slow-start, each map's recorded duration and host, and measured
// profiles whose CPU adds up to the attempt's recorded CPU time.
func TestLoadRumenSLSSample(t *testing.T) {
	f, err := os.Open(rumenTrace)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := ParseRumen(f, rumenTrace, RumenDefaults())
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Jobs) != 2 || len(tr.Hosts) != 4 {
		t.Fatalf("%d jobs on %d hosts, want 2 on 4", len(tr.Jobs), len(tr.Hosts))
	}
	want := []struct {
		id               string
		submit, finish   sim.Ms
		firstMapDur      sim.Ms
		firstMapCPUMs    float64 // cumulativeCpuUsage of its attempt
		firstMapSplitsMs float64 // sum of its clockSplits
	}{{"job_1369942127770_1205", 0, 99375, 17043, 14300, 17038}, {"job_1369942127770_1206", 105204, 197256, 22163, 14320, 22158}}
	for i, w := range want {
		j := tr.Jobs[i]
		if j.ID != w.id || j.SubmitMs != w.submit || j.FinishMs != w.finish || j.Name != "TeraGen" {
			t.Errorf("job %d: %s %q submitted %d finished %d, want %s at %d, %d", i, j.ID, j.Name, j.SubmitMs, j.FinishMs, w.id, w.submit, w.finish)
		}
		if len(j.Maps) != 96 || len(j.Reduces) != 0 || j.MapReq != (sim.Res{VCores: 1, MemMB: 1024}) || j.AM != (sim.Res{VCores: 1, MemMB: 2048}) || j.SlowStart != 0.8 {
			t.Errorf("job %d: %d maps, %d reduces, map %v, AM %v, slow-start %v", i, len(j.Maps), len(j.Reduces), j.MapReq, j.AM, j.SlowStart)
		}
		m := j.Maps[0]
		if m.DurMs != w.firstMapDur || m.Host < 0 || m.Profile == nil || !m.Profile.Absolute || m.Profile.Jitter != 0 {
			t.Fatalf("job %d map 0: %+v", i, m)
		}
		cpuMs := 0.0
		for _, ph := range m.Profile.Phases {
			cpuMs += ph.Frac * ph.CPU * float64(m.DurMs)
			if ph.Mem < 20 || ph.Mem > 320 {
				t.Errorf("job %d map 0 phase %s: %.0f MB resident, want the recorded 24-312 MB", i, ph.Name, ph.Mem)
			}
		}
		if wantCPU := w.firstMapCPUMs * float64(m.DurMs) / w.firstMapSplitsMs; math.Abs(cpuMs-wantCPU) > 1 {
			t.Errorf("job %d map 0: profile CPU %.0f ms, want the recorded %.0f", i, cpuMs, wantCPU)
		}
	}
	jobs, err := buildRumen(RumenDefaults(), tr, sim.NewRand(1))
	if err != nil {
		t.Fatal(err)
	}
	st := jobs[0].Stages[0]
	if st.Kind != sim.KindMap || len(st.Hosts) != 96 || len(st.Profiles) != 96 || st.DurationsMs[0] != 17043 {
		t.Errorf("stage: kind %v, %d hints, %d profiles, first %d ms", st.Kind, len(st.Hosts), len(st.Profiles), st.DurationsMs[0])
	}
	// Each job's commit as recorded: its finishTime less its last map's
	// finish (job 1's TeraGen output commit took 11 s, job 2's 1.8 s).
	if jobs[0].CommitMs != 10990 || jobs[1].CommitMs != 1842 {
		t.Errorf("commits %d and %d ms, want the recorded 10990 and 1842", jobs[0].CommitMs, jobs[1].CommitMs)
	}
	o := RumenDefaults()
	o.Commit = false
	if off, err := buildRumen(o, tr, sim.NewRand(1)); err != nil || off[0].CommitMs != 0 || off[1].CommitMs != 0 {
		t.Errorf("commit = false: commits %d and %d ms (%v), want none", off[0].CommitMs, off[1].CommitMs, err)
	}
	checkFuzzJobs(t, jobs)
}

// TestLoadRumenInline: attempts (the successful one replayed), preferred
// locations before the attempt's host, a reduce's measured shuffle, options
// overriding the recorded configuration, and the errors, each naming the
// file and the job.
func TestLoadRumenInline(t *testing.T) {
	const good = `{"jobID":"job_1","jobName":"sort","queue":"q1","submitTime":1000,"finishTime":61000,
	 "jobProperties":{"mapreduce.map.memory.mb":"1500","yarn.scheduler.minimum-allocation-mb":"512","mapreduce.job.reduce.slowstart.completedmaps":"0.5"},
	 "mapTasks":[{"taskID":"m0","preferredLocations":[{"layers":["r1","hostB"]}],"attempts":[
	    {"attemptID":"a0","result":"FAILED","startTime":2000,"finishTime":3000,"hostName":"/r1/hostA"},
	    {"attemptID":"a1","result":"SUCCESS","startTime":4000,"finishTime":14000,"hostName":"/r1/hostA",
	     "clockSplits":[5000,5000],"cpuUsages":[2500,5000],"physMemKbytes":[102400,204800]}]},
	   {"taskID":"m1","attempts":[]}],
	 "reduceTasks":[{"taskID":"r0","attempts":[{"attemptID":"r0a","result":"SUCCESS","startTime":5000,"finishTime":35000,"hostName":"/r1/hostC",
	     "clockSplits":[9000,6000,5000,4000,3000,3000],"cpuUsages":[900,600,3000,4000,3000,3000],"physMemKbytes":[1024,1024,2048,2048,2048,2048]}]}]}
	{"jobID":"job_0","submitTime":500,"mapTasks":[{"taskID":"x","attempts":[{"startTime":600,"finishTime":700,"hostName":"hostA"}]}]}`
	tr, err := ParseRumen(strings.NewReader(good), "t.json", RumenDefaults())
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Jobs) != 2 || tr.Jobs[0].ID != "job_0" || tr.Jobs[0].SubmitMs != 0 || tr.Jobs[1].SubmitMs != 500 || tr.Jobs[1].FinishMs != 60500 {
		t.Fatalf("jobs %+v", tr.Jobs)
	}
	j := tr.Jobs[1]
	if len(j.Maps) != 1 || j.Maps[0].DurMs != 10000 || j.Maps[0].Host != 0 || tr.Hosts[0] != "hostB" || tr.Hosts[1] != "hostA" {
		t.Errorf("map: %+v, hosts %v (want the successful attempt, 10 s, on preferred hostB = 0)", j.Maps, tr.Hosts)
	}
	if j.MapReq.MemMB != 1536 || j.ReduceReq.MemMB != 1024 || j.AM.MemMB != 1536 || j.SlowStart != 0.5 || j.Queue != "" {
		t.Errorf("requests map %v reduce %v AM %v, slow-start %v, queue %q", j.MapReq, j.ReduceReq, j.AM, j.SlowStart, j.Queue)
	}
	mp := j.Maps[0].Profile.Phases
	if len(mp) != 2 || mp[0].CPU != 0.5 || mp[1].CPU != 1 || mp[0].Mem != 100 || mp[1].Mem != 200 || mp[0].Frac != 0.5 {
		t.Errorf("map phases %+v", mp)
	}
	rp := j.Reduces[0].Profile.Phases
	if len(rp) != 6 || !rp[0].Shuffle || !rp[1].Shuffle || rp[2].Shuffle || math.Abs(rp[0].Frac+rp[1].Frac-0.5) > 1e-9 ||
		math.Abs(rp[0].CPU-0.1) > 1e-9 || math.Abs(rp[1].CPU-0.1) > 1e-9 || rp[2].CPU != 0.6 {
		t.Errorf("reduce phases %+v: want the first third of progress (two splits, 15 s of 30) as shuffle at 0.1 cores", rp)
	}
	if j.Reduces[0].Host != -1 {
		t.Errorf("reduce host %d: a reduce's host is no hint", j.Reduces[0].Host)
	}
	o := RumenDefaults()
	o.MapMemMB, o.MinAllocMB, o.SlowStart, o.KeepQueues, o.Usage, o.Hints = 2000, 0, 0.2, true, "default", false
	tr, err = ParseRumen(strings.NewReader(good), "t.json", o)
	if err != nil {
		t.Fatal(err)
	}
	j = tr.Jobs[1]
	if j.MapReq.MemMB != 2000 || j.SlowStart != 0.2 || j.Queue != "q1" || j.Maps[0].Profile != nil || j.Maps[0].Host != -1 || len(tr.Hosts) != 0 {
		t.Errorf("with options: %+v, hosts %v", j, tr.Hosts)
	}
	jobs, err := buildRumen(o, tr, sim.NewRand(1))
	if err != nil {
		t.Fatal(err)
	}
	if s := jobs[1].Stages; len(s) != 2 || s[0].Hosts != nil || s[0].Profiles != nil || s[1].SlowStart != 0.2 || s[0].SlowStart != 0 {
		t.Errorf("built stages %+v", s)
	}
	checkFuzzJobs(t, jobs)

	for _, c := range []struct{ name, in, want string }{
		{"empty", "", "t.json: no jobs"},
		{"not json", "{x", "t.json: object 1: invalid JSON"},
		{"array", "[1]", "object 1: not a JSON object"},
		{"no id", `{"submitTime":1}`, "object 1: no jobID"},
		{"no submit", `{"jobID":"j"}`, "job 1 (j): submitTime missing"},
		{"no tasks", `{"jobID":"j","submitTime":1,"mapTasks":[{"attempts":[]}]}`, "no jobs to replay (1 skipped: t.json: job 1 (j): no map or reduce task with an attempt)"},
		{"backwards", `{"jobID":"j","submitTime":1,"mapTasks":[{"taskID":"t","attempts":[{"attemptID":"a","startTime":9,"finishTime":3}]}]}`,
			"job 1 (j): map task 0 (t) attempt a: finishTime 3 is not after startTime 9"},
		{"splits", `{"jobID":"j","submitTime":1,"mapTasks":[{"attempts":[{"startTime":1,"finishTime":3,"clockSplits":[1,2],"cpuUsages":[1],"physMemKbytes":[1,1]}]}]}`,
			"have 2, 1 and 2 values"},
		{"negative split", `{"jobID":"j","submitTime":1,"mapTasks":[{"attempts":[{"startTime":1,"finishTime":3,"clockSplits":[1],"cpuUsages":[-1],"physMemKbytes":[1]}]}]}`,
			"split 0: negative or huge value"},
		{"float", `{"jobID":"j","submitTime":1.5}`, "1.5 is not an integer"},
		{"second object", `{"jobID":"j","submitTime":1,"mapTasks":[{"attempts":[{"startTime":1,"finishTime":3}]}]} 7`, "object 2: not a JSON object"},
	} {
		_, err := ParseRumen(strings.NewReader(c.in), "t.json", RumenDefaults())
		if err == nil || !strings.HasPrefix(err.Error(), "t.json") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
	for _, c := range []struct {
		set  func(*RumenOptions)
		want string
	}{
		{func(o *RumenOptions) { o.Format = "csv" }, "format"},
		{func(o *RumenOptions) { o.Usage = "x" }, "usage"},
		{func(o *RumenOptions) { o.MapMemMB = -1 }, "map_mem_mb"},
		{func(o *RumenOptions) { o.MinAllocMB = -2 }, "min_alloc_mb"},
		{func(o *RumenOptions) { o.SlowStart = 2 }, "slow_start"},
		{func(o *RumenOptions) { o.MaxJobs = -1 }, "max_jobs"},
	} {
		o := RumenDefaults()
		c.set(o)
		if _, err := ParseRumen(strings.NewReader(good), "t.json", o); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("option error %v, want %q", err, c.want)
		}
	}
}

// slsDoc is the example of SchedulerLoadSimulator.md ("SLS JSON input file
// format"), comments removed, with a reduce, counts and resources added.
const slsDoc = `{"num.nodes": 3, "num.racks": 1}
{"am.type": "mapreduce", "job.start.ms": 0, "job.end.ms": 95375, "job.queue.name": "sls_queue_1", "job.id": "job_1", "job.user": "default",
 "job.tasks": [{"count": 1, "container.host": "/default-rack/node1", "container.start.ms": 6664, "container.end.ms": 23707, "container.priority": 20, "container.type": "map"},
  {"container.host": "/default-rack/node3", "container.start.ms": 6665, "container.end.ms": 21593, "container.priority": 20, "container.type": "map"},
  {"container.host": "/default-rack/node2", "container.start.ms": 68770, "container.end.ms": 86613, "container.priority": 20, "container.type": "map"}]}
{"am.type": "mapreduce", "job.start.ms": "105204", "job.end.ms": 197256, "job.queue.name": "sls_queue_2", "job.id": "job_2", "job.count": 2, "am.memory-mb": 2048,
 "job.tasks": [{"count": 3, "container.host": "/default-rack/node1", "duration.ms": 22000, "container.type": "map", "container.memory-mb": 2048, "container.vcores": 2},
  {"container.type": "reduce", "container.duration.ms": 5000}]}`

// TestLoadSLS reads SLS's own job format: the node-count header, jobs with
// per-task durations (end - start, or duration.ms), counts of tasks and of
// jobs, resources, and hosts as hints; its reduces wait for every map.
func TestLoadSLS(t *testing.T) {
	tr, err := ParseRumen(strings.NewReader(slsDoc), "s.json", RumenDefaults())
	if err != nil {
		t.Fatal(err)
	}
	if tr.Nodes != 3 || len(tr.Jobs) != 3 || strings.Join(tr.Hosts, ",") != "node1,node3,node2" {
		t.Fatalf("nodes %d, %d jobs, hosts %v", tr.Nodes, len(tr.Jobs), tr.Hosts)
	}
	j := tr.Jobs[0]
	if j.ID != "job_1" || j.FinishMs != 95375 || len(j.Maps) != 3 || j.Maps[0].DurMs != 17043 || j.Maps[2].Host != 2 || j.AM.MemMB != 1024 {
		t.Errorf("job 1: %+v", j)
	}
	for i, id := range []string{"job_2-0", "job_2-1"} {
		j := tr.Jobs[1+i]
		if j.ID != id || j.SubmitMs != 105204 || len(j.Maps) != 3 || len(j.Reduces) != 1 || j.MapReq != (sim.Res{VCores: 2, MemMB: 2048}) ||
			j.Reduces[0].DurMs != 5000 || j.SlowStart != 1 || j.AM.MemMB != 2048 || j.Maps[2].Host != 0 {
			t.Errorf("copy %d: %+v", i, j)
		}
	}
	jobs, err := buildRumen(RumenDefaults(), tr, sim.NewRand(1))
	if err != nil {
		t.Fatal(err)
	}
	checkFuzzJobs(t, jobs)
	for _, c := range []struct{ name, in, want string }{
		{"type", `{"job.start.ms":0,"job.tasks":[{"container.type":"shuffle","duration.ms":1}]}`, `container.type "shuffle"`},
		{"am type", `{"am.type":"stream","job.start.ms":0,"job.tasks":[{"duration.ms":1}]}`, `am.type "stream"`},
		{"no duration", `{"job.start.ms":0,"job.tasks":[{"container.type":"map"}]}`, "duration"},
		{"no start", `{"job.tasks":[{"duration.ms":1}]}`, "job.start.ms missing"},
		{"mixed sizes", `{"job.start.ms":0,"job.tasks":[{"duration.ms":1},{"duration.ms":1,"container.vcores":2}]}`, "one request per stage"},
		{"bad nodes", `{"num.nodes":0}`, "num.nodes must be a positive integer"},
		{"count", `{"job.start.ms":0,"job.tasks":[{"duration.ms":1,"count":0}]}`, "count 0 must be in"},
	} {
		_, err := ParseRumen(strings.NewReader(c.in), "s.json", RumenDefaults())
		if err == nil || !strings.HasPrefix(err.Error(), "s.json") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
	// Forcing the other format is honoured (and fails on SLS objects).
	o := RumenDefaults()
	o.Format = "rumen"
	if _, err := ParseRumen(strings.NewReader(slsDoc), "s.json", o); err == nil || !strings.Contains(err.Error(), "no jobID") {
		t.Errorf("format rumen on an SLS file: %v", err)
	}
}

// TestMeasuredProfileMergesShortSplits: Rumen interpolates status reports
// into twelve splits, so a 40 ms split can carry 700 ms of CPU; splits
// shorter than 1/24 of the attempt join their neighbours (a short tail the
// phase before it), which keeps the CPU a core or so.
func TestMeasuredProfileMergesShortSplits(t *testing.T) {
	ints := func(xs ...int64) []jsonInt {
		out := make([]jsonInt, len(xs))
		for i, x := range xs {
			out[i] = jsonInt(x)
		}
		return out
	}
	p, err := measuredProfile("map", ints(1000, 1000, 1000, 1000, 1000, 1000, 3000, 40, 40),
		ints(800, 800, 800, 800, 800, 800, 1000, 739, 739), ints(1024, 1024, 1024, 1024, 1024, 1024, 2048, 2048, 2048))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Phases) != 7 {
		t.Fatalf("%d phases, want 7 (the two 40 ms splits merged into the 3 s one): %+v", len(p.Phases), p.Phases)
	}
	last := p.Phases[6]
	if want := (1000.0 + 739 + 739) / 3080; math.Abs(last.CPU-want) > 1e-9 || last.Mem != 2 || math.Abs(last.Frac-3080.0/9080) > 1e-9 {
		t.Errorf("last phase %+v, want CPU %.3f cores, 2 MB, frac %.3f", last, want, 3080.0/9080)
	}
	if p, err := measuredProfile("map", nil, nil, nil); p != nil || err != nil {
		t.Errorf("no curves: %v, %v; want the default profile (nil)", p, err)
	}
	if p, err := measuredProfile("map", ints(0, 0), ints(1, 1), ints(1, 1)); p != nil || err != nil {
		t.Errorf("no time recorded: %v, %v; want the default profile (nil)", p, err)
	}
}

// TestOperaSigmaMeasured: the OPERA workload's task spread (Sigma) is the
// one measured in the SLS sample trace, not a value chosen from OPERA's
// results: 1.4826 x the median absolute deviation of the log map durations,
// each job's centred on its median, pooled over both jobs.
func TestOperaSigmaMeasured(t *testing.T) {
	f, err := os.Open(rumenTrace)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := ParseRumen(f, rumenTrace, RumenDefaults())
	if err != nil {
		t.Fatal(err)
	}
	var dev []float64
	for _, j := range tr.Jobs {
		var l []float64
		for _, m := range j.Maps {
			l = append(l, math.Log(float64(m.DurMs)))
		}
		mid := median(l)
		for _, x := range l {
			dev = append(dev, x-mid)
		}
	}
	sigma := robustSD(dev)
	if got := operaDefaults().Sigma; math.Abs(got-sigma) > 0.005 {
		t.Fatalf("opera sigma %.3f, the trace measures %.3f", got, sigma)
	}
}
