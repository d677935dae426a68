package ras

import (
	"math"

	"yarngym/env/sim"
)

// jobState is RAS's job descriptor (Sec. 3.2): the submitted profile and
// goal plus the state the Job Status Updater keeps (tasks left, observed
// average map length) and what the placement computed for it this cycle.
type jobState struct {
	j    *sim.Job
	prof JobProfile
	// reduceTailS is the profiled length of the job's reduce phase: its
	// reducers' nominal work outside the shuffle, averaged over them, in
	// seconds (0 for a job without reducers).
	reduceTailS float64

	// Job Status Updater (Sec. 3.2): finished maps and their total run time.
	mapsDone int
	mapMsSum float64
	cursor   []int // per stage: tasks before it are not pending

	// Per control cycle.
	sPend, rPend int     // maps / reducers not finished (s_pend, r_pend)
	sWant, rWant int     // of those, requested so far (stage released)
	sReq         float64 // s_req
	reducePhase  bool    // reducers are planned with the reduce profile
	util         float64 // utility of the last plan
}

func newJobState(j *sim.Job) *jobState {
	return &jobState{j: j, prof: ProfileOf(j), reduceTailS: ReduceTailS(j), cursor: make([]int, len(j.Stages))}
}

// ReduceTailS is the reduce phase job j's profile predicts after its last
// map: the mean nominal length of its first reduce stage's tasks times the
// share of their work outside the shuffle (the shuffle overlaps the map
// phase), in seconds; 0 without reducers.
//
// Reference: RAS Sec. 3.6: profiles come from runs in isolation, and "the
// completion time of the reduce phase" is known to scale with the input
// (linearly, or n log n for a job that sorts in the shuffle), so the
// profiler predicts it for the job's input size; the nominal durations are
// that prediction made exact.
func ReduceTailS(j *sim.Job) float64 {
	for _, st := range j.Stages {
		if st.Spec.Kind != sim.KindReduce || st.Spec.NumTasks() == 0 {
			continue
		}
		work := 0.0
		for _, ph := range st.Spec.Profile.Phases {
			if !ph.Shuffle && !ph.Wall {
				work += ph.Frac
			}
		}
		sum := 0.0
		n := st.Spec.NumTasks()
		for i := range n {
			sum += float64(st.Spec.DurationMs(i))
		}
		return sum / float64(n) / 1000 * work
	}
	return 0
}

// meanMapS is the observed average map length in seconds (Sec. 3.2), 0
// before a map has finished: the estimate "is not yet accurate" and the job
// needs every pending map (RequiredSlots), so a new job has a very low
// utility until its first maps complete (Sec. 4.2, Fig. 5: Job 7 "has a very
// low utility right after it is launched ... even though most resources are
// actually assigned to Job 7 ... no tasks from Job 7 have been completed").
func (js *jobState) meanMapS() float64 {
	if js.mapsDone == 0 {
		return 0
	}
	return js.mapMsSum / float64(js.mapsDone) / 1000
}

// taskEnded is the Job Status Updater: a finished map updates the average
// task length (Sec. 3.2: "keeps track of the average task length observed
// for every job").
func (js *jobState) taskEnded(t *sim.Task, o sim.Outcome) {
	if o == sim.Killed {
		js.cursor[t.Stage.Index] = 0 // back in the queue: rescan
		return
	}
	if t.Kind != sim.KindReduce {
		js.mapsDone++
		js.mapMsSum += float64(t.FinishMs - t.StartMs)
	}
}

// refresh recounts the job's tasks and its s_req at time now. With
// reduceTail the maps must end the job's profiled reduce phase before its
// goal: a Sort job spends most of its length in its reducers after the last
// map (workload/ras.go), and maps that end at the goal miss it by that much.
//
// Reference: RAS Sec. 3.2 (s_pend, r_pend; the Job Completion Time
// Estimator computes the concurrent maps needed "to meet the completion time
// goal of each job"); Sec. 3.6 (the reduce phase's profiled time).
func (js *jobState) refresh(now sim.Ms, reduceTail bool) {
	js.sPend, js.rPend, js.sWant, js.rWant = 0, 0, 0, 0
	for _, st := range js.j.Stages {
		left := len(st.Tasks) - st.Done
		if st.Spec.Kind == sim.KindReduce {
			js.rPend += left
			if st.Released {
				js.rWant += left
			}
		} else {
			js.sPend += left
			if st.Released {
				js.sWant += left
			}
		}
	}
	goal := js.j.Spec.GoalMs
	left := float64(js.j.Spec.SubmitMs+goal-now) / 1000
	if reduceTail && js.rPend > 0 {
		left -= js.reduceTailS
	}
	js.sReq = RequiredSlots(js.sPend, js.meanMapS(), left, goal > 0)
}

