package sim

// How a run ends: progress marks, the stall and livelock checks, and the
// summary of a run that finished or stuck (split from sim.go, which keeps
// building and stepping the run).

import (
	"fmt"
	"math"
)

func (s *Sim) progress() { s.lastProgress = s.now }

// stalled reports whether no task is making progress (run only after
// StallMs without a start, finish or arrival).
func (s *Sim) stalled() bool {
	for _, n := range s.Nodes {
		for i, t := range n.Containers {
			if t.Kind != KindAM && n.slots[i].rate > 0 {
				s.progress()
				return false
			}
		}
	}
	return true
}

func (s *Sim) finish(stuck bool) {
	s.epoch++ // Epoch: containers, task states or the job lists change
	s.stats.Events += s.virtualEvents()
	s.ended = true
	s.stuck = stuck
	for _, n := range s.Nodes {
		s.advance(n)
		s.Unreserve(n) // the jobs below stop being admitted
		if len(n.releasing) > 0 {
			s.release(n)
		}
	}
	s.acct.integrate(s.now)
	for _, j := range s.Jobs {
		if j.State == JobDone {
			continue
		}
		if stuck {
			j.State = JobStuck
		} else {
			j.State = JobUnfinished
		}
		j.active = -1
	}
	// Every job is now done, stuck or unfinished: none waits or runs.
	s.waiting, s.active = nil, nil
	for _, j := range s.asking {
		j.asking = false
	}
	s.asking = nil
}

// stallSkipped makes the model's stall check at the skipped heartbeats of
// idle nodes before e: the check runs after every event, so a stall is
// declared at the first heartbeat more than StallMs after the last progress,
// whether or not the engine processes it. It reports whether it handled one
// (the run may have ended).
func (s *Sim) stallSkipped(e *event, until Ms) bool {
	if !s.idle.on || s.idle.count == 0 || s.arrived != len(s.Jobs) || s.jobsLeft == 0 {
		return false
	}
	th := s.lastProgress + s.cfg.StallMs
	if e.at <= th || !s.quiet() {
		return false // no skipped heartbeat after th comes first, or none is skipped
	}
	from := s.pos
	if from.at < th {
		from = pos{at: th, ord: math.MaxInt32}
	}
	v, ok := s.nextIdleBeat(from)
	if !ok || !v.before(e) || v.at >= until || (s.cfg.MaxMs > 0 && v.at > s.cfg.MaxMs) {
		return false
	}
	s.now = v.at
	s.pos = pos{at: v.at, ord: v.ord}
	if s.stalled() {
		s.stuckReason = s.stallReason()
		s.finish(true)
	}
	return true
}

// stallReason says why nothing runs: jobs the policy's admission refuses,
// AMs waiting for a container, and AMs that hold theirs while every task of
// their jobs waits (an AM deadlock, AutoAdmin Sec. 2.2).
func (s *Sim) stallReason() string {
	msg := fmt.Sprintf("stall: no task ran for %d s", s.cfg.StallMs/MsPerS)
	var amWaiting, amHolding int
	for _, j := range s.active {
		if j.AM == nil {
			continue
		}
		if j.AM.State == TaskPending {
			amWaiting++
		} else if j.Running == 1 && s.HasPending(j) {
			amHolding++
		}
	}
	if n := len(s.waiting); n > 0 {
		msg += fmt.Sprintf("; %d jobs refused admission by the policy", n)
	}
	if amHolding > 0 {
		msg += fmt.Sprintf("; %d AMs hold containers while their tasks wait", amHolding)
		if amWaiting > 0 {
			msg += fmt.Sprintf(" and %d AMs wait for one (AM deadlock)", amWaiting)
		}
	} else if amWaiting > 0 {
		msg += fmt.Sprintf("; %d AMs wait for a container", amWaiting)
	}
	return msg
}

// DefaultLivelockMs is Config.LivelockMs's default.
const DefaultLivelockMs = 24 * 3600 * MsPerS

// livelockReason says why the run is declared stuck with tasks still
// running: nothing finished for LivelockMs, and the unfinished task with the
// most attempts (a task killed and started again without end).
func (s *Sim) livelockReason() string {
	msg := fmt.Sprintf("livelock: no task finished and no job ended for %d s", s.cfg.LivelockMs/MsPerS)
	var worst *Task
	for _, j := range s.active {
		if j.AM != nil && j.AM.State != TaskDone && (worst == nil || j.AM.Attempt > worst.Attempt) {
			worst = j.AM
		}
		for _, st := range j.Stages {
			for _, t := range st.Tasks {
				if t.State != TaskDone && (worst == nil || t.Attempt > worst.Attempt) {
					worst = t
				}
			}
		}
	}
	if worst != nil && worst.Attempt > 0 {
		msg += fmt.Sprintf("; %s was killed %d times", worst, worst.Attempt)
	}
	return msg
}

// StuckReason says why the run ended with jobs stuck ("" if it did not).
func (s *Sim) StuckReason() string { return s.stuckReason }
