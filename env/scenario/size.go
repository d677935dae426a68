package scenario

import (
	"fmt"
	"math"
	"sort"

	"yarngym/env/sim"
)

// What a run holds in memory (sim's package doc): for the whole run every
// node, every job (its sim.Job and JobSpec) and every task's description
// (its duration in the spec), and the record of each attempt when the run
// writes tasks.csv; a job's tasks themselves (Task, Stage, its place in
// the stage's queues and the engine's task table, its block's replicas)
// only while the job is in flight, from its arrival to its end. A scenario whose
// estimated footprint is over its memory limit (run.memory_limit_gb,
// default DefaultMemoryLimitGB) is refused before anything is built; one
// over WarnBytes loads with a warning in Scenario.Warnings.
//
// The figures are rounded up from the most heap runs held
// (TestMemoryEstimate keeps the estimate within a factor of two of it): a
// node ~610 bytes (sim.Node, its spec and name, its heartbeat); a job ~500
// bytes with a stage (sim.Job, its JobSpec, their names); a task ~8 bytes
// (its duration; none where a generator's durations are drawn as tasks are
// built, sim.LogNormalDurations); a record 48 (sim.TaskRecord); a task in flight ~400
// bytes more (sim.Task, its place in its stage's queues and in the task
// table, its block's replicas).
const (
	BytesPerNode         = 640
	BytesPerJob          = 768
	BytesPerTask         = 16
	BytesPerRecord       = 64
	BytesPerLiveTask     = 512
	DefaultMemoryLimitGB = 16
	WarnBytes            = 2 << 30
)

// Size is what a run holds: nodes, jobs, their tasks (AMs included), the
// most of those tasks in flight at once and the task attempts it records
// (a run that writes tasks.csv: one per task, retries aside). Counts are
// float64 so that absurd ones do not overflow.
type Size struct {
	Nodes, Jobs, Tasks, Live, Records float64
}

// EstimateBytes is the memory a run of size z needs, estimated.
func EstimateBytes(z Size) float64 {
	return z.Nodes*BytesPerNode + z.Jobs*BytesPerJob + z.Tasks*BytesPerTask + z.Live*BytesPerLiveTask + z.Records*BytesPerRecord
}

// checkSize refuses a run that needs more than the memory limit, and warns
// (when warn) of one over WarnBytes; it returns whether the run is over
// WarnBytes. key names what makes it large.
func (sc *Scenario) checkSize(z Size, key string, warn bool) (large bool, err error) {
	est := EstimateBytes(z)
	limitGB := sc.File.Run.MemoryLimitGB
	if limitGB == 0 {
		limitGB = DefaultMemoryLimitGB
	}
	what := fmt.Sprintf("%s, %s and %s (about %s in flight at once) need about %s of memory to simulate "+
		"(about %d bytes a node, %d a job, %d a task and %d more while in flight)",
		count(z.Nodes, "node"), count(z.Jobs, "job"), count(z.Tasks, "task"), count(z.Live, ""), gb(est), BytesPerNode, BytesPerJob, BytesPerTask, BytesPerLiveTask)
	if est > limitGB*(1<<30) {
		return true, &Error{Source: sc.Origin(), Key: key, Reason: fmt.Sprintf("%s, over the %s limit (run.memory_limit_gb, default %d)",
			what, gb(limitGB*(1<<30)), DefaultMemoryLimitGB)}
	}
	if est <= WarnBytes || !warn {
		return est > WarnBytes, nil
	}
	msg := fmt.Sprintf("%s: %s", sc.Origin(), what)
	sc.Warnings = append(sc.Warnings, msg)
	if sc.warn != nil {
		sc.warn(msg)
	}
	return true, nil
}

// amStartupMs is the AM start-up the scenario's runs use.
func (sc *Scenario) amStartupMs() sim.Ms {
	switch ms := sc.File.Model.AMStartupMs; {
	case ms < 0:
		return 0
	case ms == 0:
		return sim.DefaultModel.AMStartupMs
	default:
		return sim.Ms(ms)
	}
}

// capacity is the cluster's total capacity, from the file.
func (sc *Scenario) capacity() sim.Res {
	var c sim.Res
	for _, g := range sc.File.Cluster.Nodes {
		c.VCores += int64(g.Count) * g.VCores
		c.MemMB += int64(g.Count) * g.MemMB
	}
	return c
}

