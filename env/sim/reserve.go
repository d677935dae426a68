package sim

import "fmt"

// Node reservations: a node held for a request that does not fit it yet
// (RMContainer RESERVED in Hadoop's schedulers), their end, and the
// reservations left standing when a request is met elsewhere.

// Reserve reserves node n for pending task t: until t launches or the
// reservation is cancelled, guaranteed containers on n go only to t.
func (s *Sim) Reserve(n *Node, t *Task) error {
	if t.Excess() {
		return fmt.Errorf("reserve node %d for %s: a container beyond the stage's maps is not reserved", n.ID, t)
	}
	if !s.Requestable(t) {
		return fmt.Errorf("reserve node %d for %s: task is not requested", n.ID, t)
	}
	if n.typed() {
		// A TaskTracker's slots of a type are all alike: Hadoop 1 does not
		// hold one for a task, and a free reduce slot stays usable.
		return fmt.Errorf("reserve node %d for %s: typed-slot TaskTrackers are not reserved", n.ID, t)
	}
	if n.Reserved != nil && n.Reserved != t {
		return fmt.Errorf("reserve node %d for %s: already reserved for %s", n.ID, t, n.Reserved)
	}
	if !s.CalcOn(n).Fits(s.policy.Normalize.Apply(t.Req), n.Spec.Cap) {
		return fmt.Errorf("reserve node %d for %s: request %v exceeds the node's capacity", n.ID, t, t.Req)
	}
	if t.reservedOn != nil && t.reservedOn != n {
		return fmt.Errorf("reserve node %d for %s: already holds node %d", n.ID, t, t.reservedOn.ID)
	}
	if n.Reserved == nil {
		s.stats.Reservations++
	}
	if n.Reserved == nil {
		n.resvAt = len(s.reserved)
		s.reserved = append(s.reserved, n)
	}
	n.Reserved = t
	t.reservedOn = n
	s.wake(n)
	return nil
}

// Unreserve cancels n's reservation.
func (s *Sim) Unreserve(n *Node) {
	t := n.Reserved
	if t == nil {
		return
	}
	n.Reserved = nil
	last := s.reserved[len(s.reserved)-1]
	s.reserved[n.resvAt] = last
	last.resvAt = n.resvAt
	s.reserved[len(s.reserved)-1] = nil
	s.reserved = s.reserved[:len(s.reserved)-1]
	if n.staleResv {
		n.staleResv = false // t no longer counts it
		return
	}
	switch {
	case t.reservedOn != n:
		t.extraResv--
	case t.extraResv > 0:
		// Another node reserved for the same request becomes the task's.
		for _, m := range s.reserved {
			if m.Reserved == t {
				t.reservedOn = m
				break
			}
		}
		t.extraResv--
	default:
		t.reservedOn = nil
	}
}

// dropReservations ends the reservations held for t's request now that t
// has a container on node n. Under Policy.KeepReservations the other
// nodes stay reserved, stale, until their own next heartbeats, where the
// scheduler finds the request no longer asked for and drops them
// (FSAppAttempt.isValidReservation; RegularContainerAllocator.allocate
// releases a reserved container whose request has no outstanding asks):
// until then they count as reserved, and the nodes assign nothing else.
func (s *Sim) dropReservations(t *Task, n *Node) {
	for i := len(s.reserved) - 1; i >= 0; i-- {
		m := s.reserved[i]
		switch {
		case m.Reserved != t || m.staleResv:
		case m == n || !s.policy.KeepReservations:
			m.staleResv = true // Unreserve drops it without t's bookkeeping
			s.Unreserve(m)
		default:
			m.staleResv = true
		}
	}
	t.reservedOn, t.extraResv = nil, 0
}

// reserveAgain reserves node n for task t's request, which holds another
// node already: Hadoop's schedulers reserve nodes per request, not per
// container, and may hold several for one container (FSAppAttempt.reserve
// up to reservable-nodes; RegularContainerAllocator with starvation). The
// policy bounds how many (Policy.KeepReservations); every one goes when t
// gets its container.
func (s *Sim) reserveAgain(n *Node, t *Task) {
	if n.Reserved != nil || n.typed() || !s.Requestable(t) || !s.CalcOn(n).Fits(s.policy.Normalize.Apply(t.Req), n.Spec.Cap) {
		return
	}
	s.stats.Reservations++
	n.resvAt = len(s.reserved)
	s.reserved = append(s.reserved, n)
	n.Reserved = t
	t.extraResv++
	s.wake(n)
}

// ReservedOn returns the node reserved for t, or nil.
func (t *Task) ReservedOn() *Node { return t.reservedOn }
