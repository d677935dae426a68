package ikayak

import (
	"math"

	"yarngym/env/sim"
)

// Regressor layout x = [y(t-1), y(t-2), u(t), u(t-1), d, 1]: n_y = 2 lagged
// outputs and n_u = 1 lagged input besides u(t) (Eq. 2; the paper does not
// give n_y and n_u: assumed), the job's input size d and the offset theta_j.
const nx = 6

// Rule classes: a reducer idling in shuffle for map outputs, then the
// ReduceProfile's phases (shuffle, merge, reduce). Later phases of custom
// profiles share the last class.
const (
	classGated  = 0
	phaseClass0 = 1
	numClasses  = 4
)

// Predictor estimates every running reducer's remaining execution time with
// the self-adaptive fuzzy model of iKayak Sec. 3.1.2.
//
// Reference: iKayak Sec. 3.1.2, Eq. (1)-(6). Every IntervalS the predictor
// samples each running reducer's progress (Task.Progress) and phase. The
// model's output y(t) is the logarithm of the progress the reducer makes per
// minute, measured over the last minute of its current phase (see sample):
// the measurable quantity whose error the paper's online learning minimises ("the
// error between actual measured job progress and predicted value"), so RLS
// adapts the consequents at every sample (Eq. 5-6). The logarithm (ours; the
// paper does not give the output's scale) keeps predicted rates positive and
// makes speed and CPU share, which multiply a rate, additive. Inputs
// (Eq. 1-2): lagged outputs, the reducer's resource allocation u (its
// vCores, 0 while suspended, times the share of CPU its node can give under
// contention, over its request) now and one interval ago, and the job's input
// size d (its map count / 100, i.e. in units of 100 HDFS blocks). Rules are
// per execution phase (a shuffling reducer waiting for maps, shuffle, merge,
// reduce) x {low, high} allocation.
//
// The remaining time adds, over the phases left, the progress left in each
// divided by the predicted progress rate in it: the current phase from the
// reducer's own lags, later phases from its own lags too unless it is still
// waiting for maps, in which case from the running mean rate of each phase
// over all reducers (assumed; the paper does not say how a phase not yet
// entered is predicted). The model starts as a persistence predictor (y(t) =
// y(t-1)): the paper's offline-trained values are not given.
type Predictor struct {
	IntervalS float64 // parameter predict_interval_s
	Tau       float64 // parameter rls_discount

	model *TSModel
	// prior is the running mean measured output per class (log progress
	// per minute).
	prior     [numClasses]float64
	priorSeen [numClasses]bool
	tracks    map[int32]*track // by task ID (looked up, never iterated)

	// Evaluation (Fig. 9): the sum and count of the finished reducers'
	// remaining-time NRMSEs.
	nrmseSum float64
	nrmseN   int
	// One-step error of the RLS model (a priori), log rate.
	errSq float64
	errN  int
	// Scores holds every finished reducer's evaluation, in finishing order.
	Scores []Score
	// Trace, if set, is given every finished reducer's sample times and
	// remaining-time predictions (s) when it is scored.
	Trace func(t *sim.Task, at, pred []float64)
}

type track struct {
	attempt  int32
	started  bool    // sampled before
	lastMs   sim.Ms  // time of the last sample
	r1, r2   float64 // lagged measured outputs (log progress per minute)
	lagged   bool    // r1, r2 are set
	ungated  bool    // r1 was measured outside the map wait
	pending  bool    // x was built at the last sample, in this segment
	resumed  bool    // suspended since the last sample
	segP     float64 // progress and time where the current segment began
	segMs    sim.Ms
	segClass int // class of the current segment
	// hist holds the segment's samples (the last maxHist).
	hist     []point
	x        [nx]float64
	class    int
	u        float64 // allocation at the last sample: u(t-1) at the next
	remS     float64 // remaining-time estimate made at lastMs
	hasRem   bool
	pred, at []float64 // remaining-time estimates and their sample times (s)
	waiting  []bool    // the sample was taken while waiting for maps
}

