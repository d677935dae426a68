package scenario

import (
	"fmt"

	"yarngym/env/sim"
)

// The simulator keeps every node and every task in memory for the whole
// run. A scenario whose estimated footprint is over its memory limit
// (run.memory_limit_gb, default DefaultMemoryLimitGB) is refused before
// anything is built; one over WarnBytes loads with a warning in
// Scenario.Warnings. The per-node and per-task figures are rounded up from
// the heap measured after building and starting a run (TestMemoryEstimate
// keeps them within a factor of two of it): a node ~400 bytes (sim.Node, its
// spec and name, its heartbeat), a task ~380 bytes (sim.Task, its duration,
// its block's replicas).
const (
	BytesPerNode         = 512
	BytesPerTask         = 512
	DefaultMemoryLimitGB = 16
	WarnBytes            = 2 << 30
)

// EstimateBytes is the memory a run of nodes nodes and tasks tasks (AMs
// included) needs, estimated. Counts are float64 so that absurd ones do not
// overflow.
func EstimateBytes(nodes, tasks float64) float64 {
	return nodes*BytesPerNode + tasks*BytesPerTask
}

// checkSize refuses a run that needs more than the memory limit, and warns
// (when warn) of one over WarnBytes; it returns whether the run is over
// WarnBytes. key names what makes it large.
func (sc *Scenario) checkSize(nodes, tasks float64, key string, warn bool) (large bool, err error) {
	est := EstimateBytes(nodes, tasks)
	limitGB := sc.File.Run.MemoryLimitGB
	if limitGB == 0 {
		limitGB = DefaultMemoryLimitGB
	}
	what := fmt.Sprintf("%s nodes and %s tasks need about %s of memory to simulate (about %d bytes a node or task)",
		count(nodes), count(tasks), gb(est), BytesPerNode)
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

// explicitSize counts the nodes of the cluster and the tasks (AMs
// included) of the explicit jobs, and names the largest contributor.
func (sc *Scenario) explicitSize() (nodes, tasks float64, key string) {
	f := &sc.File
	bigNodes, bigNodesKey := -1.0, ""
	for i, g := range f.Cluster.Nodes {
		n := float64(g.Count)
		nodes += n
		if n > bigNodes {
			bigNodes, bigNodesKey = n, fmt.Sprintf("cluster.nodes[%d].count", i)
		}
	}
	bigTasks, bigTasksKey := -1.0, ""
	for i, j := range f.Workload.Jobs {
		per := 0.0
		if j.AMVCores > 0 {
			per++
		}
		for _, st := range j.Stages {
			per += float64(max(st.Tasks, len(st.DurationsS)))
		}
		copies, k := 1.0, fmt.Sprintf("workload.jobs[%d].stages", i)
		if j.Count != nil {
			copies, k = float64(*j.Count), fmt.Sprintf("workload.jobs[%d].count", i)
		}
		tasks += copies * per
		if copies*per > bigTasks {
			bigTasks, bigTasksKey = copies*per, k
		}
	}
	key = bigNodesKey
	if tasks*BytesPerTask > nodes*BytesPerNode {
		key = bigTasksKey
	}
	return nodes, tasks, key
}

// configTasks counts the tasks of a built run, AMs included.
func configTasks(cfg *sim.Config) float64 {
	n := 0
	for i := range cfg.Jobs {
		j := &cfg.Jobs[i]
		if !j.AM.IsZero() {
			n++
		}
		for _, st := range j.Stages {
			n += len(st.DurationsMs)
		}
	}
	return float64(n)
}

func count(x float64) string {
	if x < 1e15 {
		return fmt.Sprintf("%.0f", x)
	}
	return fmt.Sprintf("%.3g", x)
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
