package workload

import (
	"bytes"
	"strings"
	"testing"

	"yarngym/env/sim"
)

// checkFuzzJobs checks what every successful load must give.
func checkFuzzJobs(t *testing.T, jobs []sim.JobSpec) {
	t.Helper()
	if len(jobs) == 0 {
		t.Fatal("no jobs and no error")
	}
	for _, j := range jobs {
		if len(j.Stages) == 0 {
			t.Fatalf("job %q has no stages", j.Name)
		}
		if j.SubmitMs < 0 {
			t.Fatalf("job %q: negative submit time %d", j.Name, j.SubmitMs)
		}
		if !j.AM.IsZero() && (j.AM.VCores <= 0 || j.AM.MemMB <= 0) {
			t.Fatalf("job %q: AM request %v", j.Name, j.AM)
		}
		for _, s := range j.Stages {
			if s.Req.VCores <= 0 || s.Req.MemMB <= 0 {
				t.Fatalf("job %q stage %q: request %v is not positive", j.Name, s.Name, s.Req)
			}
			if s.NumTasks() == 0 || s.Profile == nil || s.SlowStart < 0 || s.SlowStart > 1 {
				t.Fatalf("job %q stage %q: %d tasks, profile %v, slow-start %v", j.Name, s.Name, s.NumTasks(), s.Profile, s.SlowStart)
			}
			for _, d := range s.Durations() {
				if d < 1 {
					t.Fatalf("job %q stage %q: duration %d ms", j.Name, s.Name, d)
				}
			}
		}
	}
}

// lowerTaskLimit keeps fuzzed inputs with huge task counts fast.
func lowerTaskLimit(f *testing.F) {
	old := traceMaxStageTasks
	traceMaxStageTasks = 5000
	f.Cleanup(func() { traceMaxStageTasks = old })
}

func FuzzLoadSWIM(f *testing.F) {
	lowerTaskLimit(f)
	for _, s := range []string{
		"job0\t49\t49\t740773\t2339561\t627471\njob1\t101\t52\t736346\t1700537\t432269\n",
		"job4\t208\t11\t3623279\t0\t9838062\r\n\njob3\t197\t75\t233422\t42\t37",
		"a\t1\t1\t9000000000000000000\t9000000000000000000\t0\n",
		"job0\t1\t1\tx\t1\t1\n",
		"",
	} {
		f.Add([]byte(s), uint64(1), false)
	}
	f.Fuzz(func(t *testing.T, data []byte, seed uint64, variant bool) {
		o := SWIMDefaults()
		o.MaxMapsPerJob, o.MaxReducesPerJob = 1000, 1000
		if variant { // no caps, no AM, dense submission, wide spread
			o.MaxMapsPerJob, o.MaxReducesPerJob, o.AMVCores, o.AMMemMB, o.TimeScale, o.Sigma, o.MinTaskSec = 0, 0, 0, 0, 0.01, 2, 0
		}
		jobs, err := LoadSWIM(bytes.NewReader(data), "fuzz.tsv", o, sim.NewRand(seed))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.tsv") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		checkFuzzJobs(t, jobs)
	})
}

func FuzzLoadAlibaba(f *testing.F) {
	lowerTaskLimit(f)
	const hdr = ",submit_time,duration,cpu,memory,job_id,task_id,instances_num,disk\n"
	for _, s := range []string{
		hdr + "0,539,116.38162544169612,1.0,0.005404705821447985,1,1,283,0\n1,7448,73.59,0.5,0.0078,9,23,67,0\n2,7448,87.38,0.5,0.0078,9,24,21,0\n",
		hdr + "0,5,0,0,0,a,b,1,0\n1,4,1e9,1e6,1,a,c,5000,0\n",
		"submit_time,duration,cpu,memory,job_id,task_id,instances_num\n\"1\",2,3,0.5,j,t,4\n",
		hdr + "0,1,1,x,0.1,1,1,1,0\n",
		hdr,
		"",
	} {
		f.Add([]byte(s), uint64(1), false)
	}
	f.Fuzz(func(t *testing.T, data []byte, seed uint64, variant bool) {
		o := AlibabaDefaults()
		if variant { // an AM, dense submission, wide spread, small machines
			o.AMVCores, o.AMMemMB, o.TimeScale, o.Sigma, o.MachineMemMB, o.MaxJobs = 1, 1024, 0.01, 2, 1, 3
		}
		jobs, err := LoadAlibaba(bytes.NewReader(data), "fuzz.csv", o, sim.NewRand(seed))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.csv") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		checkFuzzJobs(t, jobs)
	})
}

