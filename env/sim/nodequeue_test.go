package sim

import (
	"sort"
	"testing"
)

// TestNodeQueueMatchesSort: random sets, moves and withdrawals of one event
// per node come out of the node queue in the order a naive sort of the
// current events gives.
func TestNodeQueueMatchesSort(t *testing.T) {
	const nodes = 40
	for seed := uint64(1); seed <= 30; seed++ {
		r := NewRand(seed)
		var q nodeQueue
		q.init(nodes)
		cur := map[int32]event{}
		var seq uint64
		for step := 0; step < 3000; step++ {
			switch k := r.IntN(10); {
			case k < 6:
				seq++
				e := event{at: Ms(r.IntN(200)), seq: seq, ord: int32(r.IntN(7)) - 1, id: int32(r.IntN(nodes)), kind: evBoundary}
				q.set(e)
				cur[e.id] = e
			case k < 8:
				id := int32(r.IntN(nodes))
				q.remove(id)
				delete(cur, id)
			case len(cur) > 0:
				first := earliest(cur)
				if got := q.pop(); got != first {
					t.Fatalf("seed %d step %d: popped %+v, want %+v", seed, step, got, first)
				}
				delete(cur, first.id)
			}
			if q.len() != len(cur) {
				t.Fatalf("seed %d step %d: %d queued, want %d", seed, step, q.len(), len(cur))
			}
		}
	}
}

// TestBoundaryQueueMatchesSort: the wheel and the far heap, with time
// moving on as boundaries are taken (each taken one left in place and moved
// or dropped, as the engine does), give the order a naive sort gives; near
// and far boundaries, bursts at one millisecond, moves and withdrawals.
func TestBoundaryQueueMatchesSort(t *testing.T) {
	for k, seed := 0, uint64(1); seed <= 40; seed++ {
		nodes := 60 + k%2*wheelNodes // the heap alone, and the wheel
		k++
		r := NewRand(seed)
		var q boundaryQueue
		q.init(nodes)
		cur := map[int32]event{}
		var seq uint64
		now := Ms(0)
		for step := 0; step < 5000; step++ {
			switch k := r.IntN(10); {
			case k < 6:
				seq++
				at := now + Ms(r.IntN(3*wheelMs))
				switch r.IntN(4) {
				case 0:
					at = now + Ms(r.IntN(3))
				case 1:
					at = now + Ms(r.IntN(40))
				}
				e := event{at: at, seq: seq, ord: int32(r.IntN(7)) - 1, id: int32(r.IntN(nodes)), kind: evBoundary}
				q.set(e, now)
				cur[e.id] = e
			case k < 7:
				id := int32(r.IntN(nodes))
				q.remove(id)
				delete(cur, id)
			case len(cur) > 0:
				first := earliest(cur)
				got := q.peek(now)
				if got == nil || *got != first {
					t.Fatalf("seed %d step %d: peeked %+v, want %+v", seed, step, got, first)
				}
				e := *got
				now = e.at
				delete(cur, e.id)
				if r.IntN(2) == 0 { // moved on in place
					seq++
					n := event{at: now + 1 + Ms(r.IntN(20)), seq: seq, ord: e.ord, id: e.id, kind: evBoundary}
					q.set(n, now)
					cur[n.id] = n
				}
				q.drop(e)
			}
			if q.len() != len(cur) {
				t.Fatalf("seed %d step %d: %d queued, want %d", seed, step, q.len(), len(cur))
			}
		}
	}
}

// earliest is the naive reference: the first of the events in cur by a
// full sort.
func earliest(cur map[int32]event) event {
	var all []event
	for _, e := range cur {
		all = append(all, e)
	}
	sort.Slice(all, func(a, b int) bool { return all[a].before(&all[b]) })
	return all[0]
}
