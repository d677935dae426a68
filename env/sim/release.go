package sim

import "slices"

// A finished container's resources are freed when its node manager next
// heartbeats: the ResourceManager learns of a completed container from the
// node's heartbeat and processes it before it schedules on that node
// (AbstractYarnScheduler.nodeUpdate). Until then the job, its queue and the
// node still hold them, which the other nodes' heartbeats see (a job's
// usage in the FairScheduler's order, a queue's in the CapacityScheduler's,
// the cluster's unallocated vCores in Fair's AM limit). A killed container
// is freed at once. Model.ImmediateRelease frees every container at its
// process's end instead.

// released is a finished container not yet freed.
type released struct {
	job   *Job
	alloc Res
	kind  ContainerKind
	am    bool
	stage *Stage // the task's stage, nil for an AM
}

// free returns a container's resources to its node, job and the cluster.
func (s *Sim) free(n *Node, j *Job, alloc Res, kind ContainerKind) {
	s.epoch++ // Epoch: containers, task states or the job lists change
	s.freeNode(n, alloc, kind)
	if kind != Guaranteed {
		j.OppAlloc = j.OppAlloc.Sub(alloc)
	}
	j.Alloc = j.Alloc.Sub(alloc)
}

// freeNode returns a container's resources to its node and the cluster.
func (s *Sim) freeNode(n *Node, alloc Res, kind ContainerKind) {
	s.epoch++ // Epoch: containers, task states or the job lists change
	s.acct.resv(s.now)
	if kind == Guaranteed {
		n.Alloc = n.Alloc.Sub(alloc)
		s.acct.allocG = s.acct.allocG.Sub(alloc)
	} else {
		n.OppAlloc = n.OppAlloc.Sub(alloc)
		s.acct.allocO = s.acct.allocO.Sub(alloc)
	}
}

// A preempted container (Preempt) is freed in its job and queue at once,
// but on its node only when the node manager reports it complete: the
// ResourceManager's kill reaches the node manager in its next heartbeat's
// response, and the completion comes back in the heartbeat after
// (SchedulerNode.releaseContainer waits for the node). Until then the node
// holds it.

// heldContainer is a preempted container its node still holds.
type heldContainer struct {
	alloc  Res
	kind   ContainerKind
	freeAt Ms
}

// hold keeps a preempted container on node n until its second heartbeat
// after now, with an event just before that heartbeat to free it.
func (s *Sim) hold(n *Node, alloc Res, kind ContainerKind) {
	s.epoch++ // Epoch: containers, task states or the job lists change
	hb := s.model.HeartbeatMs
	off := s.beatOffset(n.ID)
	next := off
	if s.now >= off {
		next = off + ((s.now-off)/hb+1)*hb // strictly after now
	}
	at := next + hb
	n.held = append(n.held, heldContainer{alloc, kind, at})
	s.queue.push(event{at: at, seq: s.nodeSideSeq(), ord: beatOrd(n.ID) - 1, id: n.ID, kind: evUnhold})
}

// unhold frees node n's preempted containers due by now.
func (s *Sim) unhold(n *Node) {
	s.epoch++ // Epoch: containers, task states or the job lists change
	kept := n.held[:0]
	for _, h := range n.held {
		if h.freeAt <= s.now {
			s.freeNode(n, h.alloc, h.kind)
		} else {
			kept = append(kept, h)
		}
	}
	clear(n.held[len(kept):])
	n.held = kept
	s.markDirty(n)
}

// releaseLater frees a finished container at node n's next heartbeat: an
// event just before it, so that it happens at that instant whether or not
// the heartbeat itself is processed (idle.go).
func (s *Sim) releaseLater(n *Node, j *Job, alloc Res, kind ContainerKind, am bool, st *Stage) {
	s.epoch++ // Epoch: containers, task states or the job lists change
	n.releasing = append(n.releasing, released{j, alloc, kind, am, st})
	j.unfreed++
	if k := len(j.relNodes); k == 0 || j.relNodes[k-1] != n.ID {
		j.relNodes = append(j.relNodes, n.ID)
	}
	if am {
		s.finishing = append(s.finishing, j)
	}
	if n.releaseDue >= 0 {
		return
	}
	hb := s.model.HeartbeatMs
	off := s.beatOffset(n.ID)
	at := off + ((s.now-off)/hb+1)*hb
	if s.now < off {
		at = off
	}
	if s.now >= off && (s.now-off)%hb == 0 {
		// Now is one of n's heartbeat instants. A process that exits
		// before that heartbeat is reported by it (the exit was scheduled
		// first; Hadoop's NodeStatusUpdater sends what has completed).
		if s.cur.kind == evHeartbeat && s.cur.id == n.ID && s.cur.at == s.now {
			n.releaseDue = s.now // the heartbeat frees it once the node is advanced
			return
		}
		if s.pos.at < s.now || s.pos.ord < beatOrd(n.ID) {
			at = s.now // before the heartbeat (after this event, if it is n's release)
		}
	}
	n.releaseDue = at
	s.queue.push(event{at: at, seq: s.nodeSideSeq(), ord: beatOrd(n.ID) - 1, id: n.ID, kind: evRelease})
}

