package sim

import "math"

// epsWork is the work (nominal seconds) below which a phase counts as done:
// boundary events are rounded up to whole milliseconds, so a phase that should
// end at the event may be left with float dust.
const epsWork = 1e-6

// ceilMs rounds a time in milliseconds up to a whole one, float dust
// within 1e-6 ms of a whole millisecond rounded to it (a phase that ends
// at 27,420 ms computed as 27,420.000000001 ends then, as the oracle's
// driver computes it: oracle/FORMAT.md), so that no end slips by 1 ms.
func ceilMs(ms float64) Ms {
	if r := math.Round(ms); math.Abs(ms-r) <= 1e-6 {
		return Ms(r)
	}
	return Ms(math.Ceil(ms))
}

func (s *Sim) markDirty(n *Node) {
	if !n.dirty {
		n.dirty = true
		s.dirty = append(s.dirty, n)
	}
}

// flushDirty recomputes rates and the next boundary of every node changed by
// the event just handled. Doing it once per event, after every change, keeps
// a node's rates consistent whatever order the changes came in.
func (s *Sim) flushDirty() {
	// Recomputing one node never dirties another, but be safe and loop; the
	// two buffers are reused so the hot path does not allocate.
	for len(s.dirty) > 0 {
		d := s.dirty
		s.dirty, s.dirtySpare = s.dirtySpare[:0], d
		for _, n := range d {
			n.dirty = false
			// A node dirtied by another node's event (a map's end ungating a
			// reducer here) must be brought up to now before its rates change.
			s.advance(n)
			s.recompute(n)
		}
	}
}

// advance brings every container on n up to now at its current rate and
// settles any phase that has ended.
func (s *Sim) advance(n *Node) {
	dt := s.now - n.lastAdvance
	if dt <= 0 {
		return
	}
	n.lastAdvance = s.now
	if n.swapping {
		n.SwapMs += dt
	}
	sec := float64(dt) / 1000
	ended := false
	slots := n.slots
	for i := range slots {
		if sl := &slots[i]; sl.rate > 0 {
			sl.left -= sl.rate * sec
			if sl.left <= epsWork {
				ended = true
			}
		}
	}
	if ended {
		s.settle(n)
	}
}

// settle moves tasks past finished phases and completes finished tasks.
func (s *Sim) settle(n *Node) {
	for i := 0; i < len(n.Containers); {
		t, sl := n.Containers[i], &n.slots[i]
		if sl.left > epsWork || t.Kind == KindAM || t.State != TaskRunning {
			i++
			continue
		}
		for sl.left <= epsWork && t.phase < len(t.phases) {
			t.phase++
			if t.phase < len(t.phases) {
				sl.left += t.work(t.phase)
			}
		}
		if t.phase >= len(t.phases) {
			// complete removes t, and its job's AM when the job ends, which
			// may sit before t: rescan from the start.
			s.complete(t)
			i = 0
			continue
		}
		s.setUsage(t, n)
		s.markDirty(n)
		i++
	}
}

// sampleUsage redraws the actual usage of every container on n.
func (s *Sim) sampleUsage(n *Node) {
	if len(n.Containers) == 0 {
		return
	}
	for _, t := range n.Containers {
		// A new draw moves the task's usage, not its slot's state, nor its
		// rate unless the task is shrunk (rateOf reads the usage of a
		// shrunk task only): a slot that was clean stays so, and recompute
		// takes the new demand without recomputing its rate.
		sl := &n.slots[t.pos]
		clean := sl.flags&slotDirty == 0 && t.shrunk == 0
		s.setUsage(t, n)
		if clean {
			sl.flags &^= slotDirty
		}
	}
	s.markDirty(n)
}

// setUsage draws t's actual usage for its current phase: the phase's level
// times the request, moved by seeded relative fluctuation (memory moves a
// fifth as much as CPU: resident memory is steadier than CPU, as the SLS
// curves show), capped at the container's allocation. The fluctuation is
// redrawn at usage samples and phase changes only.
func (s *Sim) setUsage(t *Task, n *Node) {
	t.jitCPU, t.jitMem, t.jitIO = 1, 1, 1
	if jit := t.jitter(); jit > 0 && t.phase < len(t.phases) {
		// A factor is read only times its level in this phase
		// (applyUsage): one whose level is 0 is not drawn, and the
		// stream moves on as if it had been (normSkip), so every later
		// draw is the same.
		ph := &t.phases[t.phase]
		r := Rand{state: t.rngSeed}
		if ph.CPU != 0 {
			t.jitCPU = clampFactor(1 + jit*r.NormFloat64())
		} else {
			r.normSkip()
		}
		if ph.Mem != 0 {
			t.jitMem = clampFactor(1 + 0.2*jit*r.NormFloat64())
		} else {
			r.normSkip()
		}
		if ph.IOMBps != 0 {
			t.jitIO = clampFactor(1 + jit*r.NormFloat64())
		} else {
			r.normSkip()
		}
		t.rngSeed = r.state
	}
	s.applyUsage(t, n)
}

