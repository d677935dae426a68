package sim

// A stage's pending tasks wait in its queue (Stage.queue, in request order)
// and, for maps, in lists by the nodes and racks holding their input
// blocks (Stage.byNode, Stage.byRack), which NextTask consults for
// locality.

// enqueue puts pending t in its stage's queues; front puts it first (a
// killed attempt goes back to the head of the line). ask says the AM asks
// for it anew (a stage asking by location counts its requests, asks.go).
func (s *Sim) enqueue(t *Task, front, ask bool) {
	s.enqueueLine(t, front, ask)
	if len(t.Replicas) > 0 {
		st := t.Stage
		if st.byNode == nil {
			// Sized once for the stage's blocks (no rehashing as it fills).
			st.byNode = make(map[int32][]*Task, min(len(st.Tasks)*len(t.Replicas), len(s.Nodes)))
			st.byRack = make(map[int][]*Task, min(len(st.Tasks)*len(t.Replicas), s.racks))
		}
		for _, r := range t.Replicas {
			st.byNode[r] = append(st.byNode[r], t)
			rack := int(s.rackOf[r])
			if l := st.byRack[rack]; len(l) == 0 || l[len(l)-1] != t {
				st.byRack[rack] = append(l, t)
			}
		}
	}
}

// enqueueReleased enqueues the pending tasks of stage st, just released,
// in order, as enqueue(t, false, true) does one by one. A stage with no
// lists by location yet has them built at once: each node's and rack's
// list is carved from one array, and the maps get one entry each, instead
// of growing every list and looking it up at every replica (a stage of
// 1,000 maps has 3,000 replicas).
func (s *Sim) enqueueReleased(st *Stage) {
	if st.byNode != nil {
		for _, t := range st.Tasks {
			if t.State == TaskPending {
				s.enqueue(t, false, true)
			}
		}
		return
	}
	if s.locNode == nil {
		s.locNode = make([][]*Task, len(s.Nodes))
		s.locRack = make([][]*Task, s.racks)
	}
	// Count each node's and rack's tasks (a task once per rack, as
	// enqueue's check of the list's last task has it), in the scratch
	// lists' lengths.
	nodes, racks := s.locNodes[:0], s.locRacks[:0]
	total := 0
	for _, t := range st.Tasks {
		if t.State != TaskPending || len(t.Replicas) == 0 {
			continue
		}
		for _, r := range t.Replicas {
			l := s.locNode[r]
			if len(l) == 0 {
				nodes = append(nodes, r)
			}
			s.locNode[r] = append(l, t)
			rack := s.rackOf[r]
			if l := s.locRack[rack]; len(l) == 0 || l[len(l)-1] != t {
				if len(l) == 0 {
					racks = append(racks, rack)
				}
				s.locRack[rack] = append(l, t)
			}
			total++
		}
	}
	for _, t := range st.Tasks {
		if t.State == TaskPending {
			s.enqueueLine(t, false, true)
		}
	}
	if len(nodes) > 0 {
		for _, rack := range racks {
			total += len(s.locRack[rack])
		}
		buf := make([]*Task, 0, total)
		st.byNode = make(map[int32][]*Task, len(nodes))
		st.byRack = make(map[int][]*Task, len(racks))
		for _, r := range nodes {
			k := len(buf)
			buf = append(buf, s.locNode[r]...)
			st.byNode[r] = buf[k:len(buf):len(buf)]
			clear(s.locNode[r])
			s.locNode[r] = s.locNode[r][:0]
		}
		for _, rack := range racks {
			k := len(buf)
			buf = append(buf, s.locRack[rack]...)
			st.byRack[int(rack)] = buf[k:len(buf):len(buf)]
			clear(s.locRack[rack])
			s.locRack[rack] = s.locRack[rack][:0]
		}
	}
	s.locNodes, s.locRacks = nodes, racks
}

// enqueueLine is enqueue without the lists by location.
func (s *Sim) enqueueLine(t *Task, front, ask bool) {
	st := t.Stage
	st.Pending++
	if ask {
		// A new ContainerRequest (RMContainerRequestor.ContainerRequest:
		// requestTimeMs), made by the AM once it has registered.
		t.reqMs = max(s.now, t.Job.amReadyMs)
	}
	if ask && st.asks != nil {
		s.amAsk(st.asks, t, +1)
	}
	if front {
		if st.head > 0 {
			st.head--
			st.queue[st.head] = t
		} else {
			st.queue = append([]*Task{t}, st.queue...)
		}
	} else {
		st.queue = append(st.queue, t)
	}
}
