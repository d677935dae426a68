package sim

import (
	"math"
	"math/bits"
	"sort"
)

// Idle nodes cost nothing.
//
// In the model every node heartbeats every HeartbeatMs. On a node with no
// container and no reservation, while no job asks for a container and none
// waits for admission, a heartbeat changes nothing, given a policy whose
// parts say so (IdleNoop): there is nothing to advance, sample or monitor and
// nothing to allocate. The engine then does not process those heartbeats.
// Such a node sits in the idle set; its heartbeats stay on its grid (first
// at i*HeartbeatMs/len(Nodes), then every HeartbeatMs) and are materialised
// only when they may matter:
//
//   - while some job asks for a container or waits for admission, the
//     idle nodes' heartbeats are delivered one at a time, in the order the
//     grid and order.go give them (the idle cursor), so each idle node offers
//     itself to the allocator exactly when it would have;
//   - a node that gets a container or a reservation outside its own
//     heartbeat (a policy's control cycle) leaves the idle set and beats
//     again from its next grid instant;
//   - the stall check, which the model makes after every event, is made at
//     the skipped heartbeats too when it could end the run.
//
// A job's request may appear without any event: when its AM has started up
// (amReadyMs). The engine keeps those instants as events of its own
// (evReady, not model events) so the idle cursor starts there.
//
// What a skipped heartbeat would have done to the node's own book-keeping is
// caught up when its next heartbeat is processed: the usage-sample clock and
// the event count (Summary.Events still counts every heartbeat of the model;
// Stats.Processed counts what the engine handled).

// IdleNoop is implemented by policy parts (the Allocator, NodeMonitors) that
// do nothing that matters on the heartbeat of a node with no container and
// no reservation while no job asks for a container (Sim.Asking is empty) and
// none waits for admission. When the allocator and every monitor report
// true, the engine skips those heartbeats (see above); otherwise it processes
// every heartbeat.
type IdleNoop interface {
	IdleNoop() bool
}

// IdleQuiet is implemented by policy parts (the Allocator, NodeMonitors)
// that are IdleNoop and can also tell, while jobs ask for containers, that
// the heartbeat of a node with no container and no reservation would do
// nothing now (the FairScheduler offers nodes only to jobs whose demand as
// of its last update differs from what they hold: between updates a job's
// new asks leave every such heartbeat with no job to rank). The answer must
// depend only on the run's state, not on the node or the time: it is taken
// to hold until the engine processes its next event. When the allocator and
// every monitor report true and no job waits for admission, the engine
// skips those heartbeats as it does when no job asks (idle.go's rules, the
// stall and livelock checks included).
type IdleQuiet interface {
	IdleQuiet(h Handle) bool
}

// idleSet holds the idle nodes whose heartbeats are not queued.
type idleSet struct {
	on    bool        // the policy lets idle nodes sleep
	quiet []IdleQuiet // the allocator and monitors, when all are IdleQuiet
	words []uint64    // bit i: node i is in the set
	count int
	// cursor is the first heartbeat of an idle node after pos, valid while
	// cursorOK (cleared when the set or the demand changes).
	cursor   event
	cursorOK bool
}

// pos is a position in the event order: (at, ord).
type pos struct {
	at  Ms
	ord int32
}

func (p pos) less(at Ms, ord int32) bool { return p.at < at || (p.at == at && p.ord < ord) }

func (s *Sim) initIdle() {
	s.idle.on = !s.cfg.EveryHeartbeat && idleNoop(s.policy.Allocate)
	for _, m := range s.policy.Monitors {
		s.idle.on = s.idle.on && idleNoop(m)
	}
	if q, ok := s.policy.Allocate.(IdleQuiet); ok && s.idle.on {
		s.idle.quiet = append(s.idle.quiet, q)
		for _, m := range s.policy.Monitors {
			if q, ok := m.(IdleQuiet); ok {
				s.idle.quiet = append(s.idle.quiet, q)
			} else {
				s.idle.quiet = nil
				break
			}
		}
	}
	s.idle.words = make([]uint64, (len(s.Nodes)+63)/64)
	hb := s.model.HeartbeatMs
	for _, n := range s.Nodes {
		n.lastBeat = s.beatOffset(n.ID) - hb
	}
	s.pos = pos{at: -1, ord: math.MaxInt32}
}

