package dress

import (
	"math"
	"slices"

	"yarngym/env/sim"
)

// Detect holds the thresholds of phase detection (Alg. 1-2).
type Detect struct {
	// PW is the phase window pw in ms.
	PW sim.Ms
	// Ts: more than Ts tasks starting within pw open a phase (Alg. 1 l. 11).
	Ts float64
	// Te: more than Te tasks of a phase finishing within pw mark the start
	// of its release, gamma (Alg. 2 l. 8).
	Te float64
}

// Phase is one detected phase p_j of a job: tasks that started together
// (Alg. 1) and, once more than t_e of them finish within a window, release
// their containers (Alg. 2).
type Phase struct {
	PsF, PsL sim.Ms // start of the phase's first / last task (ps_jf, ps_jl)
	DeltaPs  sim.Ms // starting variation Delta ps_j = ps_jl - ps_jf
	C        float64
	// Releasing is E_pj: the phase has started finishing at Gamma.
	Releasing bool
	Gamma     sim.Ms
	// Trailed: the phase's remaining (trailing) tasks were counted into the
	// next phase (Alg. 2 l. 11-13).
	Trailed bool

	done bool // every task ended and no finish inside the window: nothing left to detect

	members []*member
	// What checkRelease counts, kept as the members end (they end in time
	// order) rather than counted over the members at every check: live
	// members (not ended; a phase checked has no carried member), the
	// finish times in order with the first one that may still lie inside
	// a window at lo, and the members that ended without finishing.
	live     int
	finishes []sim.Ms
	lo       int
	unfin    int
}

// member is one task the tracker has seen start.
type member struct {
	id      int32
	units   float64
	start   sim.Ms
	finish  sim.Ms // -1 while running
	ended   bool   // finished or killed
	carried bool   // trailing task counted into the next phase
	phase   *Phase // the phase it was last counted into (nil before one)
}

type point struct {
	at sim.Ms
	n  int
}

// Tracker follows one job's tasks (AMs excluded) and finds its phases.
//
// Reference: DRESS Sec. IV-A, Alg. 1 (starting variation) and Sec. IV-B,
// Alg. 2 (starting release time). RT(t) is the job's number of running
// tasks; when it grew by more than t_s over the last pw, a phase has started
// at the earliest start among the running tasks not yet in a phase (ps_jf);
// when RT(t) did not change over pw, the phase's last task has started
// (ps_jl = the latest start) and the phase closes with the tasks started
// since. A closed phase starts releasing (gamma) once more than t_e of its
// tasks finished within pw; gamma is the earliest finish among those
// (reading "t_e filters out heading tasks": a lone early finisher does not
// set gamma). If it then finishes none over pw while tasks still run, those
// are trailing tasks and count into the next phase.
type Tracker struct {
	cfg *Detect

	alpha   sim.Ms // first task start (alpha_i), -1 before
	rt      int
	rtHist  []point // RT after each change; one point at or before now-pw kept
	byID    map[int32]*member
	pending []*member // started since the last phase closed
	open    bool
	psF     sim.Ms
	carried []*member // trailing tasks waiting for the next phase
	phases  []*Phase
}

// NewTracker returns an empty tracker using cfg's thresholds.
func NewTracker(cfg *Detect) *Tracker {
	return &Tracker{cfg: cfg, alpha: -1, byID: map[int32]*member{}}
}

// Phases returns the phases found so far, in order.
func (tr *Tracker) Phases() []*Phase { return tr.phases }

// Alpha returns the job's first task start, or -1.
func (tr *Tracker) Alpha() sim.Ms { return tr.alpha }

// Running returns RT(now), the job's running tasks.
func (tr *Tracker) Running() int { return tr.rt }

// Started records task id (holding units containers) starting at now
// (Alg. 1 l. 4-10).
func (tr *Tracker) Started(id int32, units float64, now sim.Ms) {
	if tr.alpha < 0 {
		tr.alpha = now
	}
	m := &member{id: id, units: units, start: now, finish: -1}
	tr.byID[id] = m
	tr.pending = append(tr.pending, m)
	tr.setRT(now, tr.rt+1)
}

