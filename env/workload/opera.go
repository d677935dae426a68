package workload

import (
	"fmt"

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
}

func operaDefaults() *OperaOptions {
	return &OperaOptions{JobsPerApp: 2, SubmitIntervalS: 10, Sigma: 0.3, SlowStart: 0.05, AMVCores: 1, AMMemMB: 1024,
		TerasortMapS: 30, TerasortReduceS: 90, WordcountMapS: 40, WordcountReduceS: 30, PiMapS: 25, PiReduceS: 10, PathSimS: 600}
}

// pathSimProfile is a pathSim executor: it parses author records, optionally
// sleeps (the interactive experiment of Sec. IV-E), then computes author
// similarities.
func pathSimProfile(sleepS float64) *sim.Profile {
	p := &sim.Profile{Name: "pathsim", Jitter: sim.ExecutorProfile.Jitter, Phases: []sim.Phase{
		{Name: "start", Frac: 0.05, CPU: 0.40, Mem: 0.30},
		{Name: "parse", Frac: 0.30, CPU: 0.80, Mem: 0.60, IOMBps: 20},
	}}
	if sleepS > 0 {
		p.Name = "pathsim-interactive"
		p.Phases = append(p.Phases, sim.Phase{Name: "sleep", Wall: true, WallMs: sim.Ms(sleepS * 1000), CPU: 0.02, Mem: 0.60})
	}
	p.Phases = append(p.Phases, sim.Phase{Name: "similarity", Frac: 0.65, CPU: 0.90, Mem: 0.85, IOMBps: 5})
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
	if o.InteractiveSleepS < 0 || o.SubmitIntervalS < 0 || o.Sigma < 0 || o.SlowStart < 0 || o.SlowStart > 1 {
		return nil, fmt.Errorf("interactive_sleep_s, submit_interval_s, sigma: must not be negative; slow_start in [0, 1]")
	}
	am := sim.Res{VCores: o.AMVCores, MemMB: o.AMMemMB}
	gb1 := gb(1)
	var jobs []sim.JobSpec
	at := func() sim.Ms { return sim.Ms(float64(len(jobs)) * o.SubmitIntervalS * 1000) }
	for k := 1; k <= o.JobsPerApp; k++ {
		if o.Spark {
			jobs = append(jobs, sparkJob(rng, fmt.Sprintf("pathSim-%d", k), "pathSim", "", at(), am, 10,
				sim.Res{VCores: 4, MemMB: gb(10)}, o.PathSimS, 0.05, pathSimProfile(o.InteractiveSleepS)))
		}
		jobs = append(jobs, mrJob(rng, fmt.Sprintf("terasort-%d", k), "terasort", "", at(), am,
			374, sim.Res{VCores: 4, MemMB: gb1}, o.TerasortMapS, 100, sim.Res{VCores: 2, MemMB: gb1}, o.TerasortReduceS, o.Sigma, o.SlowStart))
		jobs = append(jobs, mrJob(rng, fmt.Sprintf("wordcount-%d", k), "wordcount", "", at(), am,
			414, sim.Res{VCores: 4, MemMB: gb1}, o.WordcountMapS, 50, sim.Res{VCores: 2, MemMB: gb1}, o.WordcountReduceS, o.Sigma, o.SlowStart))
		jobs = append(jobs, mrJob(rng, fmt.Sprintf("piEstimate-%d", k), "piEstimate", "", at(), am,
			500, sim.Res{VCores: 3, MemMB: gb1}, o.PiMapS, 1, sim.Res{VCores: 2, MemMB: gb1}, o.PiReduceS, o.Sigma, o.SlowStart))
	}
	return jobs, nil
}

func init() {
	register("opera", "OPERA Sec. IV: 2 x terasort, wordcount, piEstimate (Table II); spark adds 2 pathSim jobs, interactive_sleep_s the Sec. IV-E sleep",
		operaDefaults, generateOpera)
}
