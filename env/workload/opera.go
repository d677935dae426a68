package workload

import (
	"fmt"
	"math"

	"yarngym/env/sim"
)

// OperaOptions configures the workload of OPERA Sec. IV (Yang et al.).
//
// Reference: OPERA Sec. IV-A, Table II: terasort (374 maps <4 vCores, 1 GB>,
// 100 reduces <2, 1 GB>), wordcount (414 maps <4, 1 GB>, 50 reduces <2,
// 1 GB>), piEstimate (500 maps <3, 1 GB>, 1 reduce <2, 1 GB>), and the Spark
// application pathSim (10 executors <4 vCores, 9 GB> plus 1 GB overhead,
// Sec. IV-C). Sec. IV-B runs 2 jobs of each MapReduce application; IV-C adds
// two pathSim jobs; IV-E adds a 5-minute sleep inside each pathSim job,
// "after parsing the author information but before calculating the author
// similarities".
//
// The paper states no task durations, AM size or submission times: the
// durations below are assumed from the input per task (50 GB / 374 maps is
// ~137 MB per terasort map) and Sec. II-B (a pathSim job takes ~600 s).
// What the paper does say constrains them:
//   - Sigma, the log-normal spread of nominal task durations within an
//     application's stage, is measured, not chosen: 0.12, the job-centred
//     spread of the 192 map durations of Hadoop SLS's sample Rumen trace
//     (data/traces/hadoop-sls; 1.4826 x the median absolute deviation
//     of log durations: 0.18 and 0.09 for its two jobs, 0.12 pooled), maps of
//     fixed input on a real YARN cluster. It agrees with Sec. III-B ("All map
//     tasks in these two applications will process similar size of input
//     files and have similar execution time"). (It was 0.1 before, chosen
//     from Table III's outcome, the result it is scored on.)
//   - The Spark jobs are submitted first: "all tasks in pathSim are launched
//     together in a single wave" (Sec. IV-C), and in Sec. IV-E both jobs
//     sleep "during the first 5 minutes" (Fig. 11). Submitted after the
//     MapReduce jobs, the second job's 10 GB executors would wait for nodes
//     to drain under Fair's memory fair share and start in several waves.
//   - pathSim parses briefly (15% of its work with start-up) before the
//     sleep of Sec. IV-E, for the same reason.
//
// Requests against usage (Sec. IV-A): "The CPU demand of a task is equal to
// 75% of its peak CPU usage and the memory requirement is set to that task's
// maximum memory usage." A task's peak CPU is thus 4/3 of its vCores and
// its peak memory its request. The usage profiles are rescaled to that
// (peakSized): CPURequestOfPeak and MemRequestOfPeak are the two ratios; a
// CPURequestOfPeak of 0 keeps the engine's default profiles, whose usage
// never exceeds the request.
type OperaOptions struct {
	JobsPerApp        int     `toml:"jobs_per_app"`
	Spark             bool    `toml:"spark"`
	InteractiveSleepS float64 `toml:"interactive_sleep_s"`
	SubmitIntervalS   float64 `toml:"submit_interval_s"`
	Sigma             float64 `toml:"sigma"`
	SlowStart         float64 `toml:"slow_start"`
	AMVCores          int64   `toml:"am_vcores"`
	AMMemMB           int64   `toml:"am_mem_mb"`
	TerasortMapS      float64 `toml:"terasort_map_s"`
	TerasortReduceS   float64 `toml:"terasort_reduce_s"`
	WordcountMapS     float64 `toml:"wordcount_map_s"`
	WordcountReduceS  float64 `toml:"wordcount_reduce_s"`
	PiMapS            float64 `toml:"pi_map_s"`
	PiReduceS         float64 `toml:"pi_reduce_s"`
	PathSimS          float64 `toml:"pathsim_s"`
	CPURequestOfPeak  float64 `toml:"cpu_request_of_peak"`
	MemRequestOfPeak  float64 `toml:"mem_request_of_peak"`
	// PeakSDs, the peak's distance above a task's highest sub-phase level in
	// standard deviations of its fluctuation, is calibrated on the Fair
	// baseline's own measurement: Fair "only uses about 50% (164) of vCores in
	// average" (Sec. IV-B, Fig. 5a). Fair's mean vCores used over seeds 1-10
	// (opera-mr, policy fair), by PeakSDs: 0: 180.1; 0.4: 166.4; 0.45: 163.9;
	// 0.5: 162.3; 0.8: 153.8; 1.3: 140.3; 2.2: 119.2. OPERA's results played
	// no part. It was 2.2 (Fair at 164.0) until the MapReduce AM's heartbeats
	// and hanging maps were modelled as Hadoop 3.3.6 runs them (the oracle's
	// opera-mr pair went from 2 of 6 jobs within 10 % to 6 of 6): at 2.2
	// Fair's CPU use then fell to 119 vCores (its allocation, 280 of 300
	// vCores on seed 1, is Hadoop's), so the calibration was made again.
	// (Before that it was 1.3, the expected largest of the model's 6 draws;
	// 2.2 was the expected largest of ~50 draws, a 1 s sampling of a 40 s
	// map: the value no longer follows from the sampling.) It was 0.45 until
	// the CPU a task consumes followed its progress (a map waiting on its
	// disk or on a remote read leaves its CPU share idle, as a machine's CPU
	// utilisation counts it): Fair's mean then fell to 161.9 at 0.45, and
	// measured again (seeds 1-10): 0.35: 166.2; 0.4: 164.5; 0.45: 161.9.
	// It was 0.4 until the OPERA scenarios ran YARN v2.5's Fair headroom
	// (zero_headroom, the paper's stack): Fair's reducers then no longer
	// hold idle vCores through the map phase and Fair used 229 vCores at
	// 0.4; measured again (seeds 1-10): 2.3: 166.6; 2.35: 165.2; 2.4:
	// 163.9; 2.45: 162.8.
	PeakSDs float64 `toml:"peak_sds"`
}