// NewPredictor returns a predictor with the paper-silent defaults.
func NewPredictor() *Predictor {
	p := &Predictor{IntervalS: 10, Tau: 0.95, tracks: map[int32]*track{}}
	var rules []Rule
	for c := 0; c < numClasses; c++ {
		rules = append(rules, Rule{Class: c, Center: 0, Width: 0.5}, Rule{Class: c, Center: 1, Width: 0.5})
	}
	init := []float64{1, 0, 0, 0, 0, 0} // persistence
	p.model = NewTSModel(rules, nx, init, 1, &p.Tau)
	return p
}

// Model returns the fuzzy model (for tests and inspection).
func (p *Predictor) Model() *TSModel { return p.model }

// ControlIntervalMs implements sim.Controller.
func (p *Predictor) ControlIntervalMs() sim.Ms { return sim.Ms(p.IntervalS * 1000) }

// Control samples every running reducer.
func (p *Predictor) Control(h sim.Handle) {
	for _, j := range h.Active() {
		for _, st := range j.Stages {
			if st.Spec.Kind != sim.KindReduce || st.Running == 0 {
				continue
			}
			for _, t := range st.Tasks {
				if t.Node != nil {
					p.sample(h, t)
				}
			}
		}
	}
}

// classOf is the rule class of reducer t now: shuffling while its job still
// has maps to finish (its progress is paced by map outputs), or its phase.
func classOf(t *sim.Task) int {
	i := phaseIndex(t)
	phases := t.Profile().Phases
	if i < len(phases) && phases[i].Shuffle && t.Stage.Index > 0 {
		prev := t.Job.Stages[t.Stage.Index-1]
		if prev.Done < len(prev.Tasks) {
			return classGated
		}
	}
	return phaseClass0 + min(i, numClasses-1-phaseClass0)
}

func phaseIndex(t *sim.Task) int {
	name := t.Phase()
	for i, ph := range t.Profile().Phases {
		if ph.Name == name {
			return i
		}
	}
	return len(t.Profile().Phases)
}

// allocation is u(t): the reducer's vCores (0 while suspended) times the
// share of CPU its node gives under contention, over its requested vCores.
func allocation(t *sim.Task) float64 {
	n := t.Node
	share := 1.0
	if n.Demand.CPU > n.Spec.Cores && n.Demand.CPU > 0 {
		share = n.Spec.Cores / n.Demand.CPU
	}
	if n.Spec.Cores <= 0 {
		share = 1
	}
	return float64(t.Alloc.VCores) * share / float64(t.Req.VCores)
}

func inputSize(j *sim.Job) float64 { return float64(len(j.Stages[0].Tasks)) / 100 }

func (p *Predictor) trackOf(t *sim.Task) *track {
	tr := p.tracks[t.ID]
	if tr == nil || tr.attempt != t.Attempt {
		tr = &track{attempt: t.Attempt}
		p.tracks[t.ID] = tr
	}
	return tr
}

