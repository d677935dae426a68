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

// objectiveDef describes one objective: its name, the sign with which its
// episode value enters the return (-1: a cost, +1: a benefit), whether a
// stalled cluster is its worst outcome, and its unit.
type objectiveDef struct {
	name       string
	sign       float64
	stallSafe  bool
	valueName  string // the episode value's name in Info
	valueUnits string
}

var objectives = [numObjectives]objectiveDef{
	objSlowdown:    {"slowdown", -1, true, "episode_slowdown", "mean job slowdown"},
	objCompletion:  {"completion", -1, true, "episode_completion_s", "mean job completion time, s"},
	objUtilization: {"utilization", +1, true, "episode_utilization", "mean CPU used / vCores over the horizon"},
	objKills:       {"kills", -1, false, "episode_kills", "task attempts killed per job"},
	objWasted:      {"wasted", -1, false, "episode_wasted_s", "work lost to kills per job, s"},
	objThroughput:  {"throughput", +1, true, "episode_throughput", "share of the jobs finished within the horizon"},
}

// Objectives returns the names of the reward objectives (see the package
// doc for their definitions).
func Objectives() []string {
	out := make([]string, numObjectives)
	for i, o := range objectives {
		out[i] = o.name
	}
	return out
}

// StallSafe reports whether a stalled cluster is objective name's worst
// outcome (false for kills and wasted, which a cluster that does nothing
// keeps at zero), and whether name is an objective at all.
func StallSafe(name string) (safe, ok bool) {
	i := objectiveIndex(name)
	if i < 0 {
		return false, false
	}
	return objectives[i].stallSafe, true
}

// parseReward turns Config.Reward into per-objective weights. Weights are
// finite and non-negative (a negative weight would reward what the
// objective measures as bad), and at least one stall-safe objective has a
// positive weight, so that no action earns a good return by stalling the
// cluster.
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
	safe := false
	for _, k := range names {
		i := objectiveIndex(k)
		if i < 0 {
			return w, fmt.Errorf("reward: unknown objective %q (known: %s)", k, strings.Join(Objectives(), ", "))
		}
		v := m[k]
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return w, fmt.Errorf("reward: objective %q has weight %v, want a finite number >= 0 (every objective is already signed so that more reward is better)", k, v)
		}
		w[i] = v
		safe = safe || (v > 0 && objectives[i].stallSafe)
	}
	if !safe {
		return w, fmt.Errorf("reward: %s: no objective a stalled cluster does worst on has a positive weight; kills and wasted are zero when nothing runs, so mix them with slowdown, completion, utilization or throughput", strings.Join(names, ", "))
	}
	return w, nil
}

func objectiveIndex(name string) int {
	for i, o := range objectives {
		if o.name == name {
			return i
		}
	}
	return -1
}

// IsolatedMs estimates how long a job would take alone on an idle cluster
// of capacity cap at nominal speed (sim.IsolatedMs): a slowdown's
// denominator. It is a lower bound of the job's isolated run time up to
// what it ignores (overlapping stages: reducers' slow-start; nodes faster
// than nominal), so a slowdown can dip slightly below 1.
func IsolatedMs(j *sim.JobSpec, amStartupMs sim.Ms, cap sim.Res) float64 {
	return sim.IsolatedMs(j, amStartupMs, cap)
}

// ledger charges each step for what happened in it, so that the rewards of
// an episode add up to its objectives exactly (see the package doc,
// "Rewards"). Job j is in the system over [submit_j, finish_j); the ledger
// keeps the jobs that were in it at the end of the last step (open) and
// takes in arrivals by submission time.
type ledger struct {
	horizonMs sim.Ms
	n         float64   // jobs submitted before the horizon (at least 1)
	inv       []float64 // 1 / isolated ms, per job, in s.Jobs order
	open      []int32   // jobs in the system at prevMs, not finished
	next      int       // the first job not yet taken in (by submission)
	prevMs    sim.Ms
	capVMs    float64 // cluster vCores x horizon ms

	prevKilled   int64
	prevWastedMs sim.Ms
	prevUsed     float64

	// total is the episode so far, per objective, in the objective's own
	// sign (a cost positive).
	total [numObjectives]float64
}

// reset starts the ledger of a new episode on s.
func (l *ledger) reset(s *sim.Sim, horizonMs sim.Ms, capV float64) {
	l.horizonMs = horizonMs
	l.capVMs = capV * float64(horizonMs)
	m := s.Model()
	cap := s.Capacity()
	n := 0
	l.inv = l.inv[:0]
	for _, j := range s.Jobs {
		l.inv = append(l.inv, 1/IsolatedMs(j.Spec, j.Spec.StartupMs(m), cap))
		if j.Spec.SubmitMs < horizonMs {
			n++
		}
	}
	l.n = float64(max(n, 1))
	l.open = l.open[:0]
	l.next = 0
	l.prevMs = 0
	l.prevKilled, l.prevWastedMs, l.prevUsed = 0, 0, 0
	l.total = [numObjectives]float64{}
}

