// Package dress is DRESS (Mao et al., "DRESS: Dynamic RESource-reservation
// Scheme for Congested Data-intensive Computing Platforms"): jobs are split
// into small-demand (SD) and large-demand (LD) categories by their container
// request (theta), SD jobs may use a reserved pool of Tot_R x delta
// containers and LD jobs the rest, and a control cycle moves delta with the
// containers each pool is predicted to have at t+1 (currently available plus
// the releases predicted from the running jobs' phases, Eq. 1-3 and Alg. 1-2)
// against each pool's pending demand (Alg. 3).
//
// DRESS is composed on YARN's CapacityScheduler (policies/capacity), as in
// the paper's implementation on Hadoop YARN 2.7.4: Capacity's queues, order
// and limits stay; DRESS adds its pool limit and launch hook to Capacity's
// allocator and its control cycle to the policy.
//
// Containers: the paper counts containers. Here a request's size in
// containers is its dominant share of the cluster times Tot_R, with Tot_R
// the cluster's vCores: max(vCores, memory / (cluster memory per vCore)).
// With the DRESS scenarios' <1 vCore, 4 GB> containers on nodes of 20
// vCores and 80 GB every container (AMs included) counts 1 and Tot_R = 100.
package dress

import (
	"fmt"
	"math"

	"yarngym/env/sim"
	"yarngym/policies/base"
	"yarngym/policies/capacity"
)

// Categories (Sec. IV-C).
const (
	SD = 0 // small demand (category 1)
	LD = 1 // large demand (category 2)
)

// Dress is DRESS's state and parameters: a base.Limit and base.Launched on
// Capacity's allocator, and a sim.Controller with task and job listeners.
type Dress struct {
	Theta      float64
	ThetaFree  float64
	PhaseWinS  float64
	StartTh    float64
	EndTh      float64
	DeltaInit  float64
	DeltaMin   float64
	DeltaMax   float64
	DeltaFixed float64
	IntervalS  float64
	det        Detect
	run        sim.Handle // the run, as the engine last handed it over
	totR       float64
	memPerUnit float64
	delta      float64
	jobs       []*jobInfo // by job ID (a run's IDs count up from 0); nil once ended
	used       [2]float64
	usedAt     sim.Ms
	usedEpoch  int64 // Handle.Epoch when used was last summed afresh
	dirty      bool
	refusal    refusal // the pools as the last PrepareRefusals found them
	last       Demand  // inputs of the last control step
	phases     int
}

// refusal is what RefusesJob compares a job's smallest request with.
type refusal struct {
	ready  bool       // prepared for the run DRESS is attached to
	summed bool       // used and limits are the pools' since PrepareRefusals
	used   [2]float64 // what each pool holds, as Allow would sum it
	limits [2]float64 // each pool's size
}

type jobInfo struct {
	cat      int
	tr       *Tracker
	minUnits float64 // the smallest request of the job (AM, any stage), in containers
}

