package workload

import (
	"fmt"
	"math"

	"yarngym/env/sim"
)

// TPCHOptions configures a Decima-like stream of TPC-H queries on Spark:
// the job mix of Decima's simulator (Mao et al., SIGCOMM 2019, decima-sim's
// spark_env: initial jobs present at time 0, then a Poisson stream, each job
// one of the 22 TPC-H queries at one of seven input sizes, drawn uniformly;
// defaults as its param.py: 10 initial jobs, 100 streamed, 25 s mean
// interval, sizes 2-100 GB), meant to run on single-slot executors (nodes of
// one vCore, no AM: a Spark executor takes one task at a time, and Decima
// schedules tasks, not containers).
//
// Decima replays task durations measured per query and size; none are
// copied here. The shape is modelled from the TPC-H schema, with assumed
// constants:
//
//   - a query reads the tables the TPC-H specification names for it
//     (tpchTables); each table's share of the database bytes is its share
//     at any scale factor (lineitem ~70%, orders ~16%, ...). The scans are
//     the job's first stage: one task per scan_split_mb of each table read
//     (Spark's input splits), each taking scan_sec_per_split (assumed 2 s:
//     read, decode, filter and write shuffle output of 128 MB) for a full
//     split, in proportion for a smaller one, at least min_task_sec;
//   - each join of the next table, then the final aggregation, is a
//     shuffle stage of shuffle_partitions tasks (Spark SQL's
//     spark.sql.shuffle.partitions, 200; fewer, down to one, when the
//     scanned input is small: min(200, scan tasks)); a shuffle task's
//     median is max(min_task_sec, the MB it reads / shuffle_mb_per_sec),
//     what it reads being the bytes scanned so far x selectivity (assumed
//     0.3: filters and projections keep about a third) over the partitions;
//   - stages run one after another (slow-start 1): Spark runs a stage once
//     the stages it depends on have finished; the DAG is flattened into a
//     chain (the scans, which Spark may run side by side, share one stage);
//   - task durations are log-normal around those medians with spread sigma.
//
// A job has about 4 stages and a few hundred tasks on average, tasks of
// 0.2-3 s: Decima's TPC-H jobs are of that order (dozens to thousands of
// tasks, most under a few seconds).
type TPCHOptions struct {
	InitialJobs int     `toml:"initial_jobs"`
	StreamJobs  int     `toml:"stream_jobs"`
	IntervalS   float64 `toml:"interval_s"`
	// SizesGB are the input sizes a query draws from, uniformly.
	SizesGB           []float64 `toml:"sizes_gb"`
	ScanSplitMB       float64   `toml:"scan_split_mb"`
	ScanSecPerSplit   float64   `toml:"scan_sec_per_split"`
	ShufflePartitions int       `toml:"shuffle_partitions"`
	ShuffleMBPerSec   float64   `toml:"shuffle_mb_per_sec"`
	Selectivity       float64   `toml:"selectivity"`
	MinTaskSec        float64   `toml:"min_task_sec"`
	Sigma             float64   `toml:"sigma"`
	TaskVCores        int64     `toml:"task_vcores"`
	TaskMemMB         int64     `toml:"task_mem_mb"`
}

// TPCHDefaults returns Decima's default job mix.
func TPCHDefaults() *TPCHOptions {
	return &TPCHOptions{InitialJobs: 10, StreamJobs: 100, IntervalS: 25, SizesGB: []float64{2, 5, 10, 20, 50, 80, 100},
		ScanSplitMB: 128, ScanSecPerSplit: 2, ShufflePartitions: 200, ShuffleMBPerSec: 100, Selectivity: 0.3,
		MinTaskSec: 0.2, Sigma: 0.3, TaskVCores: 1, TaskMemMB: 1024}
}

// TPC-H tables: each one's share of the database's bytes (from the
// specification's row counts and row sizes, the same at any scale factor).
const (
	tLineitem = iota
	tOrders
	tPartsupp
	tPart
	tCustomer
	tSupplier
	tNation
	tRegion
)

var tpchTableShare = [...]float64{0.70, 0.16, 0.115, 0.023, 0.023, 0.0014, 0.00001, 0.00001}

// tpchTables lists the tables each of the 22 queries reads (TPC-H
// specification, Sec. 2.4), the largest first.
var tpchTables = [22][]int{
	{tLineitem},
	{tPartsupp, tPart, tSupplier, tNation, tRegion},
	{tLineitem, tOrders, tCustomer},
	{tLineitem, tOrders},
	{tLineitem, tOrders, tCustomer, tSupplier, tNation, tRegion},
	{tLineitem},
	{tLineitem, tOrders, tCustomer, tSupplier, tNation},
	{tLineitem, tOrders, tPart, tCustomer, tSupplier, tNation, tRegion},
	{tLineitem, tOrders, tPartsupp, tPart, tSupplier, tNation},
	{tLineitem, tOrders, tCustomer, tNation},
	{tPartsupp, tSupplier, tNation},
	{tLineitem, tOrders},
	{tOrders, tCustomer},
	{tLineitem, tPart},
	{tLineitem, tSupplier},
	{tPartsupp, tPart, tSupplier},
	{tLineitem, tPart},
	{tLineitem, tOrders, tCustomer},
	{tLineitem, tPart},
	{tLineitem, tPartsupp, tPart, tSupplier, tNation},
	{tLineitem, tOrders, tSupplier, tNation},
	{tOrders, tCustomer},
}