// applyUsage recomputes t's usage from its phase, its current fluctuation
// and its state (gated, suspended, shrunk) without a new draw: a reducer
// that starts or stops waiting for maps changes its level, not its noise.
func (s *Sim) applyUsage(t *Task, n *Node) {
	var u Usage
	if t.phase < len(t.phases) {
		ph := &t.phases[t.phase]
		cpu, mem, io := ph.CPU*t.jitCPU, ph.Mem*t.jitMem, ph.IOMBps*t.jitIO
		if t.gated {
			cpu *= s.model.GatedCPU
			io *= s.model.GatedCPU
		}
		if t.absolute() {
			u.CPU, u.MemMB = cpu, mem
		} else {
			u.CPU = math.Min(cpu*float64(t.Req.VCores), float64(t.Req.VCores))
			u.MemMB = math.Min(mem, 1) * float64(t.Req.MemMB)
		}
		u.IOMBps = io
		if t.State == TaskSuspended {
			u.CPU, u.IOMBps = 0, 0
			if t.swapped > 0 {
				u.MemMB = 0 // paged out (SwapOut)
			}
		}
		if t.shrunk > 0 && u.CPU > float64(t.shrunk) {
			u.CPU = float64(t.shrunk)
		}
		if t.Alloc.MemMB < t.Req.MemMB && u.MemMB > float64(t.Alloc.MemMB) {
			u.MemMB = float64(t.Alloc.MemMB) // launched shrunk (LaunchShrunk)
		}
	}
	s.acct.mem(s.now)
	s.acct.memUsed += u.MemMB - t.Use.MemMB
	n.Demand = n.Demand.sub(t.Use).add(u)
	t.Use = u
	sl := &n.slots[t.pos]
	sl.flags |= slotDirty
	sl.cpu = u.CPU
}

func clampFactor(f float64) float64 {
	if f < 0.05 {
		return 0.05
	}
	if f > 2 {
		return 2
	}
	return f
}

func (t *Task) jitter() float64 { return t.jit }

func (t *Task) absolute() bool { return t.abs }