// Params declares DRESS's parameters (names distinct from Capacity's).
func (d *Dress) Params(ps *sim.Params) {
	ps.Add(sim.Param{Name: "theta", Doc: "job indicator: a job whose container request is at most theta x A_c is small-demand, else large-demand",
		Ref: "DRESS Sec. IV-C, V-A1 (theta = 10%)", Min: 0.001, Max: 1, Default: 0.1, Value: &d.Theta})
	ps.Add(sim.Param{Name: "theta_free", Doc: "A_c in the theta test: 0 = containers the nodes offer (Tot_R; the paper's runs: small = under 10 of ~100 containers), 1 = containers free at the job's arrival (literal Eq. 1 A_c)",
		Ref: "DRESS Sec. IV-C, Table I, Sec. V-B (assumed reading)", Min: 0, Max: 1, Default: 0, Integer: true, Value: &d.ThetaFree})
	ps.Add(sim.Param{Name: "phase_window_s", Doc: "phase window pw of phase detection, simulated seconds",
		Ref: "DRESS Sec. IV-A, V-A1 (pw = 10 s)", Min: 1, Max: 600, Default: 10, Value: &d.PhaseWinS})
	ps.Add(sim.Param{Name: "start_threshold", Doc: "t_s: more running tasks than this gained within pw start a phase",
		Ref: "DRESS Alg. 1, Sec. V-A1 (t_s = 5)", Min: 0, Max: 1000, Default: 5, Integer: true, Value: &d.StartTh})
	ps.Add(sim.Param{Name: "end_threshold", Doc: "t_e: more tasks of a phase than this finishing within pw start its release (gamma)",
		Ref: "DRESS Alg. 2, Sec. V-A1 (t_e = 5)", Min: 0, Max: 1000, Default: 5, Integer: true, Value: &d.EndTh})
	ps.Add(sim.Param{Name: "delta_init", Doc: "initial reserve ratio: the SD pool starts with Tot_R x delta containers",
		Ref: "DRESS Sec. V-A1 (initial delta = 10%)", Min: 0, Max: 1, Default: 0.1, Value: &d.DeltaInit})
	ps.Add(sim.Param{Name: "delta_min", Doc: "lower bound of delta (the paper: delta in (0, 1), no bound given; assumed 0)",
		Ref: "DRESS Sec. IV-C (assumed)", Min: 0, Max: 1, Default: 0, Value: &d.DeltaMin})
	ps.Add(sim.Param{Name: "delta_max", Doc: "upper bound of delta (the paper: delta in (0, 1), no bound given; assumed 1)",
		Ref: "DRESS Sec. IV-C (assumed)", Min: 0, Max: 1, Default: 1, Value: &d.DeltaMax})
	ps.Add(sim.Param{Name: "delta_fixed", Doc: "-1: Alg. 3 adapts the reserve ratio delta (the paper); a value in [0, 1] holds delta there from the next decision on, Alg. 3's adjustment switched off (a tuner setting delta directly)",
		Ref: "DRESS Sec. IV-C, Alg. 3 (-1: the paper)", Min: -1, Max: 1, Default: -1, Value: &d.DeltaFixed})
	ps.Add(sim.Param{Name: "dress_interval_s", Doc: "control cycle of Alg. 3 and the prediction horizon t -> t+1, simulated seconds (assumed: pw; the paper does not state it)",
		Ref: "DRESS Alg. 3 (assumed = pw)", Min: 1, Max: 3600, Default: 10, Value: &d.IntervalS})
}

// New builds DRESS on a Capacity policy for the spec's queues.
func New(sp base.Spec) (*sim.Policy, error) {
	p, err := capacity.New(sp)
	if err != nil {
		return nil, err
	}
	a, ok := p.Allocate.(*base.Allocator)
	if !ok {
		return nil, fmt.Errorf("dress: capacity's allocator is a %T, not a *base.Allocator", p.Allocate)
	}
	d := &Dress{}
	a.Limits = append(a.Limits, d)
	a.Hooks = append(a.Hooks, d)
	p.Name = "dress"
	p.Controls = append(p.Controls, d)
	d.Params(p.Params)
	p.State = append(p.State, d.State()...)
	return p, nil
}