func idleNoop(part any) bool {
	q, ok := part.(IdleNoop)
	return ok && q.IdleNoop()
}

// beatOffset is node id's first heartbeat (New staggers them evenly).
// HeartbeatOffsetMs is node n's first heartbeat: the nodes' heartbeats are
// spread evenly over one interval (the oracle's export replays them).
func (s *Sim) HeartbeatOffsetMs(n *Node) Ms { return s.beatOffset(n.ID) }

func (s *Sim) beatOffset(id int32) Ms {
	return Ms(id) * s.model.HeartbeatMs / Ms(len(s.Nodes))
}

// quiet reports whether an idle node's heartbeat would do nothing now.
func (s *Sim) quiet() bool { return len(s.asking) == 0 && len(s.waiting) == 0 }

func (s *Sim) idleAdd(n *Node) {
	n.asleep = true
	s.idle.words[n.ID>>6] |= 1 << (uint(n.ID) & 63)
	s.idle.count++
	s.idle.cursorOK = false
}

func (s *Sim) idleRemove(n *Node) {
	n.asleep = false
	s.idle.words[n.ID>>6] &^= 1 << (uint(n.ID) & 63)
	s.idle.count--
	s.idle.cursorOK = false
}

// nextIdle returns the first node at or after index i in the idle set, or -1.
func (s *Sim) nextIdle(i int) int {
	w := i >> 6
	if w >= len(s.idle.words) {
		return -1
	}
	if b := s.idle.words[w] >> (uint(i) & 63); b != 0 {
		return i + bits.TrailingZeros64(b)
	}
	for w++; w < len(s.idle.words); w++ {
		if b := s.idle.words[w]; b != 0 {
			return w<<6 + bits.TrailingZeros64(b)
		}
	}
	return -1
}

// nextIdleBeat returns the first heartbeat of an idle node after p.
func (s *Sim) nextIdleBeat(p pos) (event, bool) {
	if s.idle.count == 0 {
		return event{}, false
	}
	hb, nn := s.model.HeartbeatMs, Ms(len(s.Nodes))
	at := max(p.at, 0)
	ord := p.ord
	if p.at < 0 {
		ord = ordFirst
	}
	c, r := at/hb, at%hb
	// Heartbeats of one cycle run in node order; those at offset r are
	// nodes [a, b), and of them the ones after p have 2i > ord.
	a, b := ceilDiv(r*nn, hb), ceilDiv((r+1)*nn, hb)
	i0 := max(a, floorDiv(Ms(ord), 2)+1)
	if i0 > b {
		i0 = b
	}
	t := c * hb
	i := s.nextIdle(int(i0))
	if i < 0 {
		i = s.nextIdle(0)
		t += hb
	}
	id := int32(i)
	return event{at: t + s.beatOffset(id), ord: beatOrd(id), id: id, kind: evHeartbeat}, true
}

// idleCursor returns the next idle heartbeat to deliver, if any: only while
// some job asks for a container or waits for admission.
func (s *Sim) idleCursor() *event {
	if !s.idle.on || s.idle.count == 0 || s.quiet() {
		return nil
	}
	if !s.idle.cursorOK || !s.pos.less(s.idle.cursor.at, s.idle.cursor.ord) {
		s.idle.cursor, _ = s.nextIdleBeat(s.pos)
		s.idle.cursorOK = true
	}
	return &s.idle.cursor
}

// idleQuietBefore reports whether the heartbeats of idle nodes before e,
// the next event of any other source, would all do nothing although jobs
// ask for containers (IdleQuiet), so that the engine may skip them. It says
// no while a job waits for admission (a heartbeat tries to admit it) and
// when the stall or livelock check could end the run at one of them (those
// are made at processed heartbeats only in that case).
func (s *Sim) idleQuietBefore(e *event) bool {
	if s.idle.quiet == nil || len(s.waiting) > 0 {
		return false
	}
	if s.arrived == len(s.Jobs) && (e.at-s.lastProgress > s.cfg.StallMs || e.at-s.lastDone > s.cfg.LivelockMs) {
		return false
	}
	for _, q := range s.idle.quiet {
		if !q.IdleQuiet(s.handle) {
			return false
		}
	}
	return true
}

