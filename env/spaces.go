package env

import (
	"math"
	"slices"
)

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

// Indices of the fixed cluster features (see the package doc).
const (
	fTimeFrac = iota
	fSinceArrival
	fArrived
	fDone
	fWaiting
	fRunning
	fVCoresG
	fVCoresO
	fCPUUsed
	fMemReserved
	fMemUsed
	fCPUGap
	fMemGap
	fAMVCores
	fPendingAM
	fPendingMap
	fPendingReduce
	fPendingExecutor
	fPendingOther
	fKillRate
	fWasteRate
	fCompletedRate
	fSwapFrac
	numBase
)

type feature struct {
	name      string
	low, high float64
}

// Caps of the features that have no natural bound: a share of capacity
// that may pass 1 is clipped at shareCap, a log1p-scaled quantity at
// logCap (log1p(x) = 8 at x ~ 2980).
const (
	shareCap = 2.0
	logCap   = 8.0
)

// baseFeatures is the fixed part of the observation. cpu_used's upper bound
// is raised per cluster when nodes have more physical cores than vCores.
var baseFeatures = [numBase]feature{
	fTimeFrac:        {"time_frac", 0, 1},
	fSinceArrival:    {"since_arrival_frac", 0, 1},
	fArrived:         {"jobs_arrived_frac", 0, 1},
	fDone:            {"jobs_done_frac", 0, 1},
	fWaiting:         {"jobs_waiting_frac", 0, 1},
	fRunning:         {"jobs_running_frac", 0, 1},
	fVCoresG:         {"vcores_guaranteed", 0, 1},
	fVCoresO:         {"vcores_opportunistic", 0, shareCap},
	fCPUUsed:         {"cpu_used", 0, 1},
	fMemReserved:     {"mem_reserved", 0, shareCap},
	fMemUsed:         {"mem_used", 0, shareCap},
	fCPUGap:          {"cpu_gap", -shareCap, shareCap},
	fMemGap:          {"mem_gap", -shareCap, shareCap},
	fAMVCores:        {"am_vcores", 0, 1},
	fPendingAM:       {"pending_am_log", 0, logCap},
	fPendingMap:      {"pending_map_log", 0, logCap},
	fPendingReduce:   {"pending_reduce_log", 0, logCap},
	fPendingExecutor: {"pending_executor_log", 0, logCap},
	fPendingOther:    {"pending_other_log", 0, logCap},
	fKillRate:        {"kills_log", 0, logCap},
	fWasteRate:       {"wasted_log", 0, logCap},
	fCompletedRate:   {"jobs_completed_frac", 0, 1},
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

// ActionBounds returns each controlled parameter's action range, [low[i],
// high[i]] (the policy's range or Config.Bounds), and whether it takes
// integers, in Config.Controlled order (copies).
func (e *Env) ActionBounds() (low, high []float64, integer []bool) {
	return slices.Clone(e.ctrlMin), slices.Clone(e.ctrlMax), slices.Clone(e.ctrlInt)
}

// ActionNames returns the controlled parameters in action order (a copy).
func (e *Env) ActionNames() []string { return slices.Clone(e.ctrlNames) }