// release frees node n's finished containers. A finished job's AM
// container among them has its application removed right after the node's
// heartbeat (removeApps): the node reports the AM container complete in
// its heartbeat, the ResourceManager removes the attempt afterwards
// (RMAppAttemptImpl's AM container finished, then
// AppAttemptRemovedSchedulerEvent), so that heartbeat's scheduling still
// counts its AM against the AM limits.
func (s *Sim) release(n *Node) {
	s.epoch++ // Epoch: containers, task states or the job lists change
	for _, r := range n.releasing {
		s.free(n, r.job, r.alloc, r.kind)
		if r.job.unfreed--; r.job.unfreed == 0 {
			r.job.relNodes = r.job.relNodes[:0]
		}
		if r.stage != nil && r.stage.unreported > 0 {
			r.stage.freedSince++
		}
		if !r.am {
			s.cappedReported(r.job, 1)
		}
		s.touch(r.job)
		if r.am {
			if len(n.removing) == 0 {
				s.seq++
				s.queue.push(event{at: s.now, seq: s.seq, ord: beatOrd(n.ID) + 1, id: n.ID, kind: evRemoveApps})
			}
			n.removing = append(n.removing, r.job)
		}
	}
	clear(n.releasing)
	n.releasing = n.releasing[:0]
	n.releaseDue = -1
	s.markDirty(n)
}

// removeApps removes the applications of the ended jobs whose AM
// containers node n reported complete: the schedulers stop counting their
// AMs (FSLeafQueue's AM usage, the CapacityScheduler's activated AMs), and
// the CapacityScheduler activates waiting applications (LeafQueue.
// removeApplicationAttempt).
//
// Removing an application releases its containers the nodes have not yet
// reported complete (FairScheduler/CapacityScheduler.doneApplicationAttempt
// completes every live container of the attempt): the cluster has them
// back now, not at their nodes' next heartbeats.
func (s *Sim) removeApps(n *Node) {
	s.epoch++ // Epoch: containers, task states or the job lists change
	for _, j := range n.removing {
		if i := slices.Index(s.finishing, j); i >= 0 {
			s.finishing = slices.Delete(s.finishing, i, i+1)
		}
		if j.unfreed > 0 {
			s.freeUnreported(j)
		}
		j.relNodes = nil // its array, kept while it ran, goes with the application
		s.retire(j)
	}
	clear(n.removing)
	n.removing = n.removing[:0]
	if len(s.waiting) > 0 && !s.ended {
		s.tryAdmit()
	}
}

// Finishing returns the jobs that have ended but whose AM container its
// node has not yet reported complete: the schedulers still hold their
// applications (their AMs count against the AM limits) until then.
func (s *Sim) Finishing() []*Job { return s.finishing }

// freeUnreported frees ended job j's finished containers that their nodes
// have not reported yet (removeApps), node by node in the order of their
// IDs. Only the nodes j's unreported containers were on are visited
// (Job.relNodes), not every node: on 50,000 nodes a scan of all of them at
// each job's end cost 6 % of scale-50k's CPU.
func (s *Sim) freeUnreported(j *Job) {
	s.epoch++ // Epoch: containers, task states or the job lists change
	ids := j.relNodes
	slices.Sort(ids)
	for _, id := range slices.Compact(ids) {
		m := s.Nodes[id]
		if len(m.releasing) == 0 {
			continue
		}
		kept := m.releasing[:0]
		for _, r := range m.releasing {
			if r.job != j {
				kept = append(kept, r)
				continue
			}
			s.free(m, j, r.alloc, r.kind)
			j.unfreed--
			s.markDirty(m)
		}
		clear(m.releasing[len(kept):])
		m.releasing = kept
		if j.unfreed == 0 {
			return
		}
	}
}