// Rebound moves the tasks from[i]'s records to to[i] (sim.Rebinder: the
// AM ran another map in the container): the tasks are the same phase's. A
// from of -1 starts to (a container given beyond the maps now runs it); a
// to of -1 drops from (its container is left without a map: it never ran).
func (tr *Tracker) Rebound(from, to []int32, now sim.Ms, units func(id int32) float64) {
	ms := make([]*member, len(from))
	for i, id := range from {
		if id >= 0 {
			ms[i] = tr.byID[id]
			delete(tr.byID, id)
		}
	}
	for i, m := range ms {
		switch {
		case m == nil && to[i] >= 0 && from[i] < 0:
			tr.Started(to[i], units(to[i]), now)
		case m != nil && to[i] >= 0:
			m.id = to[i]
			tr.byID[to[i]] = m
		case m != nil:
			m.ended = true // left without running: not a finished task
			m.phase.ended(m)
			tr.setRT(now, tr.rt-1)
		}
	}
}

// Ended records task id finishing (finished) or being killed at now (Alg. 2
// l. 4-7). A killed task leaves its phase without counting as completed.
func (tr *Tracker) Ended(id int32, finished bool, now sim.Ms) {
	m := tr.byID[id]
	if m == nil || m.ended {
		return
	}
	delete(tr.byID, id)
	m.ended = true
	if finished {
		m.finish = now
	}
	m.phase.ended(m)
	tr.setRT(now, tr.rt-1)
}

// ended counts member m's end into p's counts (p nil: m is in no phase yet).
func (p *Phase) ended(m *member) {
	if p == nil {
		return
	}
	p.live--
	if m.finish >= 0 {
		p.finishes = append(p.finishes, m.finish)
	} else {
		p.unfin++
	}
}

func (tr *Tracker) setRT(now sim.Ms, n int) {
	tr.rt = n
	if k := len(tr.rtHist); k > 0 && tr.rtHist[k-1].at == now {
		tr.rtHist[k-1].n = n
	} else {
		tr.rtHist = append(tr.rtHist, point{now, n})
	}
}

// rtAt returns RT(at) for at >= the oldest point kept (0 before alpha).
func (tr *Tracker) rtAt(at sim.Ms) int {
	n := 0
	for _, p := range tr.rtHist {
		if p.at > at {
			break
		}
		n = p.n
	}
	return n
}

// prune drops history that no window ending at or after now can need.
func (tr *Tracker) prune(now sim.Ms) {
	cut := now - tr.cfg.PW
	i := 0
	for i+1 < len(tr.rtHist) && tr.rtHist[i+1].at <= cut {
		i++
	}
	if i > 0 {
		tr.rtHist = append(tr.rtHist[:0], tr.rtHist[i:]...)
	}
	if !tr.open && len(tr.pending) > 0 {
		// Tasks that started and ended outside any phase are forgotten.
		k := 0
		for _, m := range tr.pending {
			if !m.ended {
				tr.pending[k] = m
				k++
			}
		}
		clear(tr.pending[k:])
		tr.pending = tr.pending[:k]
	}
}

// Check runs the window tests of Alg. 1 and Alg. 2 at time now. Call it at
// every task start and end of the job and periodically; calls must come in
// time order.
func (tr *Tracker) Check(now sim.Ms) {
	inc := tr.rt - tr.rtAt(now-tr.cfg.PW)
	switch {
	case float64(inc) > tr.cfg.Ts && !tr.open: // Alg. 1 l. 11-13
		if first, ok := minStart(tr.pending, true); ok {
			tr.open, tr.psF = true, first
		}
	case tr.open && inc == 0: // Alg. 1 l. 14-17
		tr.closePhase()
	}
	for _, p := range tr.phases {
		tr.checkRelease(p, now)
	}
	tr.prune(now)
}

// closePhase closes the open phase with the tasks started since the last
// one (and the trailing tasks carried over).
func (tr *Tracker) closePhase() {
	last, ok := maxStart(tr.pending, true)
	if !ok {
		last, _ = maxStart(tr.pending, false)
	}
	p := &Phase{PsF: tr.psF, PsL: last}
	if p.PsL < p.PsF {
		p.PsL = p.PsF
	}
	p.DeltaPs = p.PsL - p.PsF
	p.members = append(append(p.members, tr.pending...), tr.carried...)
	for _, m := range p.members {
		p.C += m.units
		m.carried = false
		m.phase = p
		switch {
		case !m.ended:
			p.live++
		case m.finish >= 0:
			p.finishes = append(p.finishes, m.finish)
		default:
			p.unfin++
		}
	}
	slices.Sort(p.finishes) // those that ended before the phase closed
	tr.phases = append(tr.phases, p)
	tr.pending, tr.carried = nil, nil
	tr.open = false
}