// State exposes delta, the predicted releases and the pools' demands.
func (d *Dress) State() []sim.StateVar {
	return []sim.StateVar{
		{Name: "delta", Doc: "reserve ratio: the SD pool holds Tot_R x delta containers (Alg. 3)", Get: func() float64 { return d.Delta() }, Min: 0, Max: 1},
		{Name: "predicted_release", Doc: "containers predicted to be released in the next control interval, F(t+1) - A_c (Eq. 1-3), at the last control step",
			Get: func() float64 { return d.last.F1 + d.last.F2 }, Min: 0, Max: 1, Per: sim.PerVCore},
		{Name: "predicted_release_sd", Doc: "F_1(t+1) - A_c1: releases predicted from small-demand jobs", Get: func() float64 { return d.last.F1 }, Min: 0, Max: 1, Per: sim.PerVCore},
		{Name: "predicted_release_ld", Doc: "F_2(t+1) - A_c2: releases predicted from large-demand jobs", Get: func() float64 { return d.last.F2 }, Min: 0, Max: 1, Per: sim.PerVCore},
		{Name: "pending_sd", Doc: "P_1: containers pending for small-demand jobs, at the last control step", Get: func() float64 { return sum(d.last.SD) }, Min: 0, Max: 100, Per: sim.PerVCore, Log: true},
		{Name: "pending_ld", Doc: "P_2: containers pending for large-demand jobs, at the last control step", Get: func() float64 { return sum(d.last.LD) }, Min: 0, Max: 100, Per: sim.PerVCore, Log: true},
		{Name: "sd_used", Doc: "containers held by small-demand jobs (guaranteed) now", Get: func() float64 { return d.heldNow()[SD] }, Min: 0, Max: 1, Per: sim.PerVCore},
		{Name: "phases_found", Doc: "phases detected so far over all jobs (Alg. 1)", Get: func() float64 { return float64(d.phases) }, Min: 0, Max: 100, Per: sim.PerJob, Log: true},
	}
}

// Delta returns the reserve ratio in force: delta_fixed when set, else
// Alg. 3's delta.
func (d *Dress) Delta() float64 {
	if d.DeltaFixed >= 0 {
		return d.DeltaFixed
	}
	if d.run == nil {
		return d.DeltaInit
	}
	return d.delta
}

// Category returns the category (SD or LD) of job id, or -1 if unknown.
func (d *Dress) Category(id int32) int {
	if in := d.known(id); in != nil {
		return in.cat
	}
	return -1
}

// known returns job id's category and tracker, nil before it is classified
// or after it ended.
func (d *Dress) known(id int32) *jobInfo {
	if int(id) < len(d.jobs) {
		return d.jobs[id]
	}
	return nil
}

// Used returns the containers the SD and LD jobs hold now.
func (d *Dress) Used(h sim.Handle) [2]float64 {
	d.attach(h)
	d.dirty = true
	d.refresh(h)
	return d.used
}

// Pools returns the SD and LD pool sizes now: Tot_R x delta, Tot_R x (1 - delta).
func (d *Dress) Pools() [2]float64 {
	delta := d.Delta()
	return [2]float64{d.totR * delta, d.totR * (1 - delta)}
}

// PhasesFound returns how many phases Alg. 1 has found in the run.
func (d *Dress) PhasesFound() int { return d.phases }

// attach resets the per-run state when a run starts (a policy serves one run).
func (d *Dress) attach(h sim.Handle) {
	if d.run == h {
		return
	}
	d.run = h
	c := h.Capacity()
	d.totR = float64(c.VCores)
	d.memPerUnit = float64(c.MemMB) / float64(c.VCores)
	d.delta = clamp(d.DeltaInit, d.DeltaMin, d.DeltaMax)
	d.jobs = d.jobs[:0]
	d.used, d.usedAt, d.dirty = [2]float64{}, -1, true
	d.last, d.phases = Demand{}, 0
}

func (d *Dress) sync() {
	d.det = Detect{PW: sim.Ms(d.PhaseWinS * 1000), Ts: d.StartTh, Te: d.EndTh}
}

// Units returns request r in containers (dominant share x Tot_R).
func (d *Dress) Units(r sim.Res) float64 {
	return max(float64(r.VCores), float64(r.MemMB)/d.memPerUnit)
}