func FuzzLoadRumen(f *testing.F) {
	lowerTaskLimit(f)
	for _, s := range []string{
		`{"jobID":"job_1","jobName":"sort","submitTime":1000,"finishTime":61000,"jobProperties":{"mapreduce.map.memory.mb":"1500","yarn.scheduler.minimum-allocation-mb":"512"},
		 "mapTasks":[{"taskID":"m0","preferredLocations":[{"layers":["r1","hostB"]}],"attempts":[{"attemptID":"a1","result":"SUCCESS","startTime":4000,"finishTime":14000,
		 "hostName":"/r1/hostA","clockSplits":[5000,5000],"cpuUsages":[2500,5000],"physMemKbytes":[102400,204800]}]}],
		 "reduceTasks":[{"taskID":"r0","attempts":[{"startTime":5000,"finishTime":35000,"clockSplits":[9000,6000,5000],"cpuUsages":[900,600,3000],"physMemKbytes":[1024,1024,2048]}]}]}`,
		`{"jobID":"j","submitTime":"5","mapTasks":[{"attempts":[{"startTime":1,"finishTime":3,"hostName":"h"}]}]} {"jobID":"k","submitTime":0,"mapTasks":[{"attempts":[{"startTime":1,"finishTime":2}]}]}`,
		slsDoc,
		`{"job.start.ms":0,"job.count":3,"job.tasks":[{"count":2,"duration.ms":10,"container.type":"reduce"}]}`,
		`{"jobID":"j","submitTime":1.5}`,
		`[1]`,
		"",
	} {
		f.Add([]byte(s), uint64(1), false)
	}
	f.Fuzz(func(t *testing.T, data []byte, seed uint64, variant bool) {
		o := RumenDefaults()
		if variant { // default usage, no hints, overrides, dense submission
			o.Usage, o.Hints, o.MapMemMB, o.MinAllocMB, o.SlowStart, o.TimeScale, o.MaxJobs = "default", false, 512, 0, 0.3, 0.01, 2
		}
		jobs, err := LoadRumen(bytes.NewReader(data), "fuzz.json", o, sim.NewRand(seed))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.json") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		checkFuzzJobs(t, jobs)
		for _, j := range jobs {
			for _, s := range j.Stages {
				for _, p := range s.Profiles {
					if p != nil {
						if err := p.Validate(); err != nil {
							t.Fatalf("job %q: measured profile: %v", j.Name, err)
						}
					}
				}
			}
		}
		// The engine accepts what the loader built.
		nodes := []sim.NodeSpec{{Name: "n", Cap: sim.Res{VCores: 1 << 20, MemMB: 1 << 40}}, {Name: "m", Cap: sim.Res{VCores: 1 << 20, MemMB: 1 << 40}}}
		if _, err := sim.New(sim.Config{Nodes: nodes, Jobs: jobs, Policy: &sim.Policy{Name: "idle", Allocate: idle{}}}); err != nil {
			t.Fatalf("engine refused the loaded jobs: %v", err)
		}
	})
}

// idle allocates nothing: enough for sim.New to check a workload.
type idle struct{}

func (idle) Allocate(sim.Handle, *sim.Node) {}