// checkRelease is Alg. 2 for phase p at time now.
func (tr *Tracker) checkRelease(p *Phase, now sim.Ms) {
	if p.Trailed || p.done {
		return
	}
	running, ct, first := p.counts(now - tr.cfg.PW)
	if running == 0 && ct == 0 {
		p.done = true
	}
	switch {
	case float64(ct) > tr.cfg.Te: // l. 8-10
		if !p.Releasing {
			p.Releasing, p.Gamma = true, first
		}
	case p.Releasing && ct == 0 && running > 0: // l. 11-13: trailing tasks
		p.Trailed = true
		for _, m := range p.members {
			if !m.ended {
				m.carried = true
				tr.carried = append(tr.carried, m)
			}
		}
	}
}

// counts returns p's tasks still running and those that finished inside
// the window (from, now], with the earliest such finish: every finish so
// far is at or before now, and from only grows from one check to the next.
// An ended task that did not finish has finish -1, inside the window while
// the window reaches below 0.
func (p *Phase) counts(from sim.Ms) (running, ct int, first sim.Ms) {
	for p.lo < len(p.finishes) && p.finishes[p.lo] <= from {
		p.lo++
	}
	ct, first = len(p.finishes)-p.lo, sim.Ms(math.MaxInt64)
	if ct > 0 {
		first = p.finishes[p.lo]
	}
	if from < -1 && p.unfin > 0 {
		ct += p.unfin
		first = -1
	}
	return p.live, ct, first
}

// held returns the containers p's tasks still hold (carried ones excluded).
func (p *Phase) held() float64 {
	h := 0.0
	for _, m := range p.members {
		if !m.ended && !m.carried {
			h += m.units
		}
	}
	return h
}

// Release predicts the containers the job's phases release in (from, to]:
// Eq. 3's linear release of each releasing phase, less what it has already
// released, at most what the phase still holds.
func (tr *Tracker) Release(from, to sim.Ms) float64 {
	sum := 0.0
	for _, p := range tr.phases {
		if !p.Releasing || p.Trailed {
			continue
		}
		inc := Released(to, p.Gamma, p.DeltaPs, p.C) - Released(from, p.Gamma, p.DeltaPs, p.C)
		sum += min(inc, p.held())
	}
	return sum
}

// PhaseRelease is Eq. 3: the release pattern p_j(t) of a phase holding c
// containers that starts releasing at gamma and releases them linearly over
// its starting variation dps: 0 before gamma, (t - gamma)/dps x c inside the
// window, 0 after it (the containers are back among the available ones).
//
// Reference: DRESS Sec. III-B, Eq. 3.
func PhaseRelease(t, gamma, dps sim.Ms, c float64) float64 {
	if t < gamma || t > gamma+dps || dps <= 0 {
		return 0
	}
	return float64(t-gamma) / float64(dps) * c
}

// Released is Eq. 3 read as a cumulative release: how many of the phase's c
// containers it has released by time t (c after the window; with dps = 0 all
// at gamma). Predictions use its increase over the next interval.
func Released(t, gamma, dps sim.Ms, c float64) float64 {
	switch {
	case t < gamma:
		return 0
	case dps <= 0 || t >= gamma+dps:
		return c
	}
	return float64(t-gamma) / float64(dps) * c
}

// JobRelease is Eq. 2: f_i(t), the sum of the job's phase patterns for t in
// [alpha_i, beta_i], 0 outside (beta < 0: not finished).
//
// Reference: DRESS Sec. III-B, Eq. 2.
func JobRelease(t, alpha, beta sim.Ms, phases []*Phase) float64 {
	if alpha < 0 || t < alpha || (beta >= 0 && t > beta) {
		return 0
	}
	sum := 0.0
	for _, p := range phases {
		if p.Releasing {
			sum += PhaseRelease(t, p.Gamma, p.DeltaPs, p.C)
		}
	}
	return sum
}

func minStart(ms []*member, runningOnly bool) (sim.Ms, bool) {
	best, ok := sim.Ms(math.MaxInt64), false
	for _, m := range ms {
		if !runningOnly || !m.ended {
			best, ok = min(best, m.start), true
		}
	}
	return best, ok
}

func maxStart(ms []*member, runningOnly bool) (sim.Ms, bool) {
	best, ok := sim.Ms(math.MinInt64), false
	for _, m := range ms {
		if !runningOnly || !m.ended {
			best, ok = max(best, m.start), true
		}
	}
	return best, ok
}
