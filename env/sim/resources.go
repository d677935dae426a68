package sim

import "fmt"

// Ms is simulated time or a duration in integer milliseconds.
type Ms = int64

// MsPerS converts seconds to Ms.
const MsPerS Ms = 1000

// Res is a guaranteed quantity of resources: a container request or a node
// capacity. Integer units keep "allocations never exceed capacity" exact.
type Res struct {
	VCores int64
	MemMB  int64
}

// Add returns r + o.
func (r Res) Add(o Res) Res { return Res{r.VCores + o.VCores, r.MemMB + o.MemMB} }

// Sub returns r - o.
func (r Res) Sub(o Res) Res { return Res{r.VCores - o.VCores, r.MemMB - o.MemMB} }

// Fits reports whether r fits inside avail in every dimension.
func (r Res) Fits(avail Res) bool { return r.VCores <= avail.VCores && r.MemMB <= avail.MemMB }

// Calculator is how a scheduler compares resources, Hadoop's
// ResourceCalculator: whether a request fits a node's free resources.
type Calculator uint8

const (
	// EveryResource: a request fits when each of its resources fits
	// (Resources.fitsIn; what the FairScheduler checks, and the
	// CapacityScheduler with the DominantResourceCalculator).
	EveryResource Calculator = iota
	// MemoryOnly: a request fits when its memory fits; vCores are not
	// compared and a node's may be over-committed (the CapacityScheduler's
	// default DefaultResourceCalculator: yarn.scheduler.capacity.
	// resource-calculator).
	MemoryOnly
)

// Fits reports whether r fits inside avail as c compares them.
func (c Calculator) Fits(r, avail Res) bool {
	if c == MemoryOnly {
		return r.MemMB <= avail.MemMB
	}
	return r.Fits(avail)
}

func (c Calculator) String() string {
	if c == MemoryOnly {
		return "memory only (DefaultResourceCalculator)"
	}
	return "every resource"
}

// Normalization is how a scheduler rounds a container request before it
// compares or books it (AbstractYarnScheduler.getNormalizedResource): each
// resource up to at least Min, then up to a multiple of Step. Both of
// Hadoop's schedulers round memory to a multiple of 1024 MB at their
// defaults (the FairScheduler's increment-allocation, the
// CapacityScheduler's minimum-allocation) with at least one vCore. The zero
// value leaves requests as they are.
type Normalization struct {
	Min, Step Res
}

// Apply returns r rounded.
func (z Normalization) Apply(r Res) Res {
	return Res{VCores: roundUp(max(r.VCores, z.Min.VCores), z.Step.VCores), MemMB: roundUp(max(r.MemMB, z.Min.MemMB), z.Step.MemMB)}
}

func roundUp(x, step int64) int64 {
	if step <= 0 || x%step == 0 {
		return x
	}
	return (x/step + 1) * step
}

// IsZero reports whether r requests nothing.
func (r Res) IsZero() bool { return r.VCores == 0 && r.MemMB == 0 }

// Max returns the per-dimension maximum.
func (r Res) Max(o Res) Res {
	if o.VCores > r.VCores {
		r.VCores = o.VCores
	}
	if o.MemMB > r.MemMB {
		r.MemMB = o.MemMB
	}
	return r
}

func (r Res) String() string { return fmt.Sprintf("<%d vCores, %d MB>", r.VCores, r.MemMB) }

// Usage is what tasks actually use at an instant: CPU in cores, memory in MB,
// disk IO in MB/s. It moves over a task's life and is usually below the
// request (the gap OPERA exploits).
type Usage struct {
	CPU    float64
	MemMB  float64
	IOMBps float64
}

func (u Usage) add(o Usage) Usage {
	return Usage{u.CPU + o.CPU, u.MemMB + o.MemMB, u.IOMBps + o.IOMBps}
}
func (u Usage) sub(o Usage) Usage {
	return Usage{u.CPU - o.CPU, u.MemMB - o.MemMB, u.IOMBps - o.IOMBps}
}

// Ratio is a over b as c compares them (ResourceCalculator.ratio): memory
// over memory for MemoryOnly, the largest per-resource ratio for
// EveryResource (DominantResourceCalculator). Computed in float32 as
// Hadoop's.
func (c Calculator) Ratio(a, b Res) float32 {
	mem := float32(a.MemMB) / float32(b.MemMB)
	if c == MemoryOnly {
		return mem
	}
	return max(mem, float32(a.VCores)/float32(b.VCores))
}
