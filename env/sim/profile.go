package sim

import "fmt"

// Phase is one sub-phase of a task's life. Its work is Frac of the task's
// nominal duration (the time it takes alone on a speed-1 node with local data).
// While in the phase the task uses CPU x its requested vCores, Mem x its
// requested memory and IOMBps of disk bandwidth (or, in an Absolute profile,
// CPU cores and Mem MB), each moved by the profile's seeded fluctuation at
// every usage sample.
type Phase struct {
	Name   string
	Frac   float64
	CPU    float64
	Mem    float64
	IOMBps float64
	// Wall phases take WallMs of simulated time whatever the contention (a
	// Spark executor's interactive idle period, a sleep); Frac is ignored.
	Wall   bool
	WallMs Ms
	// Read phases read the task's input block: remote reads slow them by the
	// model's locality factors.
	Read bool
	// Shuffle phases (MapReduce reducers) fetch map outputs: progress cannot
	// pass the fraction of the job's maps that have finished, so a reducer
	// started early idles at low usage while it waits (slow-start).
	Shuffle bool
	// Spill phases sort and write output through an in-memory buffer sized
	// with the container (io.sort.mb inside the task's heap): a container
	// launched with a fraction f of its memory request (Sim.LaunchShrunk)
	// spills 1/f times as often, so the phase runs at f of its speed.
	Spill bool
}

// Profile is the usage shape of a kind of task: sub-phases in order, plus the
// relative standard deviation of the fluctuation applied to every usage level.
type Profile struct {
	Name   string
	Phases []Phase
	Jitter float64
	// Absolute profiles give CPU in cores and Mem in MB instead of shares of
	// the request (RAS Table 2 profiles usage per TaskTracker, not per slot).
	Absolute bool
}

// Validate checks that the phases cover the task's work exactly once.
func (p *Profile) Validate() error {
	if len(p.Phases) == 0 {
		return fmt.Errorf("profile %q has no phases", p.Name)
	}
	sum := 0.0
	for _, ph := range p.Phases {
		if ph.Frac < 0 || ph.CPU < 0 || ph.Mem < 0 || ph.IOMBps < 0 {
			return fmt.Errorf("profile %q phase %q has a negative value", p.Name, ph.Name)
		}
		if ph.Mem > 1 && !p.Absolute {
			return fmt.Errorf("profile %q phase %q uses more memory than requested (%.2f > 1): YARN would kill it", p.Name, ph.Name, ph.Mem)
		}
		if ph.Wall {
			if ph.WallMs < 0 || ph.Frac != 0 {
				return fmt.Errorf("profile %q wall phase %q needs a non-negative WallMs and no Frac", p.Name, ph.Name)
			}
			continue
		}
		sum += ph.Frac
	}
	if sum < 0.999 || sum > 1.001 {
		return fmt.Errorf("profile %q phase fractions sum to %.3f, want 1", p.Name, sum)
	}
	if p.Jitter < 0 || p.Jitter > 1 {
		return fmt.Errorf("profile %q jitter %.2f out of [0, 1]", p.Name, p.Jitter)
	}
	return nil
}

// The default profiles are shaped on the measured task curves of Apache
// Hadoop's SLS sample trace (data/traces/hadoop-sls, 192 TeraGen map
// attempts with 12-point cpuUsages / physMemKbytes curves over their progress).
// See profiles_default.go for the figures and how they were derived.