func operaDefaults() *OperaOptions {
	return &OperaOptions{JobsPerApp: 2, SubmitIntervalS: 10, Sigma: 0.12, SlowStart: 0.05, AMVCores: 1, AMMemMB: 1024,
		TerasortMapS: 30, TerasortReduceS: 90, WordcountMapS: 40, WordcountReduceS: 30, PiMapS: 25, PiReduceS: 10, PathSimS: 600,
		CPURequestOfPeak: 0.75, MemRequestOfPeak: 1, PeakSDs: 2.4}
}

// peakSized rescales profile p, for a container requesting req, so that the
// task's expected peak usage (its highest sub-phase level moved up by
// samplePeak standard deviations of its fluctuation, OperaOptions.PeakSDs)
// is req.VCores / cpuOfPeak cores and
// req.MemMB / memOfPeak MB, keeping the sub-phases' relative levels. The
// result is an Absolute profile: CPU may exceed the request, as it does in
// the paper's cluster (YARN 2.5 does not cap a container's CPU).
//
// Reference: OPERA Sec. IV-A ("The CPU demand of a task is equal to 75% of
// its peak CPU usage and the memory requirement is set to that task's
// maximum memory usage").
func peakSized(p *sim.Profile, req sim.Res, cpuOfPeak, memOfPeak, samplePeak float64) *sim.Profile {
	maxCPU, maxMem := 0.0, 0.0
	for _, ph := range p.Phases {
		maxCPU = math.Max(maxCPU, ph.CPU)
		maxMem = math.Max(maxMem, ph.Mem)
	}
	cpuPeak := float64(req.VCores) / cpuOfPeak / (1 + samplePeak*p.Jitter)
	// The engine moves memory a fifth as much as CPU (sim.setUsage).
	memPeak := float64(req.MemMB) / memOfPeak / (1 + samplePeak*0.2*p.Jitter)
	q := &sim.Profile{Name: p.Name + "-peak-sized", Jitter: p.Jitter, Absolute: true, Phases: append([]sim.Phase(nil), p.Phases...)}
	for i := range q.Phases {
		ph := &q.Phases[i]
		if maxCPU > 0 {
			ph.CPU = ph.CPU / maxCPU * cpuPeak
		}
		if maxMem > 0 {
			ph.Mem = ph.Mem / maxMem * memPeak
		}
	}
	return q
}

// pathSimProfile is a pathSim executor: it parses author records, optionally
// sleeps (the interactive experiment of Sec. IV-E), then computes author
// similarities.
func pathSimProfile(sleepS float64) *sim.Profile {
	p := &sim.Profile{Name: "pathsim", Jitter: sim.ExecutorProfile.Jitter, Phases: []sim.Phase{
		{Name: "start", Frac: 0.05, CPU: 0.40, Mem: 0.30},
		{Name: "parse", Frac: 0.10, CPU: 0.80, Mem: 0.60, IOMBps: 20},
	}}
	if sleepS > 0 {
		p.Name = "pathsim-interactive"
		p.Phases = append(p.Phases, sim.Phase{Name: "sleep", Wall: true, WallMs: sim.Ms(sleepS * 1000), CPU: 0.02, Mem: 0.60})
	}
	p.Phases = append(p.Phases, sim.Phase{Name: "similarity", Frac: 0.85, CPU: 0.90, Mem: 0.85, IOMBps: 5})
	return p
}

