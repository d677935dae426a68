package workload

import (
	"bufio"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"yarngym/env/sim"
)

// The traces shipped with the project (package data), read from the
// repository's folder as a user would point a loader at a file.
const (
	tracesDir   = "../../data/traces"
	swimTrace   = tracesDir + "/swim/FB-2009_samples_24_times_1hr_0.tsv"
	alibabaPath = tracesDir + "/alibaba2017/jobs.csv"
)

func stageTasks(j sim.JobSpec, i int) int {
	if i >= len(j.Stages) {
		return 0
	}
	return j.Stages[i].NumTasks()
}

func TestLoadSWIMInline(t *testing.T) {
	const mib = 1 << 20
	good := "job0\t10\t10\t0\t0\t0\n" + // no input: 1 map, no reduce
		"job1\t5\t0\t" + itoa(3*128*mib) + "\t" + itoa(1<<30+1) + "\t7\r\n" + // 3 maps, 2 reduces, CRLF
		"\n" + // blank lines are skipped
		"job2\t5\t0\t1\t42\t0\n"
	bad := []struct {
		name, in string
		want     []string
	}{
		{"empty", "", []string{"t.tsv", "no jobs"}},
		{"blank", "\n\n", []string{"t.tsv", "no jobs"}},
		{"too few columns", "job0\t1\t1\t1\t1\t1\njob1\t1\t1\t1\t1\n", []string{"t.tsv:2:", "5 tab-separated columns, want 6"}},
		{"too many columns", "job0\t1\t1\t1\t1\t1\t1\n", []string{"t.tsv:1:", "7 tab-separated columns"}},
		{"spaces not tabs", "job0 1 1 1 1 1\n", []string{"t.tsv:1:", "1 tab-separated columns"}},
		{"not an integer", "job0\t1\t1\t1\t1\t1\n\njob1\t1\t1\tx\t1\t1\n", []string{`t.tsv:3: column 4 (map_input_bytes): "x" is not an integer`}},
		{"float", "job0\t1.5\t1\t1\t1\t1\n", []string{`t.tsv:1: column 2 (submit_time_s): "1.5" is not an integer`}},
		{"negative", "job0\t1\t1\t1\t-5\t1\n", []string{"t.tsv:1: column 5 (shuffle_bytes): -5 is negative"}},
		{"negative gap", "job0\t1\t-1\t1\t1\t1\n", []string{"t.tsv:1: column 3 (inter_job_gap_s)", "negative"}},
		{"overflow", "job0\t1\t1\t1\t1\t99999999999999999999\n", []string{"t.tsv:1: column 6 (reduce_output_bytes)", "out of the 64-bit integer range"}},
		{"empty job id", "\t1\t1\t1\t1\t1\n", []string{"t.tsv:1: column 1 (job_id): empty"}},
		{"duplicate job id", "a\t1\t1\t1\t1\t1\na\t2\t1\t1\t1\t1\n", []string{"t.tsv:2: column 1 (job_id)", "line 1"}},
		{"submit too late", "a\t9000000000000\t1\t1\t1\t1\n", []string{"t.tsv:1: column 2 (submit_time_s)"}},
	}
	t.Run("good", func(t *testing.T) {
		jobs, err := LoadSWIM(strings.NewReader(good), "t.tsv", nil, sim.NewRand(1))
		if err != nil {
			t.Fatal(err)
		}
		// Sorted by submission time, ties in file order.
		want := []struct {
			name          string
			at            sim.Ms
			maps, reduces int
		}{{"swim-job1", 5000, 3, 2}, {"swim-job2", 5000, 1, 1}, {"swim-job0", 10000, 1, 0}}
		if len(jobs) != len(want) {
			t.Fatalf("got %d jobs, want %d", len(jobs), len(want))
		}
		for i, w := range want {
			j := jobs[i]
			if j.Name != w.name || j.SubmitMs != w.at || stageTasks(j, 0) != w.maps || stageTasks(j, 1) != w.reduces {
				t.Errorf("job %d: got %s at %d with %d maps, %d reduces; want %+v", i, j.Name, j.SubmitMs,
					stageTasks(j, 0), stageTasks(j, 1), w)
			}
			if j.App != "swim" || j.Framework != "mapreduce" || j.Queue != "" || j.AM != (sim.Res{VCores: 1, MemMB: 1024}) {
				t.Errorf("job %d: app %q framework %q queue %q AM %v", i, j.App, j.Framework, j.Queue, j.AM)
			}
			if j.Stages[0].Kind != sim.KindMap || j.Stages[0].Req != (sim.Res{VCores: 1, MemMB: 1024}) {
				t.Errorf("job %d: map stage %+v", i, j.Stages[0])
			}
			if w.reduces > 0 && (j.Stages[1].Kind != sim.KindReduce || j.Stages[1].Req != (sim.Res{VCores: 1, MemMB: 2048}) ||
				j.Stages[1].SlowStart != 0.05) {
				t.Errorf("job %d: reduce stage %+v", i, j.Stages[1])
			}
		}
	})
	t.Run("options", func(t *testing.T) {
		o := SWIMDefaults()
		o.TimeScale, o.MaxJobs, o.Sigma, o.MaxMapsPerJob, o.AMVCores, o.AMMemMB = 0.5, 2, 0, 2, 0, 0
		jobs, err := LoadSWIM(strings.NewReader(good), "t.tsv", o, sim.NewRand(1))
		if err != nil {
			t.Fatal(err)
		}
		if len(jobs) != 2 || jobs[0].SubmitMs != 2500 || stageTasks(jobs[0], 0) != 2 || !jobs[0].AM.IsZero() {
			t.Fatalf("got %d jobs, first %+v", len(jobs), jobs[0])
		}
		// Sigma 0: every map of a capped job reads 1.5 blocks, 30 s; the
		// reducers of 2 GiB+1 byte shuffled take 60 s/GiB; a 42-byte shuffle
		// takes the 2 s floor.
		for _, d := range jobs[0].Stages[0].Durations() {
			if d != 30000 {
				t.Errorf("capped map: %d ms, want 30000", d)
			}
		}
		if d := jobs[1].Stages[1].DurationMs(0); d != 2000 {
			t.Errorf("tiny reduce: %d ms, want 2000", d)
		}
		if d := jobs[0].Stages[1].DurationMs(0); d != 30000 {
			t.Errorf("reduce of half a GiB: %d ms, want 30000", d)
		}
	})
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			o := SWIMDefaults()
			o.Strict = true
			_, err := LoadSWIM(strings.NewReader(c.in), "t.tsv", o, sim.NewRand(1))
			checkErr(t, err, c.want)
		})
	}
	// By default a row that cannot be replayed is skipped and reported; a
	// trace of nothing else has no jobs (issue 29: real traces hold damaged
	// rows, and one refused the whole trace).
	t.Run("damaged rows skipped", func(t *testing.T) {
		o := SWIMDefaults()
		in := good + "job3\t1\t1\tx\t1\t1\n" + "job4\t1\t1\t1\n" + "job0\t1\t1\t1\t1\t1\n"
		jobs, err := LoadSWIM(strings.NewReader(in), "t.tsv", o, sim.NewRand(1))
		if err != nil {
			t.Fatal(err)
		}
		if len(jobs) != 3 || len(o.Notes()) != 3 {
			t.Fatalf("%d jobs, notes %q; want the 3 good jobs and 3 rows skipped", len(jobs), o.Notes())
		}
		for i, want := range []string{`t.tsv:5: column 4 (map_input_bytes): "x" is not an integer: row skipped`, "t.tsv:6: 4 tab-separated columns", `t.tsv:7: column 1 (job_id): "job0" already appears on line 1`} {
			if !strings.Contains(o.Notes()[i], want) {
				t.Errorf("note %d: %q, want %q", i, o.Notes()[i], want)
			}
		}
		_, err = LoadSWIM(strings.NewReader("job0\t1\t1\n"), "t.tsv", SWIMDefaults(), sim.NewRand(1))
		checkErr(t, err, []string{"no jobs (1 rows skipped; the first: t.tsv:1: 3 tab-separated columns"})
	})
}