// classify puts job j in a category by its container request (AM excluded;
// a Spark job requests its executor count, sim.Stage.Width).
//
// Reference: DRESS Sec. IV-C: a job is "large demand" if its request is
// larger than A_c x theta, else "small demand". The paper's runs call jobs of
// "less than 10 containers" small with theta = 10% on a 5-node cluster, so
// the A_c they compare with is the ~100 containers the nodes offer, not the
// few free in a congested moment (theta_free = 1 selects that literal reading).
func (d *Dress) classify(h sim.Handle, j *sim.Job) *jobInfo {
	req, minUnits := 0.0, math.Inf(1)
	if j.AM != nil {
		minUnits = d.Units(j.AM.Req)
	}
	for _, st := range j.Stages {
		u := d.Units(st.Spec.Req)
		req += float64(st.Width()) * u
		minUnits = min(minUnits, u)
	}
	basis := d.totR
	if d.ThetaFree > 0 {
		d.refresh(h)
		basis = max(d.totR-d.used[SD]-d.used[LD], 0)
	}
	in := &jobInfo{cat: LD, tr: NewTracker(&d.det), minUnits: minUnits}
	if req <= d.Theta*basis {
		in.cat = SD
	}
	d.jobs = base.ByJobID(d.jobs, j.ID)
	d.jobs[j.ID] = in
	return in
}

func (d *Dress) info(h sim.Handle, j *sim.Job) *jobInfo {
	d.attach(h)
	if in := d.known(j.ID); in != nil {
		return in
	}
	return d.classify(h, j)
}

// refresh recomputes the containers each pool holds when tasks ended since.
//
// The sums are made afresh at each new instant, because the launches
// counted in between (Launched) add in another order; they are kept when
// nothing they count has changed since (Handle.Epoch), which gives the same
// sums bit for bit at the cost of one comparison.
func (d *Dress) refresh(h sim.Handle) {
	if d.fresh(h) {
		d.usedAt = h.Now()
		return
	}
	d.used = d.sums(h)
	d.usedAt, d.usedEpoch, d.dirty = h.Now(), h.Epoch(), false
}

// usedNow is what each pool holds now, as Allow would find it, without
// refreshing: the sums kept while they hold (fresh), else made afresh.
func (d *Dress) usedNow() [2]float64 {
	if d.run == nil {
		return [2]float64{}
	}
	if d.fresh(d.run) {
		return d.used
	}
	return d.sums(d.run)
}

// heldNow is what each pool holds now, summed afresh: the state the
// environment observes (sd_used). Not the sums as the last refresh left
// them, nor usedNow: when a refresh last came depends on which jobs the
// allocator happened to ask about, not on the cluster.
func (d *Dress) heldNow() [2]float64 {
	if d.run == nil {
		return [2]float64{}
	}
	return d.sums(d.run)
}

// fresh reports whether the pools' sums still hold (refresh keeps them).
func (d *Dress) fresh(h sim.Handle) bool {
	return !d.dirty && (d.usedAt == h.Now() || d.usedEpoch == h.Epoch())
}

// sums is what each pool holds now, summed afresh.
func (d *Dress) sums(h sim.Handle) [2]float64 {
	var used [2]float64
	for _, j := range h.Active() {
		if j.Running == 0 {
			// It holds no container (AM, task or idle executor): it would
			// add +0 to a sum that is never -0. Every active job was
			// classified when it arrived (JobArrived), so skipping it here
			// classifies nothing later than before.
			continue
		}
		in := d.info(h, j)
		if am := j.AM; am != nil && am.State == sim.TaskRunning && am.Container == sim.Guaranteed {
			used[in.cat] += d.Units(am.Req)
		}
		for _, st := range j.Stages {
			// An idle Spark executor (StageSpec.PartitionExecutors) holds
			// its container to the job's end: occupied, as the paper's
			// pools count them ("the total occupied containers", Sec. IV-C).
			idle, held := st.IdleGuaranteed(), st.HeldGuaranteed()
			if idle == 0 && held == 0 {
				continue // it would add +0 twice
			}
			u := d.Units(st.Spec.Req)
			used[in.cat] += float64(idle) * u
			// Then each task that holds a guaranteed container, running or
			// suspended, one addition each: every task of a stage asks for
			// st.Spec.Req, so the count says what a scan of the stage's
			// tasks would add, in the same order and rounding, at the cost
			// of the containers held rather than the stage's length.
			used[in.cat] = addTimes(used[in.cat], u, held)
		}
	}
	return used
}