// recompute sets every container's rate from the node's contention and
// schedules the node's next phase boundary.
//
// CPU is shared in proportion to demand (processor sharing): when the demand
// D exceeds capacity C each task gets C/D of what it asks. The disk is shared
// the same way but loses throughput to the seeks between competing streams:
// when the IO demand D exceeds DiskMBps C it delivers C*(C/D)^a in total,
// a = Model.DiskThrashExponent, so each IO phase gets (C/D)^(1+a) of what it
// asks (a = 0 is ideal sharing). A phase progresses at the share of the
// scarcer resource it uses, so CPU-only phases never see the disk's loss.
// Memory overcommit slows every task on the node by (C/D)^SwapExponent
// (swapping).
func (s *Sim) recompute(n *Node) {
	slots := n.slots
	// One pass over the containers: a slot whose task changed (applyUsage
	// marks it) takes its state again; a reducer that has caught up with the
	// finished maps idles (gated) at a lower usage, which the shares below
	// must see; and, with the rates as they are, the time to each phase end
	// or shuffle gate. The rates hold if the shares come out unchanged and no
	// slot needs a new one; else a second pass recomputes them (and the
	// times) from the gates kept here (nothing they depend on changes in
	// between).
	if n.pollAt >= 0 && n.pollAt <= s.now {
		s.applyPolls(n)
	}
	instant := s.model.ShuffleEventPollMs < 0
	gates := s.gateBuf[:0]
	lastPrev := int32(-1)
	lastFrac, lastLen := 0.0, 0.0
	next := math.Inf(1)
	again := false
	waiting := false // a task here may wait on its disk, a remote read or swap
	for i := range slots {
		sl := &slots[i]
		if sl.flags&slotDirty != 0 {
			sl.refresh(n.Containers[i])
		}
		g := 0.0
		if sl.flags&(slotRun|slotShuffle) == slotRun|slotShuffle {
			g = sl.left
			if sl.prev >= 0 {
				if sl.prev != lastPrev {
					p := s.stages[sl.prev]
					lastPrev, lastFrac, lastLen = sl.prev, float64(p.Done)/float64(len(p.Tasks)), float64(len(p.Tasks))
				}
				frac := lastFrac
				if !instant {
					frac = float64(n.Containers[i].known) / lastLen
				}
				if frac < 1 {
					g = sl.total*frac - (sl.total - sl.left)
				}
			}
			if gated := g <= epsWork; gated != (sl.flags&slotGated != 0) {
				t := n.Containers[i]
				t.setGated(gated)
				s.applyUsage(t, n)
				// Only the gate changed: no refresh, a new rate.
				sl.flags = (sl.flags^slotGated)&^slotDirty | slotRate
			}
		}
		gates = append(gates, g)
		if sl.flags&slotRun == 0 || sl.flags&slotGated != 0 {
			sl.rate, sl.wait = 0, 0
			continue
		}
		waiting = waiting || sl.wait > 0
		if sl.flags&(slotRate|slotStall) != 0 {
			again = true
			continue
		}
		until := sl.left
		if sl.flags&slotShuffle != 0 && g < until {
			until = g
		}
		if dt := until / sl.rate; dt < next {
			next = dt
		}
	}
	s.gateBuf = gates
	d := n.Demand
	capCPU := n.cores
	cpuShare, ioShare, memFactor := 1.0, 1.0, 1.0
	if d.CPU > capCPU {
		cpuShare = capCPU / d.CPU
	}
	if n.diskMBps > 0 && d.IOMBps > n.diskMBps {
		ioShare = n.diskMBps / d.IOMBps
		if a := s.model.DiskThrashExponent; a > 0 {
			ioShare = math.Pow(ioShare, 1+a)
		}
	}
	n.swapping = d.MemMB > n.memCap
	if n.swapping {
		memFactor = math.Pow(n.memCap/d.MemMB, s.model.SwapExponent)
	}
	if s.model.Uncontended {
		cpuShare, ioShare, memFactor = 1, 1, 1
		n.swapping = false
	}
	// A rate depends on the node's shares and its task's state: while
	// neither changed since the last recompute it is still right.
	shares := [3]float64{cpuShare, ioShare, memFactor}
	if moved := shares != n.shares; moved || again {
		n.shares = shares
		var w bool
		next, w = s.rates(n, gates, moved, cpuShare, ioShare, memFactor)
		waiting = waiting || w
	}
	used := min(d.CPU, capCPU)
	if waiting {
		used = s.cpuConsumed(n, cpuShare)
	}
	s.acct.cpu(s.now)
	s.acct.cpuUsed += used - n.cpuUsedEff
	n.cpuWork = n.CPUWork(s.now)
	n.cpuWorkAt = s.now
	n.cpuUsedEff = used
	at := Ms(-1)
	if !math.IsInf(next, 1) {
		at = s.now + ceilMs(next*1000)
		if at <= s.now {
			at = s.now + 1
		}
	}
	if n.pollAt >= 0 && (at < 0 || n.pollAt < at) {
		at = n.pollAt // a reducer here learns of finished maps
	}
	if at == n.boundaryAt {
		return // the pending boundary event is still right
	}
	n.boundaryAt = at
	if at < 0 {
		s.bounds.remove(n.ID)
		return
	}
	// A new event in the model's terms: it is ordered as if scheduled now.
	s.seq++
	s.bounds.set(event{at: at, seq: s.seq, ord: s.tieOrd(at), id: n.ID, kind: evBoundary}, s.now)
}

// rates sets the rate (and slot.wait) of every running container whose
// task changed (or of all when the shares moved) from its node's shares,
// and returns the time (s) to the first phase end, shuffle gate or end of a
// stall, and whether a container it set waits (cpuConsumed then sums the
// node's waits).
func (s *Sim) rates(n *Node, gates []float64, moved bool, cpuShare, ioShare, memFactor float64) (next float64, waiting bool) {
	next = math.Inf(1)
	slots := n.slots
	for i := range slots {
		sl := &slots[i]
		if sl.flags&slotRun == 0 || sl.flags&slotGated != 0 {
			sl.rate, sl.wait = 0, 0
			continue
		}
		if sl.flags&slotStall != 0 {
			t := n.Containers[i]
			if t.stall > s.now {
				// Waiting for its AM to start it (Model.AMHeartbeatMs), or
				// paging its data back in after a swapped-out suspension.
				sl.rate, sl.wait = 0, 0
				if dt := float64(t.stall-s.now) / 1000; dt < next {
					next = dt
				}
				continue
			}
			t.stall = 0
			sl.flags = sl.flags&^slotStall | slotRate
		}
		if moved || sl.flags&(slotRate|slotStall) != 0 {
			sl.rate, sl.wait = s.rateOf(n.Containers[i], n, cpuShare, ioShare, memFactor)
			sl.flags &^= slotRate
			waiting = waiting || sl.wait > 0
		}
		until := sl.left
		if sl.flags&slotShuffle != 0 && gates[i] < until {
			until = gates[i]
		}
		if dt := until / sl.rate; dt < next {
			next = dt
		}
	}
	return next, waiting
}