func (o *TPCHOptions) validate() error {
	if o.InitialJobs < 0 || o.StreamJobs < 0 || o.InitialJobs+o.StreamJobs < 1 || o.InitialJobs+o.StreamJobs > 1e7 {
		return fmt.Errorf("initial_jobs, stream_jobs: must not be negative, with 1 to 1e7 jobs in all, got %d and %d", o.InitialJobs, o.StreamJobs)
	}
	if len(o.SizesGB) == 0 {
		return fmt.Errorf("sizes_gb: at least one size")
	}
	for _, g := range o.SizesGB {
		if !(g > 0 && g <= 1e5) {
			return fmt.Errorf("sizes_gb: %v outside (0, 1e5]", g)
		}
	}
	for _, c := range []struct {
		key string
		v   float64
	}{{"interval_s", o.IntervalS}, {"scan_split_mb", o.ScanSplitMB}, {"scan_sec_per_split", o.ScanSecPerSplit},
		{"shuffle_mb_per_sec", o.ShuffleMBPerSec}, {"selectivity", o.Selectivity}, {"min_task_sec", o.MinTaskSec}} {
		if !(c.v > 0 && c.v <= traceMaxSec) {
			return fmt.Errorf("%s: must be positive, got %v", c.key, c.v)
		}
	}
	if o.ShufflePartitions < 1 || o.ShufflePartitions > 1<<20 {
		return fmt.Errorf("shuffle_partitions: must be in [1, 2^20], got %d", o.ShufflePartitions)
	}
	if !(o.Sigma >= 0 && o.Sigma <= 5) {
		return fmt.Errorf("sigma: must be in [0, 5], got %v", o.Sigma)
	}
	if o.TaskVCores <= 0 || o.TaskMemMB <= 0 {
		return fmt.Errorf("task_vcores, task_mem_mb: must be positive, got %d and %d", o.TaskVCores, o.TaskMemMB)
	}
	return nil
}

// tpchJob builds query q (1-22) on sizeGB of input.
func tpchJob(o *TPCHOptions, rng *sim.Rand, name string, q int, sizeGB float64, at sim.Ms) sim.JobSpec {
	req := sim.Res{VCores: o.TaskVCores, MemMB: o.TaskMemMB}
	j := sim.JobSpec{Name: name, App: fmt.Sprintf("tpch-q%d", q), Framework: "spark", SubmitMs: at}
	// Stage 0: the scans, one task per split of each table read.
	var scan []sim.Ms
	scanned := 0.0 // MB read so far, table by table
	var joinMB []float64
	for i, tb := range tpchTables[q-1] {
		mb := sizeGB * 1024 * tpchTableShare[tb]
		splits := max(1, int(math.Ceil(mb/o.ScanSplitMB)))
		med := math.Max(o.MinTaskSec, o.ScanSecPerSplit*mb/(o.ScanSplitMB*float64(splits)))
		scan = append(scan, durations(rng, splits, med, o.Sigma)...)
		scanned += mb
		if i > 0 {
			joinMB = append(joinMB, scanned*o.Selectivity)
		}
	}
	j.Stages = append(j.Stages, sim.StageSpec{Name: "scan", Kind: sim.KindGeneric, Req: req, Profile: sim.FlatProfile, DurationsMs: scan})
	// Then a shuffle stage per join and the final aggregation.
	joinMB = append(joinMB, scanned*o.Selectivity*o.Selectivity)
	parts := min(o.ShufflePartitions, len(scan))
	for k, mb := range joinMB {
		stage := "join"
		if k == len(joinMB)-1 {
			stage = "aggregate"
		}
		med := math.Max(o.MinTaskSec, mb/float64(parts)/o.ShuffleMBPerSec)
		j.Stages = append(j.Stages, sim.StageSpec{Name: fmt.Sprintf("%s-%d", stage, k+1), Kind: sim.KindGeneric, Req: req,
			Profile: sim.FlatProfile, SlowStart: 1, DurationsMs: durations(rng, parts, med, o.Sigma)})
	}
	return j
}

func genTPCH(o *TPCHOptions, rng *sim.Rand) ([]sim.JobSpec, error) {
	if err := o.validate(); err != nil {
		return nil, err
	}
	n := o.InitialJobs + o.StreamJobs
	jobs := make([]sim.JobSpec, 0, n)
	t := 0.0
	for i := 0; i < n; i++ {
		if i >= o.InitialJobs {
			t += -math.Log(1-rng.Float64()) * o.IntervalS // Poisson arrivals
		}
		q := 1 + rng.IntN(22)
		size := o.SizesGB[rng.IntN(len(o.SizesGB))]
		at, err := traceSubmitMs(t, 1)
		if err != nil {
			return nil, fmt.Errorf("interval_s: job %d: %v", i, err)
		}
		jobs = append(jobs, tpchJob(o, rng, fmt.Sprintf("tpch-%d-q%d-%gg", i, q, size), q, size, at))
	}
	return jobs, nil
}

func init() {
	register("tpch", "Decima-like TPC-H on Spark: 22 queries x input sizes, initial jobs then a Poisson stream; modelled stage shapes (scans, joins, aggregation) for single-slot executors (assumed)",
		TPCHDefaults, genTPCH)
}
