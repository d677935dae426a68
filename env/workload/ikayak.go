package workload

import (
	"fmt"
	"math"

	"yarngym/env/sim"
)

// IKayakOptions configures the MapReduce + Spark mix of iKayak (Cheng et al.).
//
// Reference: iKayak Sec. 4.3: MapReduce jobs from the Microsoft-derived (MSD)
// workload, scaled to 87 jobs without "the largest 10% of jobs and the
// smallest 20% of jobs", of Wordcount, Grep and Terasort (Table 2: tasks
// <1 core, 1 GB> for Wordcount, <1 core, 2 GB> for Grep and Terasort); Spark
// jobs K-means, PageRank and Index (Table 3 executors: <4 cores, 4 GB>,
// <2 cores, 8 GB>, <4 cores, 6 GB>) mixed with MapReduce "at a ratio of 1:1";
// HDFS blocks of 256 MB with 3 replicas (Sec. 4.2).
//
// Assumed (not stated): inputs log-normal around 8 GB cut to [1, 40] GB,
// one map per block, reduces = maps / 8 capped at 12 (Sec. 5.3 records 12);
// 4-8 executors per Spark job running about 300 s; Poisson arrivals with a
// mean gap of 30 s; AMs <1 core, 1 GB> (a Spark driver in YARN-cluster mode
// runs in its AM: spark_mode "cluster" gives it <1 core, 2 GB>; "client"
// keeps the driver outside YARN and leaves a <1 core, 512 MB> launcher).
type IKayakOptions struct {
	MRJobs      int     `toml:"mr_jobs"`
	SparkJobs   int     `toml:"spark_jobs"`
	SparkMode   string  `toml:"spark_mode"`
	MeanGapS    float64 `toml:"mean_gap_s"`
	InputMedGB  float64 `toml:"input_median_gb"`
	InputMinGB  float64 `toml:"input_min_gb"`
	InputMaxGB  float64 `toml:"input_max_gb"`
	BlockMB     float64 `toml:"block_mb"`
	MapS        float64 `toml:"map_s"`
	ReduceS     float64 `toml:"reduce_s"`
	ExecutorMin int     `toml:"executors_min"`
	ExecutorMax int     `toml:"executors_max"`
	ExecutorS   float64 `toml:"executor_s"`
	Sigma       float64 `toml:"sigma"`
	SlowStart   float64 `toml:"slow_start"`
	// SparkQueue and MRQueue put each framework's jobs in a queue (empty:
	// the default queue). iKayak's cluster is multi-tenant: in Sec. 2.2
	// "half of the cluster resource is allocated for the Spark application".
	SparkQueue string `toml:"spark_queue"`
	MRQueue    string `toml:"mr_queue"`
}

func ikayakDefaults() *IKayakOptions {
	return &IKayakOptions{MRJobs: 87, SparkJobs: 87, SparkMode: "cluster", MeanGapS: 30, InputMedGB: 8, InputMinGB: 1, InputMaxGB: 40,
		BlockMB: 256, MapS: 45, ReduceS: 120, ExecutorMin: 4, ExecutorMax: 8, ExecutorS: 300, Sigma: 0.3, SlowStart: 0.05}
}

func generateIKayak(o *IKayakOptions, rng *sim.Rand) ([]sim.JobSpec, error) {
	if o.MRJobs < 0 || o.SparkJobs < 0 || o.MRJobs+o.SparkJobs == 0 {
		return nil, fmt.Errorf("mr_jobs, spark_jobs: must not be negative and not both zero")
	}
	if o.SparkMode != "cluster" && o.SparkMode != "client" {
		return nil, fmt.Errorf("spark_mode: %q is not cluster or client", o.SparkMode)
	}
	for _, c := range []struct {
		key string
		v   float64
	}{{"mean_gap_s", o.MeanGapS}, {"input_median_gb", o.InputMedGB}, {"input_min_gb", o.InputMinGB}, {"block_mb", o.BlockMB},
		{"map_s", o.MapS}, {"reduce_s", o.ReduceS}, {"executor_s", o.ExecutorS}} {
		if err := checkPositive(c.key, c.v); err != nil {
			return nil, err
		}
	}
	if o.InputMaxGB < o.InputMinGB {
		return nil, fmt.Errorf("input_max_gb: %v below input_min_gb %v", o.InputMaxGB, o.InputMinGB)
	}
	if o.ExecutorMin < 1 || o.ExecutorMax < o.ExecutorMin {
		return nil, fmt.Errorf("executors_min, executors_max: need 1 <= min <= max")
	}
	mrApps := []struct {
		name string
		req  sim.Res
	}{{"wordcount", sim.Res{VCores: 1, MemMB: gb(1)}}, {"grep", sim.Res{VCores: 1, MemMB: gb(2)}}, {"terasort", sim.Res{VCores: 1, MemMB: gb(2)}}}
	sparkApps := []struct {
		name string
		req  sim.Res
	}{{"kmeans", sim.Res{VCores: 4, MemMB: gb(4)}}, {"pagerank", sim.Res{VCores: 2, MemMB: gb(8)}}, {"index", sim.Res{VCores: 4, MemMB: gb(6)}}}
	sparkAM := sim.Res{VCores: 1, MemMB: gb(2)}
	if o.SparkMode == "client" {
		sparkAM = sim.Res{VCores: 1, MemMB: 512}
	}
	var jobs []sim.JobSpec
	at := 0.0
	mr, sp := 0, 0
	for mr < o.MRJobs || sp < o.SparkJobs {
		// Alternate frameworks 1:1 while both have jobs left.
		spark := sp < o.SparkJobs && (mr >= o.MRJobs || (mr+sp)%2 == 1)
		t := sim.Ms(at * 1000)
		if spark {
			a := sparkApps[rng.IntN(len(sparkApps))]
			n := o.ExecutorMin + rng.IntN(o.ExecutorMax-o.ExecutorMin+1)
			sp++
			jobs = append(jobs, sparkJob(rng, fmt.Sprintf("%s-%d", a.name, sp), a.name, o.SparkQueue, t, sparkAM, n, a.req,
				o.ExecutorS*math.Exp(o.Sigma*rng.NormFloat64()), 0.05, sim.ExecutorProfile))
		} else {
			a := mrApps[rng.IntN(len(mrApps))]
			in := math.Min(math.Max(o.InputMedGB*math.Exp(rng.NormFloat64()), o.InputMinGB), o.InputMaxGB)
			maps := int(math.Ceil(in * 1024 / o.BlockMB))
			reduces := min(max(1, maps/8), 12)
			mr++
			jobs = append(jobs, mrJob(rng, fmt.Sprintf("%s-%d", a.name, mr), a.name, o.MRQueue, t, sim.Res{VCores: 1, MemMB: gb(1)},
				maps, a.req, o.MapS, reduces, a.req, o.ReduceS, o.Sigma, o.SlowStart))
		}
		at += -o.MeanGapS * math.Log(1-rng.Float64())
	}
	return jobs, nil
}

func init() {
	register("ikayak", "iKayak Sec. 4.3: MSD-like MapReduce (wordcount, grep, terasort) and Spark (kmeans, pagerank, index) jobs mixed 1:1",
		ikayakDefaults, generateIKayak)
}
