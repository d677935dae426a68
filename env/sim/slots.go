package sim

// Typed slots: a node with NodeSpec.ReduceSlots > 0 is a Hadoop 1
// TaskTracker (RAS Sec. 2: "'Slots' are bound to a particular type of task,
// either reduce or map"). Its vCores are map slots; reducers request no
// vCores and run in the node's reduce slots instead.

// Reducers returns how many reducers hold a container on n.
func (n *Node) Reducers() int {
	k := 0
	for _, t := range n.Containers {
		if t.Kind == KindReduce {
			k++
		}
	}
	return k
}

// typed reports whether n has typed map and reduce slots.
func (n *Node) typed() bool { return n.Spec.ReduceSlots > 0 }

// Typed reports whether n is a Hadoop 1 TaskTracker with typed slots: its
// vCores are map slots, its reduce slots a separate count.
func (n *Node) Typed() bool { return n.typed() }

// reduceSlotFree reports whether typed node n may take a reducer through
// NextTask now: a reduce slot is free and no reducer launched here on this
// heartbeat (Hadoop 1's JobQueueTaskScheduler never assigns more than one
// reduce task per heartbeat; the FairScheduler does the same unless
// assignmultiple is set).
func (s *Sim) reduceSlotFree(n *Node) bool {
	return n.Reducers() < n.Spec.ReduceSlots && n.lastReduce != s.now
}

// slotOnlyOK reports whether a stage of this kind may request less than one
// vCore and one MB: reducers may, when every node has typed slots (they are
// then bounded by the reduce slots; a request of zero takes a reduce slot
// and nothing else, so schedulers that share memory share the map slots).
func (s *Sim) slotOnlyOK(k TaskKind) bool {
	if k != KindReduce {
		return false
	}
	for _, n := range s.Nodes {
		if !n.typed() {
			return false
		}
	}
	return true
}

// AsksFor reports whether t's job asks for t on node n now: NextTask
// offers only such tasks, and a policy that picks tasks itself (RAS's task
// scheduler) checks it, or it launches reducers the MapReduce AM has not
// asked for (Requestable: the AM ramps its reducers up, reduces.go), which
// can fill a YARN cluster with reducers while their maps wait. A typed
// TaskTracker's reduce slots are a capacity, which Launch checks, not an
// ask (Hadoop 1 has no AM).
func (s *Sim) AsksFor(t *Task, n *Node) bool {
	if !s.Requestable(t) {
		return false
	}
	return t.Kind != KindReduce || n.typed() || s.rampupAllows(t.Job, t.Stage)
}

// slotAllows gates stage st's next task for node n in NextTask: on a typed
// node a reducer needs a free reduce slot; elsewhere the ramp-up of a job
// whose AM the model does not run applies (rampupAllows).
func (s *Sim) slotAllows(j *Job, st *Stage, n *Node) bool {
	if st.Spec.Kind == KindReduce && n.typed() {
		return s.reduceSlotFree(n)
	}
	return s.rampupAllows(j, st)
}