func generateOpera(o *OperaOptions, rng *sim.Rand) ([]sim.JobSpec, error) {
	if o.JobsPerApp < 1 {
		return nil, fmt.Errorf("jobs_per_app: must be at least 1, got %d", o.JobsPerApp)
	}
	for _, c := range []struct {
		key string
		v   float64
	}{{"terasort_map_s", o.TerasortMapS}, {"terasort_reduce_s", o.TerasortReduceS}, {"wordcount_map_s", o.WordcountMapS},
		{"wordcount_reduce_s", o.WordcountReduceS}, {"pi_map_s", o.PiMapS}, {"pi_reduce_s", o.PiReduceS}, {"pathsim_s", o.PathSimS},
		{"am_vcores", float64(o.AMVCores)}, {"am_mem_mb", float64(o.AMMemMB)}} {
		if err := checkPositive(c.key, c.v); err != nil {
			return nil, err
		}
	}
	if o.CPURequestOfPeak < 0 || o.CPURequestOfPeak > 1 || (o.CPURequestOfPeak > 0 && !(o.MemRequestOfPeak > 0 && o.MemRequestOfPeak <= 1)) {
		return nil, fmt.Errorf("cpu_request_of_peak: must be in [0, 1] (0: default profiles); mem_request_of_peak in (0, 1]")
	}
	if o.InteractiveSleepS < 0 || o.SubmitIntervalS < 0 || o.Sigma < 0 || o.SlowStart < 0 || o.SlowStart > 1 {
		return nil, fmt.Errorf("interactive_sleep_s, submit_interval_s, sigma: must not be negative; slow_start in [0, 1]")
	}
	am := sim.Res{VCores: o.AMVCores, MemMB: o.AMMemMB}
	gb1 := gb(1)
	var jobs []sim.JobSpec
	at := func() sim.Ms { return sim.Ms(float64(len(jobs)) * o.SubmitIntervalS * 1000) }
	for k := 1; k <= o.JobsPerApp && o.Spark; k++ {
		jobs = append(jobs, sparkJob(rng, fmt.Sprintf("pathSim-%d", k), "pathSim", "", at(), am, 10,
			sim.Res{VCores: 4, MemMB: gb(10)}, o.PathSimS, 0.05, pathSimProfile(o.InteractiveSleepS)))
	}
	for k := 1; k <= o.JobsPerApp; k++ {
		jobs = append(jobs, mrJob(rng, fmt.Sprintf("terasort-%d", k), "terasort", "", at(), am,
			374, sim.Res{VCores: 4, MemMB: gb1}, o.TerasortMapS, 100, sim.Res{VCores: 2, MemMB: gb1}, o.TerasortReduceS, o.Sigma, o.SlowStart))
		jobs = append(jobs, mrJob(rng, fmt.Sprintf("wordcount-%d", k), "wordcount", "", at(), am,
			414, sim.Res{VCores: 4, MemMB: gb1}, o.WordcountMapS, 50, sim.Res{VCores: 2, MemMB: gb1}, o.WordcountReduceS, o.Sigma, o.SlowStart))
		jobs = append(jobs, mrJob(rng, fmt.Sprintf("piEstimate-%d", k), "piEstimate", "", at(), am,
			500, sim.Res{VCores: 3, MemMB: gb1}, o.PiMapS, 1, sim.Res{VCores: 2, MemMB: gb1}, o.PiReduceS, o.Sigma, o.SlowStart))
	}
	if o.CPURequestOfPeak > 0 {
		for i := range jobs {
			for k := range jobs[i].Stages {
				st := &jobs[i].Stages[k]
				st.Profile = peakSized(st.Profile, st.Req, o.CPURequestOfPeak, o.MemRequestOfPeak, o.PeakSDs)
			}
		}
	}
	return jobs, nil
}

func init() {
	register("opera", "OPERA Sec. IV: 2 x terasort, wordcount, piEstimate (Table II); spark adds 2 pathSim jobs, interactive_sleep_s the Sec. IV-E sleep",
		operaDefaults, generateOpera)
}