func TestSWIMOptionErrors(t *testing.T) {
	in := "job0\t1\t1\t1\t1\t1\n"
	cases := []struct {
		key string
		set func(o *SWIMOptions)
	}{
		{"block_mb:", func(o *SWIMOptions) { o.BlockMB = 0 }},
		{"reduce_mb_per_task:", func(o *SWIMOptions) { o.ReduceMBPerTask = -1 }},
		{"map_sec_per_block:", func(o *SWIMOptions) { o.MapSecPerBlock = -1 }},
		{"reduce_sec_per_gb:", func(o *SWIMOptions) { o.ReduceSecPerGB = -1 }},
		{"max_maps_per_job:", func(o *SWIMOptions) { o.MaxMapsPerJob = -1 }},
		{"max_reduces_per_job:", func(o *SWIMOptions) { o.MaxReducesPerJob = -1 }},
		{"sigma:", func(o *SWIMOptions) { o.Sigma = -0.1 }},
		{"time_scale:", func(o *SWIMOptions) { o.TimeScale = -1 }},
		{"max_jobs:", func(o *SWIMOptions) { o.MaxJobs = -1 }},
		{"map_vcores:", func(o *SWIMOptions) { o.MapVCores = 0 }},
		{"reduce_mem_mb:", func(o *SWIMOptions) { o.ReduceMemMB = 0 }},
		{"am_vcores, am_mem_mb:", func(o *SWIMOptions) { o.AMVCores = 0 }},
		{"slow_start:", func(o *SWIMOptions) { o.SlowStart = 1.5 }},
	}
	g, ok := Lookup("swim")
	if !ok {
		t.Fatal(`generator "swim" is not registered`)
	}
	for _, c := range cases {
		t.Run(c.key, func(t *testing.T) {
			o := SWIMDefaults()
			c.set(o)
			_, err := LoadSWIM(strings.NewReader(in), "t.tsv", o, sim.NewRand(1))
			checkErr(t, err, []string{c.key})
			_, err = g.Generate(o, sim.NewRand(1))
			if err == nil || !strings.HasPrefix(err.Error(), c.key) {
				t.Errorf("registered generator: got %v, want an error starting %q", err, c.key)
			}
		})
	}
	t.Run("path", func(t *testing.T) {
		o := g.Options().(*SWIMOptions)
		_, err := g.Generate(o, sim.NewRand(1))
		checkErr(t, err, []string{"path:", "required"})
		o.Path = "/nonexistent/fb.tsv"
		_, err = g.Generate(o, sim.NewRand(1))
		checkErr(t, err, []string{"path:", "/nonexistent/fb.tsv"})
	})
	t.Run("too many tasks", func(t *testing.T) {
		o := SWIMDefaults()
		o.MaxMapsPerJob = 0
		_, err := LoadSWIM(strings.NewReader("j\t1\t1\t9000000000000000000\t0\t0\n"), "t.tsv", o, sim.NewRand(1))
		checkErr(t, err, []string{"t.tsv:1: column 4 (map_input_bytes)", "max_maps_per_job"})
		_, err = LoadSWIM(strings.NewReader("j\t1\t1\t0\t9000000000000000000\t0\n"), "t.tsv", o, sim.NewRand(1))
		checkErr(t, err, []string{"t.tsv:1: column 5 (shuffle_bytes)", "max_reduces_per_job"})
	})
}

