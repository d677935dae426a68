package sim

import "math"

// The order of simultaneous events.
//
// The model's rule: events at the same instant run in the order they were
// scheduled. A global counter stamped at scheduling time gives that order
// directly, but it counts every heartbeat of every node, so it cannot be
// kept when the heartbeats of idle nodes are not processed. The engine
// orders events by (at, ord, seq) instead, which is the same order:
//
//   - Node i first beats at i*HeartbeatMs/len(Nodes) and then every
//     HeartbeatMs, each heartbeat scheduled by the previous one (at its end,
//     after anything the heartbeat itself scheduled) or, for the first, in
//     New. So the heartbeats of one instant were scheduled in node order, by
//     induction from New, and their ord is 2i: node order.
//   - Any other event E at instant T is preceded by exactly the heartbeats
//     at T that were scheduled before E, and those are a prefix of T's
//     heartbeats in node order: nodes below some x(E). Its ord is 2x-1, so
//     heartbeat i comes first iff i < x(E). Two such events keep their
//     scheduling order: x never decreases along it, and seq (a counter of
//     those events alone) breaks ties.
//
// x(E) follows from when E was scheduled (now, while processing event X;
// hb is the heartbeat interval), because a heartbeat at T was scheduled at
// T-hb:
//
//   - T > now+hb: E was scheduled before every heartbeat at T: x = 0;
//   - T < now+hb: after all of them: x = len(Nodes);
//   - T = now+hb: the heartbeat of node i at T came first iff node i's
//     heartbeat at now was processed no later than X: if X is node j's
//     heartbeat, x = j+1; if X is another event, x = x(X).
//
// New schedules the first arrival before the first heartbeats (x = 0 for
// any instant) and the control cycles, the first timeline sample and the
// ApplicationMasters' tick after them (x = len(Nodes) below hb, 0 from hb,
// whose heartbeats a heartbeat schedules later).
//
// None of this depends on whether the heartbeats in between were processed,
// so a heartbeat that changes nothing can be skipped (idle.go) and the
// order of everything else stays what the global counter gave.

// ordFirst orders the engine's own events (a job's AM having started up)
// before every model event at the same instant.
const ordFirst = math.MinInt32

// beatOrd is the ord of node id's heartbeats.
func beatOrd(id int32) int32 { return 2 * id }

// tieOrd returns the ord of an event at time at scheduled now, while the
// event s.cur is processed.
func (s *Sim) tieOrd(at Ms) int32 {
	hb := s.model.HeartbeatMs
	var x int32
	switch {
	case at > s.now+hb:
		x = 0
	case at < s.now+hb:
		x = int32(len(s.Nodes))
	case s.cur.kind == evHeartbeat:
		x = s.cur.ord/2 + 1
	default:
		x = (s.cur.ord + 1) / 2
	}
	return 2*x - 1
}
