package opera

import "yarngym/env/sim"

// beat is the heartbeat's view of a node: its opportunistic available
// resources, decreased by every request assigned on this heartbeat.
type beat struct {
	n      *sim.Node
	oaCPU  float64
	oaMem  float64
	active bool
}

// begin computes OA_i for node n at its heartbeat (Alg. 3/4 line 2).
func (o *Opera) begin(n *sim.Node) {
	c, m := o.Mon.OA(n)
	o.beat = beat{n: n, oaCPU: c, oaMem: m, active: true}
}

// Launched implements base.Launched: the Fair allocator tells OPERA of each
// normal container it launches. The task's class is recorded for Table III,
// and the request is taken off OA_i, as NormalAssign does (Alg. 2 line 10).
func (o *Opera) Launched(h sim.Handle, t *sim.Task) {
	if t.Excess() {
		return // a container beyond its stage's maps: nothing to classify
	}
	o.Cls.Launched(h, t)
	o.unreserve(t)
	if o.beat.active && o.beat.n == t.Node {
		o.beat.oaCPU -= float64(t.Req.VCores)
		o.beat.oaMem -= float64(t.Req.MemMB)
	}
}

// TasksRebound implements sim.Rebinder: the classes recorded at launch
// move with the containers, and a map the AM took from the pending ones
// leaves OPERA's reservations.
func (o *Opera) TasksRebound(h sim.Handle, from, to []*sim.Task) {
	o.Cls.Rebound(h, from, to)
	for _, t := range to {
		if t != nil {
			o.unreserve(t)
		}
	}
}

// fitsOA is OpportunisticAssign's test D_t(r) < OA_i(r) for every r.
func (o *Opera) fitsOA(t *sim.Task) bool {
	return float64(t.Req.VCores) < o.beat.oaCPU && float64(t.Req.MemMB) < o.beat.oaMem
}

// Eligible reports whether pending task t may get opportunistic resources:
// it is not an AM and the classifier calls it short.
func (o *Opera) Eligible(t *sim.Task) bool {
	return t.Kind != sim.KindAM && !t.Excess() && o.Cls.ClassifyTask(t) == Short
}

// normalAssign is NormalAssign (Alg. 2 lines 7-13): a guaranteed container
// when the request fits the guaranteed available resources GA_i = C_i - the
// requests of the normal tasks (Eq. 6), which is the node's free capacity.
// The comparison is YARN's (a request that exactly fits is granted).
func (o *Opera) normalAssign(h sim.Handle, n *sim.Node, t *sim.Task) bool {
	if !h.FitsFree(t.Req, n) || (n.Reserved != nil && n.Reserved != t) {
		return false
	}
	if err := h.Launch(t, n, sim.Guaranteed); err != nil {
		panic(err) // t is requestable and fits: a bug
	}
	o.Launched(h, t)
	return true
}

// opportunisticAssign is OpportunisticAssign (Alg. 2 lines 14-20): an
// opportunistic container for an eligible (short) task whose request is
// below OA_i in every resource.
//
// Reference: OPERA Sec. III-D, Alg. 2, Eq. 7.
func (o *Opera) opportunisticAssign(h sim.Handle, n *sim.Node, t *sim.Task) bool {
	if !o.fitsOA(t) || !o.Eligible(t) {
		return false
	}
	if err := h.Launch(t, n, sim.Opportunistic); err != nil {
		panic(err) // t is a requestable non-AM task: a bug
	}
	o.Cls.Launched(h, t)
	o.unreserve(t)
	o.beat.oaCPU -= float64(t.Req.VCores)
	o.beat.oaMem -= float64(t.Req.MemMB)
	o.OppLaunched++
	return true
}

// assign is Assign (Alg. 2 lines 1-6): normal first, then opportunistic.
func (o *Opera) assign(h sim.Handle, n *sim.Node, t *sim.Task) bool {
	return o.normalAssign(h, n, t) || (t.Kind != sim.KindAM && o.opportunisticAssign(h, n, t))
}

// opportunisticPass follows Fair's normal assignment on the same heartbeat
// (reservation off): jobs in Fair's order offer their pending tasks, stage by
// stage in the AM's priority order, and every task the classifier calls short
// whose request fits OA_i gets an opportunistic container. A stage whose next
// task is not eligible or does not fit is passed over (its other tasks share
// its features and request), so a long reduce stage does not hide a job's
// short maps.
//
// Reference: OPERA Sec. III-A ("allocates them to the eligible pending tasks
// determined by Task Classifier"), Sec. III-D, Alg. 2.
func (o *Opera) opportunisticPass(h sim.Handle, n *sim.Node) {
	for _, j := range o.Fair.Ranked(h) {
		for i := len(j.Stages) - 1; i >= 0; i-- {
			for {
				t := h.NextTaskInStage(j, i, n, sim.OffRack)
				if t == nil || !o.opportunisticAssign(h, n, t) {
					break
				}
			}
		}
	}
}

// nextFromQueue is GetNextTaskFromQueue (Alg. 3 line 11, Alg. 4 line 15):
// the next task of the first job in Fair's order that has one for node n,
// under Fair's delay scheduling and limits (maxAMShare), passing over the
// tasks skip rejects.
//
// When skip rejects a job's next task (multi-chance: it is reserved here,
// or was tried on this heartbeat), the job's other stages offer theirs, in
// the AM's priority order and at any locality, as the opportunistic pass
// takes them: a stage is passed over, not the job. The other tasks of the
// rejected task's stage share its request and features, so none of them
// would fare better; a task of another stage is another task of the task
// queue, and the multi-chance approach lets reserved tasks be skipped "for
// other tasks that are eligible to be assigned" (Sec. III-E 2). Passing over
// the whole job instead left every job's short maps behind its reducers
// (asked at a higher priority, neither fitting the guaranteed resources nor
// eligible) while each node had ~14 vCores of OA free: on opera-interactive
// under AGGRESSIVE (seed 4) no map ran from 1,700 s to 2,090 s, until the
// AMs' reducer preemption freed room.
func (o *Opera) nextFromQueue(h sim.Handle, n *sim.Node, skip func(*sim.Task) bool) *sim.Task {
	for _, j := range o.Fair.Ranked(h) {
		t := o.Fair.TaskFor(h, j, n)
		if t == nil {
			continue
		}
		if skip == nil || !skip(t) {
			return t
		}
		for i := len(j.Stages) - 1; i >= 0; i-- {
			if t.Stage != nil && i == t.Stage.Index {
				continue
			}
			if u := h.NextTaskInStage(j, i, n, sim.OffRack); u != nil && !skip(u) && o.Fair.Allowed(h, u, n) {
				return u
			}
		}
	}
	return nil
}
