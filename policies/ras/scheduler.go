package ras

import (
	"slices"

	"yarngym/env/sim"
)

// Allocate is RAS's Task Scheduler: on a TaskTracker's heartbeat it starts
// tasks of the jobs the current placement gives slots there, lowest utility
// first, only while the job runs fewer tasks of that type on the node than
// its slots, and only if the new task's profile demand fits what the tasks
// running there demand now: a new placement is reached as the previous
// cycle's tasks complete, never by overloading the node.
//
// Reference: RAS Sec. 3.5 ("picking jobs to assign to the TaskTracker that
// do not exceed its current capacity, sorted by lowest utility first ...
// new tasks will only start running as previous tasks complete and enough
// resources are freed"), Eq. 6. ApplicationMasters (YARN scenarios; Hadoop
// 1 has none) start first wherever they fit: a job's tasks wait for them.
func (r *RAS) Allocate(h sim.Handle, n *sim.Node) {
	r.launchAMs(h, n)
	p := r.plan
	if p == nil {
		return
	}
	k := r.nodeIndex(n)
	if k < 0 {
		return
	}
	runMaps, runReds := r.running(n)
	now := r.nodeDemand(n)
	capd := Capacity(n)
	r.order = r.order[:0]
	for i, js := range p.Jobs {
		if js.j.State == sim.JobAdmitted {
			r.order = append(r.order, i)
		}
	}
	slices.SortStableFunc(r.order, func(a, b int) int {
		ua, ub := p.Jobs[a].util, p.Jobs[b].util
		switch {
		case ua < ub:
			return -1
		case ua > ub:
			return 1
		}
		return 0
	})
	for launched := true; launched; {
		launched = false
		for _, i := range r.order {
			js := p.Jobs[i]
			for _, reduce := range []bool{true, false} {
				slots, run := p.Maps[i][k], runMaps[js.j]
				d := js.prof.Map
				if reduce {
					slots, run, d = p.Reds[i][k], runReds[js.j], js.reducerDemand()
				}
				if run >= slots || !now.add(d).Fits(capd) {
					continue
				}
				t := js.nextTask(h, n, reduce)
				if t == nil || !h.FitsFree(t.Req, n) || h.Launch(t, n, sim.Guaranteed) != nil {
					continue
				}
				now = now.add(d)
				if reduce {
					runReds[js.j]++
				} else {
					runMaps[js.j]++
				}
				r.launches++
				launched = true
			}
		}
	}
}

// launchAMs starts pending ApplicationMasters that fit node n.
func (r *RAS) launchAMs(h sim.Handle, n *sim.Node) {
	for _, j := range h.Active() {
		if am := j.AM; am != nil && am.State == sim.TaskPending && h.FitsFree(am.Req, n) && n.Reserved == nil {
			_ = h.Launch(am, n, sim.Guaranteed)
		}
	}
}

// running counts the maps and reducers each job runs on n.
func (r *RAS) running(n *sim.Node) (maps, reds map[*sim.Job]int) {
	clear(r.runMaps)
	clear(r.runReds)
	for _, t := range n.Containers {
		switch t.Kind {
		case sim.KindAM:
		case sim.KindReduce:
			r.runReds[t.Job]++
		default:
			r.runMaps[t.Job]++
		}
	}
	return r.runMaps, r.runReds
}

// nodeDemand is the profile demand of the tasks running on n now (the
// Task Scheduler's view of the TaskTracker: RAS knows profiles, not usage).
func (r *RAS) nodeDemand(n *sim.Node) Demand {
	var d Demand
	for _, t := range n.Containers {
		if t.Kind == sim.KindAM {
			d = d.add(amDemand(t))
			continue
		}
		js := r.state(t.Job)
		if t.Kind == sim.KindReduce {
			d = d.add(js.reducerDemand())
		} else {
			d = d.add(js.prof.Map)
		}
	}
	return d
}
