package sim

// eventKind says what an event does when it fires.
type eventKind uint8

const (
	evArrival   eventKind = iota // job id submits
	evHeartbeat                  // node id heartbeats to the ResourceManager
	evBoundary                   // node id: a task there reaches a phase end (valid while epoch matches)
	evControl                    // policy controller id runs its control cycle
	evSample                     // timeline sample
	evAMTick                     // ApplicationMasters' own periodic decisions
)

// event is ordered by (at, seq): simultaneous events run in scheduling order.
type event struct {
	at    Ms
	seq   uint64
	id    int32
	epoch uint32
	kind  eventKind
}

func (e *event) before(o *event) bool {
	return e.at < o.at || (e.at == o.at && e.seq < o.seq)
}

// eventQueue is a binary min-heap of events held by value (no per-event
// allocation, no interface calls on the hot path).
type eventQueue struct{ h []event }

func (q *eventQueue) len() int { return len(q.h) }

func (q *eventQueue) push(e event) {
	q.h = append(q.h, e)
	i := len(q.h) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !q.h[i].before(&q.h[p]) {
			break
		}
		q.h[i], q.h[p] = q.h[p], q.h[i]
		i = p
	}
}

func (q *eventQueue) peek() *event { return &q.h[0] }

func (q *eventQueue) pop() event {
	top := q.h[0]
	n := len(q.h) - 1
	q.h[0] = q.h[n]
	q.h = q.h[:n]
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && q.h[r].before(&q.h[l]) {
			m = r
		}
		if !q.h[m].before(&q.h[i]) {
			break
		}
		q.h[i], q.h[m] = q.h[m], q.h[i]
		i = m
	}
	return top
}