func (p *Predictor) sample(h sim.Handle, t *sim.Task) {
	tr := p.trackOf(t)
	now, prog := h.Now(), t.Progress()
	if t.Suspended() {
		// No measurement while suspended; a new segment starts on resume.
		tr.pending, tr.resumed, tr.started = false, true, true
		return
	}
	class := classOf(t)
	switch {
	case !tr.started:
		// The reducer's first segment began at its launch; but a reducer
		// waiting for maps first catches up with the map outputs already
		// there, a burst that says nothing of the pace of the maps to come:
		// its progress so far only seeds its lags, and its segment starts
		// here.
		tr.segP, tr.segMs, tr.segClass, tr.started = 0, t.StartMs, class, true
		if class == classGated && now-t.StartMs >= sim.Ms(p.IntervalS*500) {
			y := logRate(prog, now-t.StartMs)
			tr.r1, tr.r2, tr.lagged = y, y, true
			tr.segP, tr.segMs = prog, now
		}
	case tr.resumed || class != tr.segClass:
		// After a suspension or on a change of phase a new segment starts
		// here: the interval behind it is not attributable to one rule. The
		// reducer keeps its own lags unless they measured the wait for maps,
		// in which case it starts from the new phase's running mean.
		if tr.lagged && tr.segClass == classGated && class != classGated && p.priorSeen[class] {
			tr.r1, tr.r2 = p.prior[class], p.prior[class]
		}
		tr.segP, tr.segMs, tr.segClass, tr.resumed, tr.pending = prog, now, class, false, false
	}
	if len(tr.hist) == 0 || tr.hist[0].ms < tr.segMs {
		tr.hist = append(tr.hist[:0], point{tr.segMs, tr.segP})
	}
	if now-tr.segMs >= sim.Ms(p.IntervalS*500) {
		// The measured output is the progress rate over the last rateWindow
		// of the current segment (the samples since the reducer entered its
		// phase): a reducer shuffling for map outputs progresses in steps as
		// maps finish, which one interval alone sees as 0 or a burst.
		// From the newest sample at least rateWindow old, further back while
		// no progress shows (a reducer waiting on the last, straggling maps).
		k := len(tr.hist) - 1
		for k > 0 && (now-tr.hist[k].ms < rateWindow || prog <= tr.hist[k].p) {
			k--
		}
		from := tr.hist[k]
		y := logRate(prog-from.p, now-from.ms)
		if tr.pending {
			// Eq. (5)-(6): adapt the consequents to the measured progress.
			e := p.model.Update(tr.class, tr.u, tr.x[:], y)
			p.errSq += e * e
			p.errN++
		}
		p.learnPrior(class, y)
		if tr.lagged {
			tr.r2, tr.r1 = tr.r1, y
		} else {
			tr.r1, tr.r2, tr.lagged = y, y, true
		}
	}
	if !tr.lagged && p.priorSeen[class] {
		tr.r1, tr.r2, tr.lagged = p.prior[class], p.prior[class], true
	}
	tr.hist = append(tr.hist, point{now, prog})
	if len(tr.hist) > maxHist {
		tr.hist = tr.hist[len(tr.hist)-maxHist:]
	}
	tr.lastMs = now
	if !tr.lagged {
		tr.pending, tr.hasRem = false, false
		return
	}
	u := allocation(t)
	prevU := u
	if tr.pending {
		prevU = tr.u
	}
	d := inputSize(t.Job)
	tr.x = [nx]float64{tr.r1, tr.r2, u, prevU, d, 1}
	tr.class, tr.u = class, u
	tr.pending = true
	tr.ungated = class != classGated
	tr.remS = p.remaining(t, tr, prog, class, u, d)
	tr.hasRem = true
	tr.pred = append(tr.pred, tr.remS)
	tr.at = append(tr.at, float64(now)/1000)
	tr.waiting = append(tr.waiting, class == classGated)
}

type point struct {
	ms sim.Ms
	p  float64
}

// rateWindow is how far back a measured rate looks within a segment
// (assumed): long enough to smooth the steps of a reducer fed by finishing
// maps, short enough to follow the maps' pace as the jobs sharing the cluster
// change.
const rateWindow = 60 * sim.MsPerS

// maxHist bounds the samples kept per reducer.
const maxHist = 64

// logRate is log(progress per minute), the rate floored at minRate.
func logRate(dp float64, dt sim.Ms) float64 {
	return math.Log(math.Max(dp/(float64(dt)/60000), minRate))
}

func (p *Predictor) learnPrior(class int, y float64) {
	p.prior[class] = ewma(p.prior[class], y, p.priorSeen[class])
	p.priorSeen[class] = true
}

func ewma(old, x float64, seen bool) float64 {
	if !seen {
		return x
	}
	return 0.9*old + 0.1*x
}

// minRate bounds measured rates from below (progress per minute) before
// their logarithm is taken: a reducer that made no progress at all counts as
// one needing 1000 minutes.
const minRate = 1e-3

// remaining adds up the progress left in each phase over its predicted rate.
func (p *Predictor) remaining(t *sim.Task, tr *track, prog float64, class int, u, d float64) float64 {
	phases := t.Profile().Phases
	cur := phaseIndex(t)
	end, total := 0.0, 0.0
	for _, ph := range phases {
		if !ph.Wall {
			total += ph.Frac
		}
	}
	minutes := 0.0
	for i, ph := range phases {
		if ph.Wall {
			continue
		}
		start := end / total
		end += ph.Frac
		stop := end / total
		if i < cur || stop <= prog {
			continue
		}
		left := stop - math.Max(start, prog)
		var rate float64 // log progress per minute
		if i == cur {
			rate = p.model.Predict(class, u, tr.x[:])
		} else {
			c := phaseClass0 + min(i, numClasses-1-phaseClass0)
			x := tr.x
			if !tr.ungated && p.priorSeen[c] {
				x[0], x[1] = p.prior[c], p.prior[c]
			}
			rate = p.model.Predict(c, u, x[:])
		}
		minutes += left / math.Exp(rate)
	}
	return minutes * 60
}

