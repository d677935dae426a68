package workload

import (
	"fmt"
	"math"

	"yarngym/env/sim"
	"yarngym/registry"
)

// Generator makes a workload from its options.
type Generator struct {
	Name string
	Doc  string
	// Options returns a fresh pointer to the options at their defaults; a
	// scenario decodes its [workload.options] table into it.
	Options func() any
	// Compile does, once, what does not depend on the seed (a trace
	// loader reads and parses its file here) and returns the per-seed
	// Source; opts is what Options returned, filled in. A scenario compiles
	// its generator when it is loaded, so that each reset only draws.
	Compile func(opts any) (Source, error)
}

// Source draws one seed's jobs. It keeps no state between calls and only
// reads what Compile prepared, so one Source may serve many goroutines.
type Source func(rng *sim.Rand) ([]sim.JobSpec, error)

// Generate compiles opts and draws the jobs of one seed.
func (g Generator) Generate(opts any, rng *sim.Rand) ([]sim.JobSpec, error) {
	src, err := g.Compile(opts)
	if err != nil {
		return nil, err
	}
	return src(rng)
}

// generators is the registry of workload generators; each registers itself
// from its own file (register, registerTrace).
var generators = registry.New[Generator]("generator")

// register adds a generator with typed options O whose jobs are drawn from
// the options and the seed alone.
func register[O any](name, doc string, defaults func() *O, gen func(*O, *sim.Rand) ([]sim.JobSpec, error)) {
	add(Generator{Name: name, Doc: doc,
		Options: func() any { return defaults() },
		Compile: func(o any) (Source, error) {
			opts := o.(*O)
			return func(r *sim.Rand) ([]sim.JobSpec, error) { return gen(opts, r) }, nil
		}})
}

func add(g Generator) { generators.MustAdd(g.Name, g.Doc, g) }

// Lookup returns the generator called name.
func Lookup(name string) (Generator, bool) {
	e, err := generators.Get(name)
	return e.Value, err == nil
}

// Names returns the generators' names, sorted.
func Names() []string { return generators.Names() }

// durations draws n task durations (ms) from a log-normal distribution with
// the given median (seconds) and log-space sigma: task times in MapReduce
// traces are right-skewed, and the median is what papers report.
func durations(rng *sim.Rand, n int, medianS, sigma float64) []sim.Ms {
	out := make([]sim.Ms, n)
	for i := range out {
		out[i] = rng.LogNormalMs(medianS, sigma)
	}
	return out
}

// mrJob builds a MapReduce job: an AM, maps and reduces (reduces requested
// after slowStart of the maps finished).
func mrJob(rng *sim.Rand, name, app, queue string, submitMs sim.Ms, am sim.Res, maps int, mapReq sim.Res, mapMedianS float64,
	reduces int, redReq sim.Res, redMedianS float64, sigma, slowStart float64) sim.JobSpec {
	j := sim.JobSpec{Name: name, App: app, Framework: "mapreduce", Queue: queue, SubmitMs: submitMs, AM: am}
	// The durations are drawn as each task is built (sim.LogNormalDurations),
	// the same values drawing them here would give.
	j.Stages = append(j.Stages, sim.StageSpec{Name: "map", Kind: sim.KindMap, Req: mapReq, Profile: sim.MapProfile,
		Drawn: rng.LogNormalDurations(maps, mapMedianS, sigma)})
	if reduces > 0 {
		j.Stages = append(j.Stages, sim.StageSpec{Name: "reduce", Kind: sim.KindReduce, Req: redReq, Profile: sim.ReduceProfile,
			SlowStart: slowStart, Drawn: rng.LogNormalDurations(reduces, redMedianS, sigma)})
	}
	return j
}

// sparkJob builds a Spark job: an AM (the driver in cluster mode) and
// executors that live for the whole job, with the given profile.
func sparkJob(rng *sim.Rand, name, app, queue string, submitMs sim.Ms, am sim.Res, executors int, req sim.Res,
	medianS, sigma float64, prof *sim.Profile) sim.JobSpec {
	return sim.JobSpec{Name: name, App: app, Framework: "spark", Queue: queue, SubmitMs: submitMs, AM: am,
		Stages: []sim.StageSpec{{Name: "executors", Kind: sim.KindExecutor, Req: req, Profile: prof,
			DurationsMs: durations(rng, executors, medianS, sigma)}}}
}

// partitionedSparkJob builds a batch Spark job under static allocation as
// DRESS runs it (Sec. II-B, Fig. 4: "each task handles a partition"):
// executors containers (sim.StageSpec.MaxRunning), each a long-lived
// executor that runs the job's partitions one after another and holds its
// container until the job's last partition ends (sim.StageSpec.
// PartitionExecutors: Spark's CoarseGrainedExecutorBackend, YarnAllocator's
// targetNumExecutors). The job's work is what sparkJob's executors would
// do, executors x ~medianS (sigma between executors), cut into tasks around
// partitionS seconds (log-normal, partSigma: the data skew that makes
// trailing tasks), rescaled so the total is unchanged.
func partitionedSparkJob(rng *sim.Rand, name, app, queue string, submitMs sim.Ms, am sim.Res, executors int, req sim.Res,
	medianS, sigma, partitionS, partSigma float64, prof *sim.Profile) sim.JobSpec {
	total := 0.0
	for _, d := range durations(rng, executors, medianS, sigma) {
		total += float64(d)
	}
	n := max(executors, int(math.Round(total/(partitionS*1000))))
	parts := durations(rng, n, partitionS, partSigma)
	drawn := 0.0
	for _, d := range parts {
		drawn += float64(d)
	}
	for i, d := range parts {
		parts[i] = max(1, sim.Ms(math.Round(float64(d)*total/drawn)))
	}
	return sim.JobSpec{Name: name, App: app, Framework: "spark", Queue: queue, SubmitMs: submitMs, AM: am,
		Stages: []sim.StageSpec{{Name: "tasks", Kind: sim.KindExecutor, Req: req, Profile: prof, DurationsMs: parts, MaxRunning: executors,
			PartitionExecutors: true}}}
}

func gb(g float64) int64 { return int64(math.Round(g * 1024)) }

func checkPositive(what string, v float64) error {
	if !(v > 0) {
		return fmt.Errorf("%s must be positive, got %v", what, v)
	}
	return nil
}