// rateOf is the rate of running task t in its phase, given its node's CPU
// and IO shares and memory (swap) factor, and the part of its CPU share it
// leaves idle (slot.wait): what its disk, a remote read, swap or a spill
// take from the rate its CPU share alone would give.
func (s *Sim) rateOf(t *Task, n *Node, cpuShare, ioShare, memFactor float64) (rate, wait float64) {
	ph := &t.phases[t.phase]
	if ph.Wall {
		return 1, 0
	}
	share := 1.0
	if ph.CPU > 0 {
		share = cpuShare
		if t.shrunk > 0 && t.Use.CPU > 0 && t.Use.CPU >= float64(t.shrunk) {
			// setUsage capped the CPU at the shrunk size: progress
			// scales with what the phase wanted against what it gets.
			want := ph.CPU
			if !t.absolute() {
				want *= float64(t.Req.VCores)
			}
			if want > float64(t.shrunk) {
				share *= float64(t.shrunk) / want
			}
		}
	}
	cpuRate := n.speed * share
	if ph.IOMBps > 0 && ioShare < share {
		share = ioShare
	}
	rate = n.speed * memFactor * share
	if ph.Spill && t.Alloc.MemMB < t.Req.MemMB {
		// A smaller sort buffer spills proportionally more often.
		rate *= float64(t.Alloc.MemMB) / float64(t.Req.MemMB)
	}
	if ph.Read {
		switch t.Locality {
		case RackLocal:
			rate *= s.model.RackReadFactor
		case OffRack:
			rate *= s.model.OffRackReadFactor
		}
	}
	if ph.CPU > 0 && cpuRate > 0 && rate < cpuRate {
		wait = 1 - rate/cpuRate
	}
	return rate, wait
}

// cpuConsumed is the CPU node n's containers consume: their demand, capped
// at the node's cores (each task gets cpuShare of its demand), less what
// the tasks that wait on their disk, a remote read or swap leave idle of
// their share (slot.wait). A task's CPU work thus follows its progress, as
// a node's CPU utilisation counts it: time a task spends waiting for I/O
// is iowait, not CPU used (iKayak Sec. 5.1, Fig. 7(c): the "CPU
// utilization" of the machines). Without waiting tasks it is min(demand,
// cores).
func (s *Sim) cpuConsumed(n *Node, cpuShare float64) float64 {
	used := min(n.Demand.CPU, n.cores)
	idle := 0.0
	for i := range n.slots {
		if w := n.slots[i].wait; w > 0 {
			idle += n.slots[i].cpu * w
		}
	}
	if idle > 0 {
		used = max(used-cpuShare*idle, 0)
	}
	return used
}

// Slot flags: what recompute needs of a container's task without reading it.
const (
	slotDirty   uint8 = 1 << iota // the task changed: refresh the flags below and the rate
	slotRate                      // the rate is to be recomputed
	slotRun                       // running, not an AM, in a phase
	slotShuffle                   // in a shuffle phase
	slotGated                     // Task.gated
	slotStall                     // Task.stall is set: look at it every time
)

// refresh takes t's state into its slot; its rate is then recomputed.
func (sl *slot) refresh(t *Task) {
	sl.flags = slotRate
	sl.prev = -1
	if t.State == TaskRunning && t.Kind != KindAM && t.phase < len(t.phases) {
		sl.flags |= slotRun
		if t.phases[t.phase].Shuffle {
			sl.flags |= slotShuffle
			if st := t.Stage; st.Index > 0 {
				sl.prev = t.Job.Stages[st.Index-1].id
				sl.total = t.work(t.phase)
			}
		}
	}
	if t.gated {
		sl.flags |= slotGated
	}
	if t.stall != 0 {
		sl.flags |= slotStall
	}
}
