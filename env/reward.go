package env

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"yarngym/env/sim"
)

// Objective indices, in the order of Objectives().
const (
	objSlowdown = iota
	objCompletion
	objUtilization
	objKills
	objWasted
	objThroughput
	numObjectives
)

var objectiveNames = [numObjectives]string{
	objSlowdown:    "slowdown",
	objCompletion:  "completion",
	objUtilization: "utilization",
	objKills:       "kills",
	objWasted:      "wasted",
	objThroughput:  "throughput",
}

// Objectives returns the names of the reward objectives (see the package
// doc for their definitions).
func Objectives() []string { return append([]string(nil), objectiveNames[:]...) }

// parseReward turns Config.Reward into per-objective weights.
func parseReward(m map[string]float64) ([numObjectives]float64, error) {
	var w [numObjectives]float64
	if len(m) == 0 {
		w[objSlowdown] = 1
		return w, nil
	}
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		i := objectiveIndex(k)
		if i < 0 {
			return w, fmt.Errorf("reward: unknown objective %q (known: %s)", k, strings.Join(objectiveNames[:], ", "))
		}
		v := m[k]
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return w, fmt.Errorf("reward: objective %q has weight %v, want a finite number", k, v)
		}
		w[i] = v
	}
	return w, nil
}

func objectiveIndex(name string) int {
	for i, n := range objectiveNames {
		if n == name {
			return i
		}
	}
	return -1
}

// Info is what a Reset or Step reports besides the observation. The counts
// are the episode's totals so far; the objective fields are this step's
// values with the sign they enter the reward (0 after Reset).
type Info struct {
	// Seed is the episode's seed; Step counts the steps taken in it.
	Seed uint64
	Step int
	// SimTimeS is the simulated time, seconds.
	SimTimeS      float64
	JobsCompleted int
	JobsStuck     int
	TasksKilled   int64
	// Events is the number of simulated events processed so far.
	Events int64

	Slowdown    float64
	Completion  float64
	Utilization float64
	Kills       float64
	Wasted      float64
	Throughput  float64
}

// Objective returns this step's value of the named objective.
func (in Info) Objective(name string) (float64, bool) {
	switch objectiveIndex(name) {
	case objSlowdown:
		return in.Slowdown, true
	case objCompletion:
		return in.Completion, true
	case objUtilization:
		return in.Utilization, true
	case objKills:
		return in.Kills, true
	case objWasted:
		return in.Wasted, true
	case objThroughput:
		return in.Throughput, true
	}
	return 0, false
}

func (in *Info) setObjectives(o *[numObjectives]float64) {
	in.Slowdown = o[objSlowdown]
	in.Completion = o[objCompletion]
	in.Utilization = o[objUtilization]
	in.Kills = o[objKills]
	in.Wasted = o[objWasted]
	in.Throughput = o[objThroughput]
}

// isolatedMs estimates how long job j would take alone on an idle cluster:
// the AM's start-up (if it has an AM) plus, per stage, its longest nominal
// task duration, floored at one second.
func isolatedMs(j *sim.Job, amStartupMs sim.Ms) float64 {
	var t sim.Ms
	if j.AM != nil {
		t += amStartupMs
	}
	for i := range j.Spec.Stages {
		var longest sim.Ms
		for _, d := range j.Spec.Stages[i].DurationsMs {
			longest = max(longest, d)
		}
		t += longest
	}
	return float64(max(t, sim.MsPerS))
}
