package sim

import (
	"fmt"
	"math"
	"slices"
)

// CheckInvariants verifies the model's conservation laws (DESIGN.md): node
// and cluster allocations equal the sum of their containers and guaranteed
// allocations never exceed capacity; usage sums are consistent; every task is
// in exactly one state and counted once; every job is in exactly one place.
// Tests call it after every event through Config.AfterEvent.
func CheckInvariants(s *Sim) error {
	var allocG, allocO Res
	var cpu, mem, cpuWork float64
	reserved := 0
	containersOf := map[int32]int{}
	// Finished containers not yet reported, per job: each job's unfreed
	// count, each on a node its list names (freeUnreported visits those).
	unreported := map[*Job]int{}
	// Stand-in (excess) containers hold allocations too, also those of jobs
	// a truncated run left unfinished.
	excessG, excessO := map[*Node]Res{}, map[*Node]Res{}
	for _, j := range s.Jobs {
		for _, st := range j.Stages {
			for _, e := range st.idle {
				if e.kind == Guaranteed {
					excessG[e.n] = excessG[e.n].Add(e.alloc)
				} else {
					excessO[e.n] = excessO[e.n].Add(e.alloc)
				}
			}
		}
		for _, e := range j.excess {
			if e.kind == Guaranteed {
				excessG[e.n] = excessG[e.n].Add(e.alloc)
			} else {
				excessO[e.n] = excessO[e.n].Add(e.alloc)
			}
		}
	}
	for _, n := range s.Nodes {
		var g, o Res
		var d Usage
		if len(n.slots) != len(n.Containers) {
			return fmt.Errorf("t=%d node %d: %d containers, %d slots", s.now, n.ID, len(n.Containers), len(n.slots))
		}
		for i, t := range n.Containers {
			if t.Node != n || t.pos != i {
				return fmt.Errorf("t=%d node %d: container %s has node/pos out of sync", s.now, n.ID, t)
			}
			if n.slots[i].cpu != t.Use.CPU {
				return fmt.Errorf("t=%d node %d: container %s uses %v CPU, its slot says %v", s.now, n.ID, t, t.Use.CPU, n.slots[i].cpu)
			}
			if t.State != TaskRunning && t.State != TaskSuspended {
				return fmt.Errorf("t=%d node %d: container %s is %v", s.now, n.ID, t, t.State)
			}
			if t.Container == Guaranteed {
				g = g.Add(t.Alloc)
			} else {
				o = o.Add(t.Alloc)
			}
			d = d.add(t.Use)
			containersOf[t.Job.ID]++
		}
		g, o = g.Add(excessG[n]), o.Add(excessO[n])
		for _, r := range n.releasing {
			unreported[r.job]++
			if !slices.Contains(r.job.relNodes, n.ID) {
				return fmt.Errorf("t=%d node %d: job %d's unreported container is not on its node list", s.now, n.ID, r.job.ID)
			}
			if r.kind == Guaranteed {
				g = g.Add(r.alloc)
			} else {
				o = o.Add(r.alloc)
			}
		}
		for _, h := range n.held {
			if h.kind == Guaranteed {
				g = g.Add(h.alloc)
			} else {
				o = o.Add(h.alloc)
			}
		}
		if g != n.Alloc || o != n.OppAlloc {
			return fmt.Errorf("t=%d node %d: allocation %v/%v, containers hold %v/%v", s.now, n.ID, n.Alloc, n.OppAlloc, g, o)
		}
		if !s.CalcOn(n).Fits(n.Alloc, n.Spec.Cap) {
			return fmt.Errorf("t=%d node %d: guaranteed allocation %v exceeds capacity %v", s.now, n.ID, n.Alloc, n.Spec.Cap)
		}
		if n.Alloc.VCores < 0 || n.Alloc.MemMB < 0 || n.OppAlloc.VCores < 0 || n.OppAlloc.MemMB < 0 {
			return fmt.Errorf("t=%d node %d: negative allocation", s.now, n.ID)
		}
		if !near(d.CPU, n.Demand.CPU) || !near(d.MemMB, n.Demand.MemMB) || !near(d.IOMBps, n.Demand.IOMBps) {
			return fmt.Errorf("t=%d node %d: demand %+v, containers use %+v", s.now, n.ID, n.Demand, d)
		}
		if n.typed() && n.Reducers() > n.Spec.ReduceSlots {
			return fmt.Errorf("t=%d node %d: %d reducers in %d reduce slots", s.now, n.ID, n.Reducers(), n.Spec.ReduceSlots)
		}
		if n.Reserved != nil && (n.resvAt >= len(s.reserved) || s.reserved[n.resvAt] != n) {
			return fmt.Errorf("t=%d node %d: reserved but not in the reserved list", s.now, n.ID)
		}
		if n.Reserved != nil {
			reserved++
		}
		if n.Reserved != nil && !n.staleResv && (n.Reserved.State != TaskPending || n.Reserved.Job.State != JobAdmitted) {
			return fmt.Errorf("t=%d node %d: reserved for %s which is %v", s.now, n.ID, n.Reserved, n.Reserved.State)
		}
		if err := s.checkConsumed(n); err != nil {
			return err
		}
		allocG, allocO = allocG.Add(g), allocO.Add(o)
		cpu += n.cpuUsedEff
		cpuWork += n.CPUWork(s.now)
		mem += d.MemMB
	}
	if reserved != len(s.reserved) {
		return fmt.Errorf("t=%d: %d nodes reserved, the reserved list holds %d", s.now, reserved, len(s.reserved))
	}
	if allocG != s.acct.allocG || allocO != s.acct.allocO {
		return fmt.Errorf("t=%d cluster allocation %v/%v, nodes hold %v/%v", s.now, s.acct.allocG, s.acct.allocO, allocG, allocO)
	}
	if !near(cpu, s.acct.cpuUsed) || !near(mem, s.acct.memUsed) {
		return fmt.Errorf("t=%d cluster usage %.3f/%.1f, nodes %.3f/%.1f", s.now, s.acct.cpuUsed, s.acct.memUsed, cpu, mem)
	}
	// The nodes' CPU work (what a NodeManager's monitor reads: Node.CPUWork)
	// adds up to the cluster's integral of the CPU consumed.
	if used := s.UsedVCoreMs() / 1000; !near(cpuWork, used) {
		return fmt.Errorf("t=%d: the nodes' CPU work %.6f vCore-s, the cluster's CPU used %.6f", s.now, cpuWork, used)
	}
	// Jobs arrive in order: those past s.arrived must all be in the future
	// (checked in O(1) through the counts below), the rest are checked fully.
	seen := s.arrived
	if s.ended {
		seen = len(s.Jobs) // the end re-labels every job: check them all once
	}
	counts := map[JobState]int{JobFuture: len(s.Jobs) - seen}
	if seen < len(s.Jobs) && s.Jobs[seen].State != JobFuture {
		return fmt.Errorf("t=%d: job %d has not arrived but is %v", s.now, seen, s.Jobs[seen].State)
	}
	for _, j := range s.Jobs[:seen] {
		if j.State == JobFuture && !s.ended {
			return fmt.Errorf("t=%d job %d: arrived but still in the future", s.now, j.ID)
		}
		counts[j.State]++
		if j.unfreed != unreported[j] {
			return fmt.Errorf("t=%d job %d: %d containers unfreed, %d awaiting their nodes' reports", s.now, j.ID, j.unfreed, unreported[j])
		}
		if j.Running != containersOf[j.ID] {
			return fmt.Errorf("t=%d job %d: %d containers counted, %d on nodes", s.now, j.ID, j.Running, containersOf[j.ID])
		}
		if j.State == JobAdmitted {
			if j.active < 0 || s.active[j.active] != j {
				return fmt.Errorf("t=%d job %d: admitted but not in the active list", s.now, j.ID)
			}
			if err := checkJobTasks(s, j); err != nil {
				return err
			}
		}
		if j.State == JobDone && j.Running != 0 {
			return fmt.Errorf("t=%d job %d: done with %d containers", s.now, j.ID, j.Running)
		}
	}
	k := 0
	for _, j := range s.active {
		if s.HasPending(j) {
			if k >= len(s.asking) || s.asking[k] != j || !j.asking {
				return fmt.Errorf("t=%d job %d: asks for containers but is not next in the asking set", s.now, j.ID)
			}
			k++
		} else if j.asking {
			return fmt.Errorf("t=%d job %d: in the asking set without a pending request", s.now, j.ID)
		}
	}
	if k != len(s.asking) {
		return fmt.Errorf("t=%d: %d jobs ask for containers, the asking set holds %d", s.now, k, len(s.asking))
	}
	for _, n := range s.Nodes {
		if n.asleep && (len(n.Containers) > 0 || n.Reserved != nil) {
			return fmt.Errorf("t=%d node %d: in the idle set with containers or a reservation", s.now, n.ID)
		}
	}
	if counts[JobWaiting] != len(s.waiting) || counts[JobAdmitted] != len(s.active) {
		return fmt.Errorf("t=%d: %d waiting / %d admitted jobs, lists hold %d / %d", s.now, counts[JobWaiting], counts[JobAdmitted], len(s.waiting), len(s.active))
	}
	if s.ended && counts[JobDone]+counts[JobStuck]+counts[JobUnfinished] != len(s.Jobs) {
		return fmt.Errorf("t=%d: run ended with jobs neither done, stuck nor unfinished", s.now)
	}
	if counts[JobDone]+s.jobsLeft != len(s.Jobs) {
		return fmt.Errorf("t=%d: %d done + %d left != %d jobs", s.now, counts[JobDone], s.jobsLeft, len(s.Jobs))
	}
	return checkEpoch(s)
}