// mapPhaseEnds reports whether the job's map phase completes within the
// next cycle of cycleS seconds: no map is waiting and, by the observed
// average length, every running map will have finished.
//
// Reference: RAS Alg. 1 lines 26-28 ("if map phase of a job is about to
// complete in this control cycle, switch profile of placed reducers from
// shuffle to reduce").
func (js *jobState) mapPhaseEnds(now sim.Ms, cycleS float64) bool {
	if js.sPend == 0 {
		return true
	}
	mean := js.meanMapS()
	if mean <= 0 {
		return false
	}
	for _, st := range js.j.Stages {
		if st.Spec.Kind == sim.KindReduce {
			continue
		}
		if !st.Released || st.Pending > 0 {
			return false
		}
		for _, t := range st.Tasks {
			if t.State == sim.TaskRunning && mean-float64(now-t.StartMs)/1000 > cycleS {
				return false
			}
		}
	}
	return true
}

// reducerDemand is a planned or running reducer's demand: the reduce
// profile once the job's map phase ends, else the shuffle profile, whose
// I/O is only drawn while the job still has maps to fetch from.
//
// Reference: RAS Sec. 3.4 ("when reduce tasks are placed first, they start
// running in shuffle phase, so that their demand of resources is directly
// proportional to the number of map tasks placed for the same job.
// Therefore, in the absence of map tasks for the same job, a reduce task in
// shuffle phase only consumes memory"); Table 2.
func (js *jobState) reducerDemand() Demand {
	if js.reducePhase || js.mapsFinished() {
		return js.prof.Reduce
	}
	d := js.prof.Shuffle
	if js.sPend == 0 {
		d.IOMBps = 0
	}
	return d
}

// mapsFinished reports whether every map of the job has finished.
func (js *jobState) mapsFinished() bool {
	for _, st := range js.j.Stages {
		if st.Spec.Kind != sim.KindReduce && st.Done < len(st.Tasks) {
			return false
		}
	}
	return true
}

// utilityOf is u_j for the given allocation. r_pend counts the reducers the
// job has asked for: before slow-start lets them be requested no reducer
// can be placed, and u^R ("unsatisfied demand for reduce tasks", Sec. 3.3)
// is 0 rather than -1.
//
// Reference: RAS Sec. 3.3, Eq. 1-3.
func (js *jobState) utilityOf(sAlloc, rAlloc int) float64 {
	return Utility(float64(sAlloc), js.sReq, float64(js.sPend), float64(rAlloc), float64(js.rWant))
}

// nextTask returns a pending, requested task of the job's maps (reduce =
// false) or reducers for node n, preferring a map with a replica on n, or
// nil. Hadoop 1's JobTracker hands out node-local maps first as well.
func (js *jobState) nextTask(h sim.Handle, n *sim.Node, reduce bool) *sim.Task {
	for i, st := range js.j.Stages {
		if (st.Spec.Kind == sim.KindReduce) != reduce || !st.Released || st.Pending == 0 {
			continue
		}
		t, asked := js.scan(h, n, i)
		if t == nil && asked && js.cursor[i] > 0 {
			// A task went back to pending behind the cursor without a
			// kill (the AM handed its container to another task of the
			// stage, sim.Rebinder): rescan from the start.
			js.cursor[i] = 0
			t, asked = js.scan(h, n, i)
		}
		if t != nil || !asked {
			return t
		}
	}
	return nil
}

// scan looks for stage i's next task for node n from the cursor: a pending
// task with a replica on n within a window of pending tasks, else the first
// pending one. It reports asked = false when the first pending task is not
// asked for yet (stage, ramp-up or slot): nothing of the stage is launched.
func (js *jobState) scan(h sim.Handle, n *sim.Node, i int) (t *sim.Task, asked bool) {
	const window = 256 // how far past the first pending map to look for a local one
	st := js.j.Stages[i]
	var first *sim.Task
	seen := 0
	for k := js.cursor[i]; k < len(st.Tasks) && seen < window; k++ {
		t := st.Tasks[k]
		if t.State != sim.TaskPending {
			if first == nil && k == js.cursor[i] {
				js.cursor[i]++
			}
			continue
		}
		if !h.AsksFor(t, n) {
			return nil, false
		}
		if first == nil {
			first = t
		}
		seen++
		if len(t.Replicas) == 0 || h.LocalityOf(t, n) == sim.NodeLocal {
			return t, true
		}
	}
	return first, true
}

// finite clamps -Inf utilities for reports and observations.
func finite(u float64) float64 { return math.Max(u, -10) }
