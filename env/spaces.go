package env

import "math"

// Box is a continuous space: every element i lies in [Low[i], High[i]].
// Shape is the array's shape ([n] for a vector); every bound is finite.
type Box struct {
	Low, High []float32
	Shape     []int
}

// Contains reports whether x has the box's size, is finite and lies inside.
func (b Box) Contains(x []float32) bool {
	if len(x) != len(b.Low) {
		return false
	}
	for i, v := range x {
		if math.IsNaN(float64(v)) || v < b.Low[i] || v > b.High[i] {
			return false
		}
	}
	return true
}

func (b Box) clone() Box {
	return Box{Low: append([]float32(nil), b.Low...), High: append([]float32(nil), b.High...), Shape: append([]int(nil), b.Shape...)}
}

// Bounds used where a feature has no natural limit. They are finite because
// some space checkers reject infinite bounds.
const (
	bigCount = 1e9 // counts, seconds, hours
	bigRatio = 1e6 // shares of capacity that may exceed 1
)

// Indices of the fixed cluster features (see the package doc).
const (
	fTimeH = iota
	fVCoresG
	fVCoresO
	fCPUUsed
	fMemReserved
	fMemUsed
	fCPUGap
	fMemGap
	fPendingAM
	fPendingMap
	fPendingReduce
	fPendingExecutor
	fPendingOther
	fJobsWaiting
	fJobsRunning
	fAMsRunning
	fTasksKilled
	fWastedS
	fJobsCompleted
	fSwapFrac
	numBase
)

type feature struct {
	name      string
	low, high float64
}

// baseFeatures is the fixed part of the observation. cpu_used's upper bound
// is raised per cluster when nodes have more physical cores than vCores.
var baseFeatures = [numBase]feature{
	fTimeH:           {"time_h", 0, bigCount},
	fVCoresG:         {"vcores_guaranteed", 0, 1},
	fVCoresO:         {"vcores_opportunistic", 0, bigRatio},
	fCPUUsed:         {"cpu_used", 0, 1},
	fMemReserved:     {"mem_reserved", 0, bigRatio},
	fMemUsed:         {"mem_used", 0, bigRatio},
	fCPUGap:          {"cpu_gap", -bigRatio, bigRatio},
	fMemGap:          {"mem_gap", -bigRatio, bigRatio},
	fPendingAM:       {"pending_am", 0, bigCount},
	fPendingMap:      {"pending_map", 0, bigCount},
	fPendingReduce:   {"pending_reduce", 0, bigCount},
	fPendingExecutor: {"pending_executor", 0, bigCount},
	fPendingOther:    {"pending_other", 0, bigCount},
	fJobsWaiting:     {"jobs_waiting", 0, bigCount},
	fJobsRunning:     {"jobs_running", 0, bigCount},
	fAMsRunning:      {"ams_running", 0, bigCount},
	fTasksKilled:     {"tasks_killed", 0, bigCount},
	fWastedS:         {"wasted_s", 0, bigCount},
	fJobsCompleted:   {"jobs_completed", 0, bigCount},
	fSwapFrac:        {"swap_frac", 0, 1},
}

// ObservationSpace returns the observation's space (a copy).
func (e *Env) ObservationSpace() Box { return e.obsSpace.clone() }

// ActionSpace returns the action's space (a copy): the controlled
// parameters' ranges, in Config.Controlled order; shape [0] when no
// parameter is controlled.
func (e *Env) ActionSpace() Box { return e.actSpace.clone() }

// FeatureNames returns the observation's entry names in order (a copy):
// the fixed cluster features, then "policy.NAME" per policy state variable,
// then "param.NAME" per controlled parameter (see the package doc).
func (e *Env) FeatureNames() []string { return append([]string(nil), e.names...) }

// ObsDim is the observation's length.
func (e *Env) ObsDim() int { return len(e.names) }

// ActDim is the action's length.
func (e *Env) ActDim() int { return len(e.ctrl) }