// Remaining returns the predicted remaining time of reducer t in seconds,
// aged by the time since it was made. A reducer not yet sampled is predicted
// from the running mean rates of the phases (or, before any sample at all,
// from its elapsed time and progress).
func (p *Predictor) Remaining(h sim.Handle, t *sim.Task) float64 {
	if tr := p.tracks[t.ID]; tr != nil && tr.attempt == t.Attempt && tr.hasRem {
		return math.Max(0, tr.remS-float64(h.Now()-tr.lastMs)/1000)
	}
	prog := t.Progress()
	class := classOf(t)
	if p.priorSeen[class] {
		tr := &track{x: [nx]float64{p.prior[class], p.prior[class], 1, 1, inputSize(t.Job), 1}, ungated: class != classGated}
		return p.remaining(t, tr, prog, class, 1, inputSize(t.Job))
	}
	el := float64(h.Now()-t.StartMs) / 1000
	if prog <= 0 {
		return math.Inf(1)
	}
	return el * (1 - prog) / prog
}

// Score is one finished reducer's prediction accuracy.
type Score struct {
	Job   int32
	Task  int32
	Index int
	// NRMSE over all its samples; NRMSERun over those taken after it
	// stopped waiting for maps (NaN with fewer than two).
	NRMSE, NRMSERun float64
	Samples         int
}

// nrmse is the RMS error of pred against the actual remaining time end - at
// over the samples keep selects, divided by the range of the actual
// remaining time there; NaN with fewer than two samples or no range.
func nrmse(at, pred []float64, end float64, keep func(i int) bool) float64 {
	lo, hi, se, n := math.Inf(1), math.Inf(-1), 0.0, 0
	for i := range at {
		if !keep(i) {
			continue
		}
		act := end - at[i]
		lo, hi = math.Min(lo, act), math.Max(hi, act)
		d := pred[i] - act
		se += d * d
		n++
	}
	if n < 2 || hi <= lo {
		return math.NaN()
	}
	return math.Sqrt(se/float64(n)) / (hi - lo)
}

// TaskEnded implements sim.TaskListener: a finished reducer's predictions
// are scored against its actual remaining times (NRMSE, Fig. 9): the RMS
// error over its samples divided by the range of the actual remaining time.
func (p *Predictor) TaskEnded(h sim.Handle, t *sim.Task, o sim.Outcome) {
	if t.Kind != sim.KindReduce {
		return
	}
	tr := p.tracks[t.ID]
	delete(p.tracks, t.ID)
	if tr == nil || o != sim.Finished {
		return
	}
	if p.Trace != nil {
		p.Trace(t, tr.at, tr.pred)
	}
	end := float64(t.FinishMs) / 1000
	sc := Score{Job: t.Job.ID, Task: t.ID, Index: t.Index, Samples: len(tr.at),
		NRMSE:    nrmse(tr.at, tr.pred, end, func(int) bool { return true }),
		NRMSERun: nrmse(tr.at, tr.pred, end, func(i int) bool { return !tr.waiting[i] })}
	if math.IsNaN(sc.NRMSE) {
		return
	}
	p.nrmseSum += sc.NRMSE
	p.nrmseN++
	p.Scores = append(p.Scores, sc)
}

// NRMSE is the mean remaining-time NRMSE over the finished reducers (0
// before any).
func (p *Predictor) NRMSE() float64 {
	if p.nrmseN == 0 {
		return 0
	}
	return p.nrmseSum / float64(p.nrmseN)
}

// RateError is the RLS model's one-step RMS error on the measured log
// progress rate (about the relative error of the predicted rate).
func (p *Predictor) RateError() float64 {
	if p.errN == 0 {
		return 0
	}
	return math.Sqrt(p.errSq / float64(p.errN))
}