// addTimes returns sum after adding u to it k times, one addition at a
// time, rounded as each addition rounds. Where sum and u are multiples of
// 2^-20 (whole containers, or memory in MB over a power-of-two MB per
// container) and the total stays below 2^33, every partial sum is exact and
// the k additions are one multiplication and one addition, with the same
// result.
func addTimes(sum, u float64, k int) float64 {
	const grain = 1 << 20 // scaling by a power of two is exact
	whole := func(x float64) bool { return x == math.Trunc(x) }
	if whole(sum*grain) && whole(u*grain) && (math.Abs(sum)+float64(k)*math.Abs(u))*grain < 1<<53 {
		return sum + float64(k)*u
	}
	for range k {
		sum += u
	}
	return sum
}

// Allow implements base.Limit: SD jobs' containers stay within Tot_R x
// delta, LD jobs' within Tot_R x (1 - delta).
//
// Reference: DRESS Sec. IV-C ("Tot_R x delta containers are assigned to
// small demand jobs, SD, and Tot_R x (1 - delta) are for large demand jobs").
func (d *Dress) Allow(h sim.Handle, t *sim.Task, _ *sim.Node) bool {
	in := d.info(h, t.Job)
	d.refresh(h)
	delta := d.Delta()
	limit := d.totR * delta
	if in.cat == LD {
		limit = d.totR * (1 - delta)
	}
	return d.used[in.cat]+d.Units(t.Req) <= limit+1e-9
}

// PrepareRefusals implements base.JobLimit: RefusesJob compares with the
// pools' usage and sizes as Allow would find them now (usedNow), without
// refreshing the sums: where they are made afresh and where launches are
// added to them stays where Allow and Launched put it.
func (d *Dress) PrepareRefusals(h sim.Handle) {
	d.refusal.ready = d.run == h // a run's first job attaches DRESS (JobArrived)
	d.refusal.summed = false     // summed at the first question (a ranking may ask none)
}

// RefusesJob implements base.JobLimit: job j's pool has no room for its
// smallest request, so Allow refuses each of its tasks (a sum rounds
// monotonically: used + a smaller request is never the larger sum).
func (d *Dress) RefusesJob(j *sim.Job) bool {
	in := d.known(j.ID)
	if !d.refusal.ready || in == nil {
		return false // not classified yet: Allow answers
	}
	if r := &d.refusal; !r.summed {
		r.used = d.usedNow()
		delta := d.Delta()
		r.limits = [2]float64{d.totR * delta, d.totR * (1 - delta)}
		r.summed = true
	}
	return d.refusal.used[in.cat]+in.minUnits > d.refusal.limits[in.cat]+1e-9
}

// Launched implements base.Launched: pool usage and phase detection.
func (d *Dress) Launched(h sim.Handle, t *sim.Task) {
	in := d.info(h, t.Job)
	d.refresh(h)
	d.used[in.cat] += d.Units(t.Req)
	d.usedEpoch = -1 // no longer the fresh sums: make them afresh at the next instant
	if t.Kind == sim.KindAM || t.Excess() {
		return
	}
	d.sync()
	in.tr.Started(t.ID, d.Units(t.Req), h.Now())
	d.check(in, h.Now())
}

// TaskEnded implements sim.TaskListener.
func (d *Dress) TaskEnded(h sim.Handle, t *sim.Task, o sim.Outcome) {
	d.dirty = true
	in := d.info(h, t.Job)
	d.sync()
	in.tr.Ended(t.ID, o == sim.Finished, h.Now())
	d.check(in, h.Now())
}

// TasksRebound implements sim.Rebinder.
func (d *Dress) TasksRebound(h sim.Handle, from, to []*sim.Task) {
	id := func(t *sim.Task) int32 {
		if t == nil {
			return -1
		}
		return t.ID
	}
	var j *sim.Job
	fi, ti := make([]int32, len(from)), make([]int32, len(to))
	for i := range from {
		fi[i], ti[i] = id(from[i]), id(to[i])
		if from[i] != nil {
			j = from[i].Job
		} else {
			j = to[i].Job
		}
	}
	d.info(h, j).tr.Rebound(fi, ti, h.Now(), func(t int32) float64 { return d.Units(h.Task(t).Req) })
}