// charge measures [prevMs, now) and returns each objective's increment in
// its own sign (a cost positive), and the jobs that finished. If ended, it
// also charges every unfinished job submitted before the horizon from
// max(now, its submission) to the horizon.
func (l *ledger) charge(s *sim.Sim, killed int64, wastedMs sim.Ms, ended bool) (d [numObjectives]float64, finished int) {
	now := s.Now()
	jobs := s.Jobs
	var inSys, inSysW float64 // job-ms in the system, and weighted by 1/isolated
	keep := l.open[:0]
	for _, id := range l.open {
		j := jobs[id]
		end := now
		done := j.State == sim.JobDone
		if done {
			end = j.FinishMs
		}
		dt := float64(end - l.prevMs)
		inSys += dt
		inSysW += dt * l.inv[id]
		if done {
			finished++
		} else {
			keep = append(keep, id)
		}
	}
	l.open = keep
	for ; l.next < len(jobs) && jobs[l.next].Spec.SubmitMs < now; l.next++ {
		j := jobs[l.next]
		end := now
		done := j.State == sim.JobDone
		if done {
			end = j.FinishMs
		}
		dt := float64(end - j.Spec.SubmitMs)
		inSys += dt
		inSysW += dt * l.inv[l.next]
		if done {
			finished++
		} else {
			l.open = append(l.open, int32(l.next))
		}
	}
	if ended {
		// Charge the unfinished up to the horizon: a stall costs every job
		// still in (or yet to enter) the system the whole rest of it.
		for _, id := range l.open {
			dt := float64(l.horizonMs - now)
			inSys += dt
			inSysW += dt * l.inv[id]
		}
		for i := l.next; i < len(jobs) && jobs[i].Spec.SubmitMs < l.horizonMs; i++ {
			dt := float64(l.horizonMs - max(now, jobs[i].Spec.SubmitMs))
			inSys += dt
			inSysW += dt * l.inv[i]
		}
	}
	used := s.UsedVCoreMs()
	d[objSlowdown] = inSysW / l.n
	d[objCompletion] = inSys / 1000 / l.n
	d[objUtilization] = (used - l.prevUsed) / l.capVMs
	d[objKills] = float64(killed-l.prevKilled) / l.n
	d[objWasted] = float64(wastedMs-l.prevWastedMs) / 1000 / l.n
	d[objThroughput] = float64(finished) / l.n
	for i := range d {
		l.total[i] += d[i]
	}
	l.prevMs, l.prevKilled, l.prevWastedMs, l.prevUsed = now, killed, wastedMs, used
	return d, finished
}

// Info is what a Reset or Step reports besides the observation.
type Info struct {
	// Seed is the episode's seed; Step counts the steps taken in it.
	Seed uint64
	Step int
	// SimTimeS is the simulated time, seconds; HorizonS the episode's
	// horizon (see Config.HorizonS).
	SimTimeS      float64
	HorizonS      float64
	JobsCompleted int
	JobsStuck     int
	TasksKilled   int64
	// Events is the number of simulated events processed so far.
	Events int64

	// This step's objective terms, with the sign they enter the reward (0
	// after Reset): a step's reward is sum over Config.Reward of weight x
	// term.
	Slowdown    float64
	Completion  float64
	Utilization float64
	Kills       float64
	Wasted      float64
	Throughput  float64

	// Return is the sum of the episode's rewards so far: at the episode's
	// end, its return, which equals the weighted objective.
	Return float64
	// Ended is set on the step that ends the episode; the Episode* values
	// are then the episode's objectives in their own units and sign (see
	// the package doc), and 0 before.
	Ended              bool
	EpisodeSlowdown    float64
	EpisodeCompletionS float64
	EpisodeUtilization float64
	EpisodeKills       float64
	EpisodeWastedS     float64
	EpisodeThroughput  float64
}

// Objective returns this step's term of the named objective, as it enters
// the reward.
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

// Episode returns the named objective's episode value in its own units
// (a cost positive), set when the episode has ended.
func (in Info) Episode(name string) (float64, bool) {
	switch objectiveIndex(name) {
	case objSlowdown:
		return in.EpisodeSlowdown, true
	case objCompletion:
		return in.EpisodeCompletionS, true
	case objUtilization:
		return in.EpisodeUtilization, true
	case objKills:
		return in.EpisodeKills, true
	case objWasted:
		return in.EpisodeWastedS, true
	case objThroughput:
		return in.EpisodeThroughput, true
	}
	return 0, false
}

// setStep records a step's increments d (in each objective's own sign) as
// reward terms.
func (in *Info) setStep(d *[numObjectives]float64) {
	in.Slowdown = objectives[objSlowdown].sign * d[objSlowdown]
	in.Completion = objectives[objCompletion].sign * d[objCompletion]
	in.Utilization = objectives[objUtilization].sign * d[objUtilization]
	in.Kills = objectives[objKills].sign * d[objKills]
	in.Wasted = objectives[objWasted].sign * d[objWasted]
	in.Throughput = objectives[objThroughput].sign * d[objThroughput]
}

// setEpisode records an ended episode's objectives.
func (in *Info) setEpisode(t *[numObjectives]float64) {
	in.Ended = true
	in.EpisodeSlowdown = t[objSlowdown]
	in.EpisodeCompletionS = t[objCompletion]
	in.EpisodeUtilization = t[objUtilization]
	in.EpisodeKills = t[objKills]
	in.EpisodeWastedS = t[objWasted]
	in.EpisodeThroughput = t[objThroughput]
}