// checkEpoch: while Handle.Epoch stays the same, nothing it promises to
// follow has changed (containers and their allocations, task states, idle
// executors, the active and finishing jobs): a fingerprint of all of them
// taken at the last check must still match.
func checkEpoch(s *Sim) error {
	h := uint64(len(s.active))<<32 ^ uint64(len(s.finishing))
	add := func(v uint64) { h = mix64(h ^ v) }
	res := func(r Res) { add(uint64(r.VCores)); add(uint64(r.MemMB)) }
	res(s.acct.allocG)
	res(s.acct.allocO)
	for _, list := range [][]*Job{s.active, s.finishing} {
		for _, j := range list {
			add(uint64(j.ID))
			res(j.Alloc)
			res(j.OppAlloc)
			if j.AM != nil {
				add(uint64(j.AM.State))
				add(uint64(j.AM.Container))
			}
			for _, st := range j.Stages {
				add(uint64(st.heldG))
				for _, e := range st.idle {
					add(uint64(e.kind))
					res(e.alloc)
				}
				for _, t := range st.Tasks {
					add(uint64(t.State)<<8 | uint64(t.Container))
					res(t.Alloc)
				}
			}
		}
	}
	if s.inv.checked && s.inv.epoch == s.epoch && s.inv.print != h {
		return fmt.Errorf("t=%d: containers, task states or the job lists changed without Epoch moving (%d)", s.now, s.epoch)
	}
	s.inv.checked, s.inv.epoch, s.inv.print = true, s.epoch, h
	return nil
}