// explicitSize sizes the cluster and the explicit jobs without building
// them, and names the largest contributor. An entry's copies are in flight
// together for as long as one would run alone on the cluster
// (sim.StageIsolatedMs, at its median duration), so copies interval_s
// apart overlap about that long over interval_s; entries are taken to
// overlap each other at their most.
func (sc *Scenario) explicitSize() (z Size, key string) {
	f := &sc.File
	bigNodes, bigNodesKey := -1.0, ""
	for i, g := range f.Cluster.Nodes {
		n := float64(g.Count)
		z.Nodes += n
		if n > bigNodes {
			bigNodes, bigNodesKey = n, fmt.Sprintf("cluster.nodes[%d].count", i)
		}
	}
	capacity, amMs := sc.capacity(), float64(sc.amStartupMs())
	bigJobs, bigJobsKey := -1.0, ""
	for i, j := range f.Workload.Jobs {
		per, lifeMs := 0.0, 0.0
		if j.AMVCores > 0 {
			per++
			lifeMs += amMs
		}
		for _, st := range j.Stages {
			n := float64(max(st.Tasks, len(st.DurationsS)))
			per += n
			longest, total := st.DurationS*1000, n*st.DurationS*1000
			if len(st.DurationsS) > 0 {
				longest, total = 0, 0
				for _, d := range st.DurationsS {
					longest, total = max(longest, d*1000), total+d*1000
				}
			}
			lifeMs += sim.StageIsolatedMs(longest, total, sim.Res{VCores: st.VCores, MemMB: st.MemMB}, st.MaxRunning, capacity)
		}
		copies, k := 1.0, fmt.Sprintf("workload.jobs[%d].stages", i)
		if j.Count != nil {
			copies, k = float64(*j.Count), fmt.Sprintf("workload.jobs[%d].count", i)
		}
		together := copies
		if j.IntervalS > 0 {
			together = min(copies, math.Floor(max(lifeMs, float64(sim.MsPerS))/(j.IntervalS*1000))+1)
		}
		z.Jobs += copies
		z.Tasks += copies * per
		z.Live += together * per
		if b := EstimateBytes(Size{Jobs: copies, Tasks: copies * per, Live: together * per}); b > bigJobs {
			bigJobs, bigJobsKey = b, k
		}
	}
	key = bigNodesKey
	if bigJobs > z.Nodes*BytesPerNode {
		key = bigJobsKey
	}
	return z, key
}

// SizeOf is the size of a run of the scenario built as cfg (Build): the
// file's nodes, cfg's jobs and tasks, and the most tasks in flight at once
// as configSize estimates them.
func (sc *Scenario) SizeOf(cfg *sim.Config) Size {
	z := sc.configSize(cfg)
	for _, g := range sc.File.Cluster.Nodes {
		z.Nodes += float64(g.Count)
	}
	if cfg.RecordTasks {
		z.Records = z.Tasks
	}
	return z
}

// configSize sizes a built run's jobs (not its nodes): their count, their tasks (AMs
// included) and the most tasks in flight at once, each job counted from
// its submission for as long as it would run alone on the cluster
// (sim.IsolatedMs). A cluster that falls behind its workload holds more
// jobs at once than that, up to every one.
func (sc *Scenario) configSize(cfg *sim.Config) (z Size) {
	capacity, amMs := sc.capacity(), sc.amStartupMs()
	type change struct {
		atMs  float64
		tasks int
	}
	changes := make([]change, 0, 2*len(cfg.Jobs))
	for i := range cfg.Jobs {
		j := &cfg.Jobs[i]
		n := j.TaskCount()
		if !j.AM.IsZero() {
			n++
		}
		z.Tasks += float64(n)
		at := float64(j.SubmitMs)
		am := j.StartupMs(sim.Model{AMStartupMs: amMs}) // the job's own, else the scenario's
		changes = append(changes, change{at, n}, change{at + sim.IsolatedMs(j, am, capacity), -n})
	}
	// Ends before arrivals at the same instant: a job ending as another
	// arrives is not counted with it.
	sort.Slice(changes, func(a, b int) bool {
		if changes[a].atMs != changes[b].atMs {
			return changes[a].atMs < changes[b].atMs
		}
		return changes[a].tasks < changes[b].tasks
	})
	cur := 0
	for _, c := range changes {
		cur += c.tasks
		z.Live = max(z.Live, float64(cur))
	}
	z.Jobs = float64(len(cfg.Jobs))
	return z
}

// count writes x, followed by what, made plural unless x is 1 (nothing
// when what is empty).
func count(x float64, what string) string {
	n := fmt.Sprintf("%.3g", x)
	if x < 1e15 {
		n = fmt.Sprintf("%.0f", x)
	}
	switch {
	case what == "":
		return n
	case x == 1:
		return n + " " + what
	}
	return n + " " + what + "s"
}

func gb(bytes float64) string {
	switch {
	case bytes >= 1<<30:
		return fmt.Sprintf("%.3g GB", bytes/(1<<30))
	case bytes >= 1<<20:
		return fmt.Sprintf("%.3g MB", bytes/(1<<20))
	}
	return fmt.Sprintf("%.3g kB", bytes/(1<<10))
}