func TestLoadAlibabaInline(t *testing.T) {
	const hdr = ",submit_time,duration,cpu,memory,job_id,task_id,instances_num,disk\n"
	good := hdr +
		"0,100,10.5,0.5,0.01,7,1,3,0\n" +
		"1,50,20,2.5,0.02,9,5,2,0\n" +
		"2,40,30,1.0,0.0,7,2,1,0\n" + // job 7 is submitted at 40, its earliest row
		"3,40,1,0,0.000001,8,1,1,0\n"
	bad := []struct {
		name, in string
		want     []string
	}{
		{"empty", "", []string{"a.csv", "empty file"}},
		{"header only", hdr, []string{"a.csv", "no jobs"}},
		{"missing column", ",submit_time,duration,cpu,job_id,task_id,instances_num,disk\n", []string{"a.csv:1:", `"memory"`}},
		{"repeated column", ",cpu,submit_time,duration,cpu,memory,job_id,task_id,instances_num\n", []string{"a.csv:1: column 5", `"cpu"`}},
		{"short row", hdr + "0,1,1,1,0.1,1,1,1,0\n1,1,1,1,0.1,1,2,1\n", []string{"a.csv:3:", "8 columns, want 9"}},
		{"not a number", hdr + "0,1,1,x,0.1,1,1,1,0\n", []string{`a.csv:2: column 4 (cpu): "x" is not a number`}},
		{"nan", hdr + "0,1,NaN,1,0.1,1,1,1,0\n", []string{"a.csv:2: column 3 (duration)", "not a finite number"}},
		{"negative", hdr + "0,1,1,1,-0.1,1,1,1,0\n", []string{"a.csv:2: column 5 (memory): -0.1 is negative"}},
		{"negative disk", hdr + "0,1,1,1,0.1,1,1,1,-3\n", []string{"a.csv:2: column 9 (disk)", "negative"}},
		{"memory over a machine", hdr + "0,1,1,1,1.5,1,1,1,0\n", []string{"a.csv:2: column 5 (memory)", "over 1"}},
		{"instances not integer", hdr + "0,1,1,1,0.1,1,1,2.5,0\n", []string{`a.csv:2: column 8 (instances_num): "2.5" is not an integer`}},
		{"no instances", hdr + "0,1,1,1,0.1,1,1,0,0\n", []string{"a.csv:2: column 8 (instances_num)", "at least 1"}},
		{"too many instances", hdr + "0,1,1,1,0.1,1,1,999999999999,0\n", []string{"a.csv:2: column 8 (instances_num)", "over the limit"}},
		{"empty job id", hdr + "0,1,1,1,0.1,,1,1,0\n", []string{"a.csv:2: column 6 (job_id): empty"}},
		{"duplicate task", hdr + "0,1,1,1,0.1,1,1,1,0\n1,1,1,1,0.1,1,1,1,0\n", []string{"a.csv:3: column 7 (task_id)", "line 2"}},
		{"bad quote", hdr + "0,1,1,1,0.1,1,\"1,1,0\n", []string{"a.csv:2: character", "quoted-field"}},
		{"submit too late", hdr + "0,1e300,1,1,0.1,1,1,1,0\n", []string{"a.csv:2: column 2 (submit_time)"}},
	}
	t.Run("good", func(t *testing.T) {
		jobs, err := LoadAlibaba(strings.NewReader(good), "a.csv", nil, sim.NewRand(1))
		if err != nil {
			t.Fatal(err)
		}
		// Jobs 7 and 8 tie at 40 s: 7 appeared first.
		names := []string{}
		for _, j := range jobs {
			names = append(names, j.Name)
		}
		if want := []string{"alibaba-7", "alibaba-8", "alibaba-9"}; !reflect.DeepEqual(names, want) {
			t.Fatalf("jobs %v, want %v", names, want)
		}
		j7 := jobs[0]
		if j7.SubmitMs != 40000 || j7.App != "alibaba" || j7.Framework != "batch" || !j7.AM.IsZero() || len(j7.Stages) != 2 {
			t.Fatalf("job 7: %+v", j7)
		}
		s0, s1 := j7.Stages[0], j7.Stages[1]
		if s0.Name != "task-1" || s0.Kind != sim.KindGeneric || s0.Profile != sim.MapProfile || s0.SlowStart != 0 ||
			s0.NumTasks() != 3 || s0.Req != (sim.Res{VCores: 1, MemMB: 655}) {
			t.Errorf("job 7 stage 0: %+v", s0)
		}
		if s1.Name != "task-2" || s1.SlowStart != 1 || s1.NumTasks() != 1 || s1.Req != (sim.Res{VCores: 1, MemMB: 1}) {
			t.Errorf("job 7 stage 1: %+v", s1)
		}
		if r := jobs[2].Stages[0].Req; r != (sim.Res{VCores: 3, MemMB: 1311}) {
			t.Errorf("job 9 request %v, want <3, 1311>", r)
		}
		if r := jobs[1].Stages[0].Req; r != (sim.Res{VCores: 1, MemMB: 1}) {
			t.Errorf("job 8 request %v, want the <1, 1> floor", r)
		}
	})
	t.Run("options", func(t *testing.T) {
		o := AlibabaDefaults()
		o.TimeScale, o.MaxJobs, o.Sigma, o.AMVCores, o.AMMemMB, o.MachineMemMB = 2, 1, 0, 1, 512, 1000
		jobs, err := LoadAlibaba(strings.NewReader(good), "a.csv", o, sim.NewRand(1))
		if err != nil {
			t.Fatal(err)
		}
		j := jobs[0]
		if len(jobs) != 1 || j.SubmitMs != 80000 || j.AM != (sim.Res{VCores: 1, MemMB: 512}) || j.Stages[0].Req.MemMB != 10 {
			t.Fatalf("got %d jobs, first %+v", len(jobs), j)
		}
		if !reflect.DeepEqual(j.Stages[0].Durations(), []sim.Ms{10500, 10500, 10500}) {
			t.Errorf("sigma 0 durations %v, want 3 x 10500", j.Stages[0].Durations())
		}
	})
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			o := AlibabaDefaults()
			o.Strict = true
			_, err := LoadAlibaba(strings.NewReader(c.in), "a.csv", o, sim.NewRand(1))
			checkErr(t, err, c.want)
		})
	}
	// By default a row that cannot be replayed is skipped and reported
	// (issue 29): the good rows load; a skipped row's task id is free.
	t.Run("damaged rows skipped", func(t *testing.T) {
		o := AlibabaDefaults()
		in := hdr + "0,1,1,1,1.5,1,1,1,0\n" + "0,1,1,1,0.1,1,1,1\n" + "0,2,3,1,0.1,1,1,2,0\n" + "0,2,3,1,0.1,1,1,2,0\n"
		jobs, err := LoadAlibaba(strings.NewReader(in), "a.csv", o, sim.NewRand(1))
		if err != nil {
			t.Fatal(err)
		}
		if len(jobs) != 1 || len(jobs[0].Stages) != 1 || len(o.Notes()) != 3 {
			t.Fatalf("%d jobs, notes %q; want job 1 with its one task and 3 rows skipped", len(jobs), o.Notes())
		}
		for i, want := range []string{"a.csv:2: column 5 (memory)", "a.csv:3: 8 columns, want 9", "a.csv:5: column 7 (task_id): job 1 task 1 already appears on line 4"} {
			if !strings.Contains(o.Notes()[i], want) || !strings.HasSuffix(o.Notes()[i], "row skipped (strict = true refuses the trace)") {
				t.Errorf("note %d: %q, want %q and the skip", i, o.Notes()[i], want)
			}
		}
	})
	g, ok := Lookup("alibaba")
	if !ok {
		t.Fatal(`generator "alibaba" is not registered`)
	}
	for _, c := range []struct {
		key string
		set func(o *AlibabaOptions)
	}{
		{"path:", func(o *AlibabaOptions) {}},
		{"machine_mem_mb:", func(o *AlibabaOptions) { o.MachineMemMB = 0 }},
		{"sigma:", func(o *AlibabaOptions) { o.Sigma = -1 }},
		{"time_scale:", func(o *AlibabaOptions) { o.TimeScale = -1 }},
		{"max_jobs:", func(o *AlibabaOptions) { o.MaxJobs = -1 }},
		{"am_vcores, am_mem_mb:", func(o *AlibabaOptions) { o.AMMemMB = 1024 }},
	} {
		t.Run("option "+c.key, func(t *testing.T) {
			o := g.Options().(*AlibabaOptions)
			c.set(o)
			_, err := g.Generate(o, sim.NewRand(1))
			if err == nil || !strings.HasPrefix(err.Error(), c.key) {
				t.Errorf("got %v, want an error starting %q", err, c.key)
			}
		})
	}
}