func checkJobTasks(s *Sim, j *Job) error {
	left := 0
	for _, st := range j.Stages {
		done, pending, gated, heldG := 0, 0, 0, 0
		for _, t := range st.Tasks {
			if t.gated {
				gated++
			}
			if (t.State == TaskRunning || t.State == TaskSuspended) && t.Container == Guaranteed {
				heldG++
			}
			switch t.State {
			case TaskDone:
				done++
				if t.Node != nil || t.FinishMs < 0 {
					return fmt.Errorf("t=%d %s: done but still placed", s.now, t)
				}
			case TaskPending:
				pending++
				if t.Node != nil {
					return fmt.Errorf("t=%d %s: pending but on node %d", s.now, t, t.Node.ID)
				}
			default:
				if t.Node == nil {
					return fmt.Errorf("t=%d %s: %v without a node", s.now, t, t.State)
				}
				if err := checkPoll(s, t); err != nil {
					return err
				}
			}
		}
		if heldG != st.heldG {
			return fmt.Errorf("t=%d job %d stage %d: %d tasks hold a guaranteed container, %d counted", s.now, j.ID, st.Index, heldG, st.heldG)
		}
		if m := st.Spec.MaxRunning; m > 0 {
			// A capped stage's AM may be given more, and releases those
			// beyond m at its heartbeat (capped.go): it holds at most m.
			if held := st.Held(); held > m && (!st.capped || st.cappedHeld() > m) {
				return fmt.Errorf("t=%d job %d stage %d: %d containers, at most %d", s.now, j.ID, st.Index, held, m)
			}
		}
		if len(st.idle) > 0 && pending > 0 && !st.waitReg {
			// An idle executor runs a pending partition at once, once its
			// driver schedules tasks (executors.go).
			return fmt.Errorf("t=%d job %d stage %d: %d idle executors while %d partitions wait", s.now, j.ID, st.Index, len(st.idle), pending)
		}
		if gated != st.gated {
			return fmt.Errorf("t=%d job %d stage %d: %d tasks gated, counted %d", s.now, j.ID, st.Index, gated, st.gated)
		}
		if done != st.Done {
			return fmt.Errorf("t=%d job %d stage %d: %d tasks done, counted %d", s.now, j.ID, st.Index, done, st.Done)
		}
		if st.Released && pending != st.Pending {
			return fmt.Errorf("t=%d job %d stage %d: %d tasks pending, counted %d", s.now, j.ID, st.Index, pending, st.Pending)
		}
		left += len(st.Tasks) - done
	}
	if left != j.tasksLeft {
		return fmt.Errorf("t=%d job %d: %d tasks left, counted %d", s.now, j.ID, left, j.tasksLeft)
	}
	return nil
}

