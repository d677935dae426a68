package workload

import (
	"fmt"
	"math"

	"yarngym/env/sim"
)

// AutoAdminOptions configures the terasort batches of AutoAdmin (Yang et al.).
//
// Reference: AutoAdmin Sec. 2.3 and 4.2.1: a batch of 66 (Sec. 2.3, 3.2) or
// 72 (Sec. 4.2.1) terasort jobs, each on "a 100MB randomly generated input
// file", with AM and task (map and reduce) sizes each from 1 to 4 vCores, on
// 64 vCores ("we only consider the cpu resource"). Sec. 4.2.2 / Table 4.2
// mixes terasort, wordmean, wordcount and pi jobs with per-application AM,
// map and reduce sizes (Set = "exp1" ... "exp6").
//
// Tasks per job (Hadoop 2.2 defaults, the paper's YARN version, Sec. 6):
// teragen writes one file per map and runs mapreduce.job.maps = 2 maps, so
// "100 MB input data generated through teragen" (Sec. 2.3) is two 50 MB
// files; terasort's input format splits each file by the 128 MB block, so a
// job runs 2 maps (TeragenMaps files x ceil(file / block)), and one reduce
// (mapreduce.job.reduces = 1). randomtextwriter (wordcount, wordmean input)
// writes one file when asked for less than its 1 GB per map: ceil(input /
// block) maps. The reduce is requested after 5 % of the maps finished
// (mapreduce.job.reduce.slowstart.completedmaps = 0.05), i.e. after the first.
//
// Assumed (not stated): task and AM memory 1 GB, all jobs submitted at once,
// and the nominal task durations (MapS for one map, ReduceS for the reduce,
// log-normal with Sigma). The AM's start-up is the scenario's model setting.
type AutoAdminOptions struct {
	Set             string  `toml:"set"`
	Jobs            int     `toml:"jobs"`
	AMVCores        int64   `toml:"am_vcores"`
	TaskVCores      int64   `toml:"task_vcores"`
	MemMB           int64   `toml:"mem_mb"`
	InputMB         float64 `toml:"input_mb"`
	BlockMB         float64 `toml:"block_mb"`
	TeragenMaps     int     `toml:"teragen_maps"`
	MapS            float64 `toml:"map_s"`
	ReduceS         float64 `toml:"reduce_s"`
	Sigma           float64 `toml:"sigma"`
	SubmitIntervalS float64 `toml:"submit_interval_s"`
}

func autoAdminDefaults() *AutoAdminOptions {
	return &AutoAdminOptions{Jobs: 66, AMVCores: 1, TaskVCores: 4, MemMB: 1024, InputMB: 100, BlockMB: 128,
		MapS: 15, ReduceS: 20, Sigma: 0.2, TeragenMaps: 2}
}

// autoAdminApp is one cell of Table 4.2: job count; AM / map / reduce vCores;
// input MB (pi has no input: it runs piMaps maps).
type autoAdminApp struct {
	app                 string
	jobs                int
	am, mapVC, reduceVC int64
	inputMB             float64
}

const piMaps = 4 // assumed: Table 4.2 gives pi no input size

// autoAdminSets is Table 4.2.
var autoAdminSets = map[string][]autoAdminApp{
	"exp1": {{"terasort", 15, 1, 2, 1, 100}, {"wordmean", 15, 2, 1, 2, 400}, {"wordcount", 15, 3, 3, 2, 400}, {"pi", 15, 1, 4, 1, 0}},
	"exp2": {{"terasort", 15, 3, 4, 2, 400}, {"wordmean", 15, 1, 3, 2, 200}, {"wordcount", 15, 2, 3, 2, 200}, {"pi", 15, 4, 2, 3, 0}},
	"exp3": {{"terasort", 15, 4, 1, 3, 400}, {"wordmean", 15, 3, 2, 4, 400}, {"wordcount", 15, 2, 4, 1, 200}, {"pi", 15, 1, 2, 2, 0}},
	"exp4": {{"terasort", 30, 2, 3, 1, 200}, {"wordcount", 30, 1, 3, 4, 800}},
	"exp5": {{"terasort", 15, 3, 1, 1, 100}, {"wordmean", 15, 4, 1, 2, 100}, {"wordcount", 15, 4, 1, 1, 100}, {"pi", 15, 2, 1, 1, 0}},
	"exp6": {{"terasort", 20, 1, 1, 2, 200}, {"wordmean", 20, 2, 3, 3, 400}, {"pi", 20, 3, 2, 4, 0}},
}

func generateAutoAdmin(o *AutoAdminOptions, rng *sim.Rand) ([]sim.JobSpec, error) {
	for _, c := range []struct {
		key string
		v   float64
	}{{"mem_mb", float64(o.MemMB)}, {"block_mb", o.BlockMB}, {"map_s", o.MapS}, {"reduce_s", o.ReduceS}} {
		if err := checkPositive(c.key, c.v); err != nil {
			return nil, err
		}
	}
	if o.TeragenMaps < 1 {
		return nil, fmt.Errorf("teragen_maps: must be at least 1, got %d", o.TeragenMaps)
	}
	if o.Sigma < 0 || o.SubmitIntervalS < 0 {
		return nil, fmt.Errorf("sigma, submit_interval_s: must not be negative")
	}
	apps := []autoAdminApp{{"terasort", o.Jobs, o.AMVCores, o.TaskVCores, o.TaskVCores, o.InputMB}}
	if o.Set != "" {
		var ok bool
		if apps, ok = autoAdminSets[o.Set]; !ok {
			return nil, fmt.Errorf("set: %q is not one of exp1 ... exp6 (Table 4.2)", o.Set)
		}
	} else {
		if o.Jobs < 1 {
			return nil, fmt.Errorf("jobs: must be at least 1, got %d", o.Jobs)
		}
		if o.AMVCores < 1 || o.TaskVCores < 1 {
			return nil, fmt.Errorf("am_vcores, task_vcores: must be at least 1")
		}
		if err := checkPositive("input_mb", o.InputMB); err != nil {
			return nil, err
		}
	}
	// Interleave the applications' jobs (Table 4.2 submits them as one batch).
	var jobs []sim.JobSpec
	left := make([]int, len(apps))
	for i, a := range apps {
		left[i] = a.jobs
	}
	for more := true; more; {
		more = false
		for i, a := range apps {
			if left[i] == 0 {
				continue
			}
			left[i]--
			more = more || left[i] > 0
			maps := piMaps
			if a.inputMB > 0 {
				files := 1
				if a.app == "terasort" {
					files = o.TeragenMaps
				}
				maps = files * int(math.Ceil(a.inputMB/float64(files)/o.BlockMB))
			}
			at := sim.Ms(float64(len(jobs)) * o.SubmitIntervalS * 1000)
			name := fmt.Sprintf("%s-%d", a.app, a.jobs-left[i])
			jobs = append(jobs, mrJob(rng, name, a.app, "", at, sim.Res{VCores: a.am, MemMB: o.MemMB},
				maps, sim.Res{VCores: a.mapVC, MemMB: o.MemMB}, o.MapS, 1, sim.Res{VCores: a.reduceVC, MemMB: o.MemMB}, o.ReduceS, o.Sigma, 0.05))
		}
	}
	return jobs, nil
}

func init() {
	register("autoadmin", "AutoAdmin Sec. 2.3/4.2: a batch of terasort jobs with set AM and task vCores; set = exp1..exp6 for Table 4.2 mixes",
		autoAdminDefaults, generateAutoAdmin)
}