func checkErr(t *testing.T, err error, want []string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one containing %q", want)
	}
	t.Logf("error: %v", err)
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not contain %q", err, w)
		}
	}
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

func loadTrace(t *testing.T, gen string, path string, seed uint64) []sim.JobSpec {
	t.Helper()
	g, ok := Lookup(gen)
	if !ok {
		t.Fatalf("generator %q is not registered", gen)
	}
	o := g.Options()
	reflect.ValueOf(o).Elem().FieldByName("Path").SetString(path)
	jobs, err := g.Generate(o, sim.NewRand(seed))
	if err != nil {
		t.Fatal(err)
	}
	return jobs
}

func TestSWIMRealTrace(t *testing.T) {
	jobs := loadTrace(t, "swim", swimTrace, 1)
	if len(jobs) != 5894 {
		t.Fatalf("got %d jobs, want 5,894", len(jobs))
	}
	var maps, reduces int
	for i, j := range jobs {
		if i > 0 && j.SubmitMs < jobs[i-1].SubmitMs {
			t.Fatalf("job %d submitted before job %d", i, i-1)
		}
		maps += stageTasks(j, 0)
		reduces += stageTasks(j, 1)
	}
	// Counted independently from the file: sum of min(20000, max(1,
	// ceil(input / 128 MiB))) and of ceil(shuffle / 1 GiB).
	if maps != 169451 || reduces != 21895 {
		t.Errorf("got %d maps and %d reduces, want 169,451 and 21,895", maps, reduces)
	}
	t.Logf("SWIM FB-2009 with default options: %d jobs, %d maps, %d reduces, last submitted at %d s",
		len(jobs), maps, reduces, jobs[len(jobs)-1].SubmitMs/1000)
}