// skippedBeats is how many heartbeats of n after its last processed one
// come no later than p: heartbeats the engine skipped (or, for a node whose
// next heartbeat is queued, none).
func (s *Sim) skippedBeats(n *Node, p pos) int64 {
	hb := s.model.HeartbeatMs
	if p.at <= n.lastBeat {
		return 0
	}
	k := (p.at - 1 - n.lastBeat) / hb // heartbeats before p.at
	if (p.at-n.lastBeat)%hb == 0 && beatOrd(n.ID) <= p.ord {
		k++
	}
	return k
}

// catchUp brings node n's book-keeping up to its heartbeat now: the
// heartbeats skipped since its last processed one are counted, and its usage
// sampling clock moves as they would have moved it (each heartbeat at or
// after nextSample samples and sets nextSample one UsageSampleMs later; the
// samples of a node without containers change nothing else).
func (s *Sim) catchUp(n *Node) {
	hb := s.model.HeartbeatMs
	k := (s.now - n.lastBeat) / hb // this heartbeat is the k-th since the last
	if k > 1 {
		skipped := k - 1
		s.stats.Events += skipped
		j1 := Ms(1) // the first skipped heartbeat that samples
		if n.nextSample > n.lastBeat+hb {
			j1 = ceilDiv(n.nextSample-n.lastBeat, hb)
		}
		if j1 <= skipped {
			p := ceilDiv(s.model.UsageSampleMs, hb) // heartbeats between samples
			j := j1 + (skipped-j1)/p*p
			n.nextSample = n.lastBeat + j*hb + s.model.UsageSampleMs
		}
	}
	n.lastBeat = s.now
}

// beatDone queues node n's next heartbeat, or puts n in the idle set.
func (s *Sim) beatDone(n *Node) {
	if s.idle.on && len(n.Containers) == 0 && n.Reserved == nil {
		s.idleAdd(n)
		return
	}
	s.scheduleBeat(s.now+s.model.HeartbeatMs, n.ID)
}

// wake takes n out of the idle set (it got a container or a reservation
// outside its own heartbeat): its next heartbeat on its grid is queued.
func (s *Sim) wake(n *Node) {
	if !n.asleep {
		return
	}
	s.idleRemove(n)
	hb := s.model.HeartbeatMs
	k := (max(s.pos.at, n.lastBeat) - n.lastBeat) / hb
	t := n.lastBeat + k*hb
	if k < 1 || t < s.pos.at || beatOrd(n.ID) <= s.pos.ord {
		t += hb
	}
	s.wakes.push(event{at: t, ord: beatOrd(n.ID), id: n.ID, kind: evHeartbeat})
}

// virtualEvents is the number of skipped heartbeats not yet counted.
func (s *Sim) virtualEvents() int64 {
	if !s.idle.on || s.ended {
		return 0
	}
	var k int64
	for _, n := range s.Nodes {
		k += s.skippedBeats(n, s.pos)
	}
	return k
}

// Asking returns the admitted jobs that ask for a container now (those for
// which HasPending is true), in admission order. The slice is the engine's:
// valid until the next event, not to be modified.
func (s *Sim) Asking() []*Job { return s.asking }

// touch updates j's membership of the asking set after a change that may
// have changed HasPending(j).
func (s *Sim) touch(j *Job) {
	want := s.HasPending(j)
	if want == j.asking {
		return
	}
	j.asking = want
	s.idle.cursorOK = false
	i := sort.Search(len(s.asking), func(k int) bool { return s.asking[k].admitSeq >= j.admitSeq })
	if want {
		s.asking = append(s.asking, nil)
		copy(s.asking[i+1:], s.asking[i:])
		s.asking[i] = j
		return
	}
	copy(s.asking[i:], s.asking[i+1:])
	s.asking[len(s.asking)-1] = nil
	s.asking = s.asking[:len(s.asking)-1]
}

func ceilDiv(a, b Ms) Ms {
	q := a / b
	if a%b != 0 && (a < 0) == (b < 0) {
		q++
	}
	return q
}

func floorDiv(a, b Ms) Ms {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}