// JobArrived implements sim.JobListener: the job is classified on arrival.
func (d *Dress) JobArrived(h sim.Handle, j *sim.Job) { d.info(h, j) }

// JobFinished implements sim.JobListener.
func (d *Dress) JobFinished(h sim.Handle, j *sim.Job) {
	d.attach(h)
	d.dirty = true
	if int(j.ID) < len(d.jobs) {
		d.jobs[j.ID] = nil
	}
}

func (d *Dress) check(in *jobInfo, now sim.Ms) {
	before := len(in.tr.Phases())
	in.tr.Check(now)
	d.phases += len(in.tr.Phases()) - before
}

// ControlIntervalMs implements sim.Controller.
func (d *Dress) ControlIntervalMs() sim.Ms { return sim.Ms(d.IntervalS * 1000) }

// Control implements sim.Controller: one step of Alg. 3.
//
// A_c is the containers free now, split into the pools' shares (A_c1 = what
// SD's Tot_R x delta leaves unused, A_c2 = the rest up to LD's pool); F_k is
// the releases predicted over the next interval from the phases of the
// pool's running jobs (Eq. 1-3); the pending demands are each job's
// containers not yet started (AM included).
//
// Reference: DRESS Sec. IV-C, Alg. 3; Sec. III-B, Eq. 1.
func (d *Dress) Control(h sim.Handle) {
	d.attach(h)
	d.sync()
	now := h.Now()
	horizon := now + d.ControlIntervalMs()
	dem := Demand{TotR: d.totR}
	for _, j := range h.Active() {
		in := d.info(h, j)
		d.check(in, now)
		f := in.tr.Release(now, horizon)
		r := d.pending(j)
		if in.cat == SD {
			dem.F1 += f
			if r > 0 {
				dem.SD = append(dem.SD, r)
			}
		} else {
			dem.F2 += f
			if r > 0 {
				dem.LD = append(dem.LD, r)
			}
		}
	}
	for _, j := range h.Waiting() {
		in := d.info(h, j)
		if in.cat == SD {
			dem.SD = append(dem.SD, d.pending(j))
		} else {
			dem.LD = append(dem.LD, d.pending(j))
		}
	}
	d.refresh(h)
	ac := max(d.totR-d.used[SD]-d.used[LD], 0)
	delta := d.Delta()
	dem.Ac1 = clamp(d.totR*delta-d.used[SD], 0, ac)
	dem.Ac2 = clamp(d.totR*(1-delta)-d.used[LD], 0, ac-dem.Ac1)
	d.last = dem
	if d.DeltaFixed >= 0 {
		d.delta = d.DeltaFixed // held: Alg. 3 resumes from here if released
		return
	}
	d.delta = clamp(Adjust(d.delta, dem), d.DeltaMin, d.DeltaMax)
}

// pending returns job j's pending demand r_i in containers: every
// container it asks for and has not got (its AM if not running, every task
// not started, no more than a stage's MaxRunning allows at once, stages not
// yet requested included).
//
// Reference: DRESS Sec. IV-C: "For pending jobs, the scheduler records the
// total demands of resources". A job that has started some tasks but waits
// for more counts with what it still wants: counting only jobs with no task
// started leaves such a job outside both demands, Alg. 3 then shrinks its
// pool to what it holds, and the job can wait forever (seen in the mixed
// runs).
func (d *Dress) pending(j *sim.Job) float64 {
	u := 0.0
	if j.AM != nil && j.AM.State == sim.TaskPending {
		u += d.Units(j.AM.Req)
	}
	for _, st := range j.Stages {
		n := st.Asking()
		if !st.Released {
			n = st.Width()
		}
		u += float64(n) * d.Units(st.Spec.Req)
	}
	return u
}

func clamp(x, lo, hi float64) float64 {
	return max(min(x, hi), lo)
}