func near(a, b float64) bool {
	return math.Abs(a-b) <= 1e-6*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// checkPoll: a reducer in a container knows of no more finished maps than
// have finished, and one that does not know of them all has a poll due, no
// later than its node's next event (Model.ShuffleEventPollMs).
func checkPoll(s *Sim, t *Task) error {
	if t.Stage.Index == 0 || s.model.ShuffleEventPollMs < 0 {
		return nil
	}
	done := int32(t.Job.Stages[t.Stage.Index-1].Done)
	n := t.Node
	switch {
	case t.known > done:
		return fmt.Errorf("t=%d %s: knows of %d finished maps, %d have finished", s.now, t, t.known, done)
	case t.known < done && t.pollAt < s.now:
		return fmt.Errorf("t=%d %s: knows of %d of %d finished maps, and no poll is due (poll at %d)", s.now, t, t.known, done, t.pollAt)
	case t.known < done && (n.pollAt < 0 || n.pollAt > t.pollAt || n.boundaryAt < 0 || n.boundaryAt > n.pollAt):
		return fmt.Errorf("t=%d %s: poll at %d, but node %d's next poll is %d and its next event %d", s.now, t, t.pollAt, n.ID, n.pollAt, n.boundaryAt)
	}
	return nil
}

// checkConsumed checks, on a node recomputed since it last changed, every
// running task's idle part (slot.wait) against rateOf at the node's shares
// and the node's consumed CPU against cpuConsumed made afresh.
func (s *Sim) checkConsumed(n *Node) error {
	if n.dirty {
		return nil
	}
	for i, sl := range n.slots {
		if sl.flags&(slotDirty|slotRate) != 0 {
			return nil // not recomputed yet
		}
		want := 0.0
		t := n.Containers[i]
		if sl.flags&slotRun != 0 && sl.flags&slotGated == 0 && t.stall <= s.now {
			_, want = s.rateOf(t, n, n.shares[0], n.shares[1], n.shares[2])
		}
		if sl.wait != want {
			return fmt.Errorf("t=%d node %d: %s waits %v of its CPU share, its rate says %v", s.now, n.ID, t, sl.wait, want)
		}
	}
	if used := s.cpuConsumed(n, n.shares[0]); used != n.cpuUsedEff {
		return fmt.Errorf("t=%d node %d: consumes %v CPU, its containers %v", s.now, n.ID, n.cpuUsedEff, used)
	}
	return nil
}