func TestTraceDeterminism(t *testing.T) {
	for _, c := range []struct{ gen, path string }{{"swim", swimTrace}, {"alibaba", alibabaPath}} {
		t.Run(c.gen, func(t *testing.T) {
			a, b := loadTrace(t, c.gen, c.path, 7), loadTrace(t, c.gen, c.path, 7)
			if !reflect.DeepEqual(a, b) {
				t.Fatal("the same seed gave different jobs")
			}
			d := loadTrace(t, c.gen, c.path, 8)
			if len(d) != len(a) {
				t.Fatalf("a different seed changed the job count: %d vs %d", len(d), len(a))
			}
			same := 0
			for i := range a {
				if reflect.DeepEqual(a[i].Stages[0].Durations(), d[i].Stages[0].Durations()) {
					same++
				}
			}
			if same == len(a) {
				t.Fatal("a different seed gave identical durations")
			}
		})
	}
}

func TestAlibabaRealTrace(t *testing.T) {
	// Count jobs, tasks and instances with a plain reading of the csv.
	f, err := os.Open(alibabaPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ids := map[string]bool{}
	rows, instances := 0, 0
	sc := bufio.NewScanner(f)
	sc.Scan() // header
	for sc.Scan() {
		fields := strings.Split(sc.Text(), ",")
		ids[fields[5]] = true
		rows++
		n := 0
		for _, ch := range fields[7] {
			n = n*10 + int(ch-'0')
		}
		instances += n
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}

	jobs := loadTrace(t, "alibaba", alibabaPath, 1)
	if len(jobs) != len(ids) {
		t.Fatalf("got %d jobs, want %d distinct job_ids", len(jobs), len(ids))
	}
	stages, tasks := 0, 0
	for i, j := range jobs {
		if i > 0 && j.SubmitMs < jobs[i-1].SubmitMs {
			t.Fatalf("job %d submitted before job %d", i, i-1)
		}
		if !ids[strings.TrimPrefix(j.Name, "alibaba-")] {
			t.Fatalf("job %q is not in the file", j.Name)
		}
		stages += len(j.Stages)
		for _, s := range j.Stages {
			tasks += s.NumTasks()
		}
	}
	if stages != rows || tasks != instances {
		t.Errorf("got %d stages and %d tasks, want %d rows and %d instances", stages, tasks, rows, instances)
	}
	t.Logf("Alibaba 2017: %d jobs, %d stages, %d task instances", len(jobs), stages, tasks)
}

// TestRepeat: repeat lays copies end to end (each job shifted by a multiple
// of the span plus the mean gap, before time_scale), names the copies apart,
// keeps copy 0 as the trace read once, and cuts max_jobs after repeating;
// for both trace loaders.
func TestRepeat(t *testing.T) {
	const mib = 1 << 20
	swim := "a\t0\t0\t" + itoa(200*mib) + "\t0\t0\n" + "b\t10\t10\t0\t0\t0\n" + "c\t40\t30\t0\t" + itoa(mib) + "\t0\n"
	alibaba := ",submit_time,duration,cpu,memory,job_id,task_id,instances_num,disk\n" +
		"0,0,10,1,0.01,a,1,2,0\n" + "1,10,10,1,0.01,b,1,1,0\n" + "2,40,10,1,0.01,c,1,1,0\n"
	// Span 40 s, 3 jobs: mean gap 20 s, period 60 s.
	for _, c := range []struct {
		gen  string
		load func(o func(*int, *int, *float64)) ([]sim.JobSpec, error)
	}{
		{"swim", func(set func(*int, *int, *float64)) ([]sim.JobSpec, error) {
			o := SWIMDefaults()
			set(&o.Repeat, &o.MaxJobs, &o.TimeScale)
			return LoadSWIM(strings.NewReader(swim), "t.tsv", o, sim.NewRand(3))
		}},
		{"alibaba", func(set func(*int, *int, *float64)) ([]sim.JobSpec, error) {
			o := AlibabaDefaults()
			set(&o.Repeat, &o.MaxJobs, &o.TimeScale)
			return LoadAlibaba(strings.NewReader(alibaba), "a.csv", o, sim.NewRand(3))
		}},
	} {
		t.Run(c.gen, func(t *testing.T) {
			once, err := c.load(func(*int, *int, *float64) {})
			if err != nil {
				t.Fatal(err)
			}
			three, err := c.load(func(r, _ *int, ts *float64) { *r, *ts = 3, 0.5 })
			if err != nil {
				t.Fatal(err)
			}
			if len(three) != 9 {
				t.Fatalf("repeat 3: %d jobs, want 9", len(three))
			}
			names := map[string]bool{}
			for i, j := range three {
				k, orig := i/3, once[i%3]
				want := orig.Name
				if k > 0 {
					want = orig.Name + "-copy" + itoa(int64(k))
				}
				if j.Name != want || names[j.Name] {
					t.Errorf("job %d: named %q, want %q (unique)", i, j.Name, want)
				}
				names[j.Name] = true
				if at := (orig.SubmitMs + sim.Ms(k)*60000) / 2; j.SubmitMs != at {
					t.Errorf("job %s: submitted at %d ms, want %d", j.Name, j.SubmitMs, at)
				}
				if len(j.Stages) != len(orig.Stages) || j.Stages[0].NumTasks() != orig.Stages[0].NumTasks() {
					t.Errorf("job %s: stages differ from the original's", j.Name)
				}
			}
			// Copy 0 is the trace read once: the same draws.
			first, err := c.load(func(r, _ *int, _ *float64) { *r = 3 })
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(first[:3], once) {
				t.Error("copy 0 differs from the trace read once")
			}
			cut, err := c.load(func(r, m *int, _ *float64) { *r, *m = 3, 4 })
			if err != nil {
				t.Fatal(err)
			}
			if len(cut) != 4 || cut[3].Name != once[0].Name+"-copy1" {
				t.Errorf("max_jobs 4 of 3 copies: %d jobs, last %q", len(cut), cut[len(cut)-1].Name)
			}
			for _, bad := range []int{0, -1, traceMaxRepeat + 1} {
				_, err := c.load(func(r, _ *int, _ *float64) { *r = bad })
				checkErr(t, err, []string{"repeat:"})
			}
		})
	}
}

// TestSWIMWindows: window_s and window cut the FB-2009 day into hours; -1
// draws one per seed (a family of workloads), submitted from 0.
func TestSWIMWindows(t *testing.T) {
	g, _ := Lookup("swim")
	day := loadTrace(t, "swim", swimTrace, 1)
	perHour := map[int]int{}
	for _, j := range day {
		perHour[int(j.SubmitMs/3600000)]++
	}
	window := func(k int, seed uint64) ([]sim.JobSpec, error) {
		o := g.Options().(*SWIMOptions)
		o.Path, o.WindowS, o.Window = swimTrace, 3600, k
		return g.Generate(o, sim.NewRand(seed))
	}
	for _, k := range []int{0, 7, 23} {
		jobs, err := window(k, 1)
		if err != nil {
			t.Fatal(err)
		}
		if len(jobs) != perHour[k] || jobs[0].SubmitMs >= 3600000 || jobs[len(jobs)-1].SubmitMs >= 3600000 {
			t.Errorf("hour %d: %d jobs (the day has %d in it), submitted %d..%d ms", k, len(jobs), perHour[k], jobs[0].SubmitMs, jobs[len(jobs)-1].SubmitMs)
		}
	}
	sizes := map[int]bool{}
	for seed := uint64(1); seed <= 40; seed++ { // never the empty hour
		jobs, err := window(-1, seed)
		if err != nil {
			t.Fatal(err)
		}
		again, _ := window(-1, seed)
		if len(again) != len(jobs) {
			t.Fatalf("seed %d drew two different hours", seed)
		}
		sizes[len(jobs)] = true
	}
	if len(sizes) < 10 {
		t.Errorf("40 seeds drew only %d distinct hours", len(sizes))
	}
	// The day's last submissions spill 4 s into a 25th hour; hour 11 has none.
	if _, err := window(25, 1); err == nil || !strings.Contains(err.Error(), "25 windows") {
		t.Errorf("window 25 of a 25-window trace: %v", err)
	}
	if _, err := window(11, 1); err == nil || !strings.Contains(err.Error(), "no jobs") {
		t.Errorf("an empty window: %v", err)
	}
	o := g.Options().(*SWIMOptions)
	o.Path, o.Window = swimTrace, 3
	if _, err := g.Generate(o, sim.NewRand(1)); err == nil || !strings.Contains(err.Error(), "window_s") {
		t.Errorf("a window without window_s: %v", err)
	}
}

// TestSWIMWindowsRange: windows_from and windows_to restrict the hours
// window = -1 draws, so that a task's train, validation and test parts share
// no hour; bad ranges are refused naming the keys.
func TestSWIMWindowsRange(t *testing.T) {
	g, _ := Lookup("swim")
	day := loadTrace(t, "swim", swimTrace, 1)
	perHour := map[int]int{}
	for _, j := range day {
		perHour[int(j.SubmitMs/3600000)]++
	}
	for _, c := range []struct {
		from, to int
		want     []int // the hours that may be drawn
		err      string
	}{
		{from: 20, to: 23, want: []int{20, 21, 22, 23}},
		{from: 0, to: 15, want: []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 14, 15}}, // hour 11 is empty
		{from: 11, to: 11, err: "no window from 11 to 11"},
		{from: 5, to: 3, err: "windows_from <= windows_to"},
		{from: 20, to: 30, err: "25 windows"},
	} {
		drawn := map[int]bool{}
		for seed := uint64(1); seed <= 60; seed++ {
			o := g.Options().(*SWIMOptions)
			o.Path, o.WindowS, o.Window, o.WindowsFrom, o.WindowsTo = swimTrace, 3600, -1, c.from, c.to
			jobs, err := g.Generate(o, sim.NewRand(seed))
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Errorf("windows %d..%d: error %v, want %q", c.from, c.to, err, c.err)
				}
				break
			}
			if err != nil {
				t.Fatalf("windows %d..%d: %v", c.from, c.to, err)
			}
			// The hour drawn is the one whose job count matches.
			for _, h := range c.want {
				if perHour[h] == len(jobs) {
					drawn[h] = true
				}
			}
			if n := len(drawn); n == 0 {
				t.Fatalf("windows %d..%d: seed %d drew %d jobs, no allowed hour has as many", c.from, c.to, seed, len(jobs))
			}
		}
		if c.err == "" && len(drawn) < len(c.want)/2 {
			t.Errorf("windows %d..%d: 60 seeds drew only hours %v", c.from, c.to, drawn)
		}
	}
	o := g.Options().(*SWIMOptions)
	o.Path, o.WindowS, o.Window, o.WindowsFrom = swimTrace, 3600, 2, 1
	if _, err := g.Generate(o, sim.NewRand(1)); err == nil || !strings.Contains(err.Error(), "need window = -1") {
		t.Errorf("a range with a fixed window: %v", err)
	}
}
