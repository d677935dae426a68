package sim

// eventKind says what an event does when it fires.
type eventKind uint8

const (
	evArrival   eventKind = iota // job id submits
	evHeartbeat                  // node id heartbeats to the ResourceManager
	evBoundary                   // node id: a task there reaches a phase end
	evControl                    // policy controller id runs its control cycle
	evSample                     // timeline sample
	evAMTick                     // ApplicationMasters' own periodic decisions
	evReady                      // engine only: job id's AM has started up (not a model event)
)

// event is ordered by (at, ord, seq). The model's rule is that simultaneous
// events run in the order they were scheduled; ord and seq encode that order
// without counting the heartbeats of idle nodes, which the engine skips (see
// order.go): a heartbeat of node i has ord 2i, any other event ord 2x-1,
// where x is how many of the heartbeats at its instant were scheduled before
// it (they are always nodes 0..x-1 of that instant's heartbeats); among the
// other events, seq is the scheduling order.
type event struct {
	at   Ms
	seq  uint64
	ord  int32
	id   int32
	kind eventKind
}

func (e *event) before(o *event) bool {
	if e.at != o.at {
		return e.at < o.at
	}
	if e.ord != o.ord {
		return e.ord < o.ord
	}
	return e.seq < o.seq
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

// fifoQueue holds events that are always scheduled in non-decreasing
// (time, ord) order (heartbeats: each is scheduled one interval after the
// heartbeat being processed, and those are processed in order). A ring buffer keeps them sorted for free, so the
// 600 heartbeats of a large cluster never touch the heap.
type fifoQueue struct {
	buf        []event
	head, size int
}

func (q *fifoQueue) push(e event) {
	if q.size == len(q.buf) {
		nb := make([]event, max(16, 2*len(q.buf)))
		for i := 0; i < q.size; i++ {
			nb[i] = q.buf[(q.head+i)%len(q.buf)]
		}
		q.buf, q.head = nb, 0
	}
	q.buf[(q.head+q.size)%len(q.buf)] = e
	q.size++
}

func (q *fifoQueue) peek() *event { return &q.buf[q.head] }

func (q *fifoQueue) pop() event {
	e := q.buf[q.head]
	q.head = (q.head + 1) % len(q.buf)
	q.size--
	return e
}

// nodeQueue is a binary min-heap holding at most one event per node (its
// next phase boundary), which can be moved or withdrawn in place: a
// recomputed boundary replaces the node's event instead of leaving a stale
// one behind.
type nodeQueue struct {
	h   []event
	idx []int32 // per node: its event's index in h, -1 if none
}

func (q *nodeQueue) init(nodes int) {
	q.idx = make([]int32, nodes)
	for i := range q.idx {
		q.idx[i] = -1
	}
}

func (q *nodeQueue) len() int { return len(q.h) }

func (q *nodeQueue) peek() *event { return &q.h[0] }

// set inserts node e.id's event or replaces the one it has.
func (q *nodeQueue) set(e event) {
	i := int(q.idx[e.id])
	if i < 0 {
		i = len(q.h)
		q.h = append(q.h, e)
		q.idx[e.id] = int32(i)
		q.up(i)
		return
	}
	old := q.h[i]
	q.h[i] = e
	if e.before(&old) {
		q.up(i)
	} else {
		q.down(i)
	}
}

// remove withdraws node id's event, if any.
func (q *nodeQueue) remove(id int32) {
	i := int(q.idx[id])
	if i < 0 {
		return
	}
	q.idx[id] = -1
	last := len(q.h) - 1
	if i != last {
		moved := q.h[last]
		q.h[i] = moved
		q.idx[moved.id] = int32(i)
		q.h = q.h[:last]
		if i > 0 && moved.before(&q.h[(i-1)/2]) {
			q.up(i)
		} else {
			q.down(i)
		}
		return
	}
	q.h = q.h[:last]
}

// drop removes e if it is still queued, unchanged since it was peeked.
func (q *nodeQueue) drop(e event) {
	if i := q.idx[e.id]; i >= 0 && q.h[i].seq == e.seq && q.h[i].at == e.at {
		q.remove(e.id)
	}
}

func (q *nodeQueue) pop() event {
	e := q.h[0]
	q.remove(e.id)
	return e
}

func (q *nodeQueue) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !q.h[i].before(&q.h[p]) {
			break
		}
		q.swap(i, p)
		i = p
	}
}

func (q *nodeQueue) down(i int) {
	n := len(q.h)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && q.h[r].before(&q.h[l]) {
			m = r
		}
		if !q.h[m].before(&q.h[i]) {
			return
		}
		q.swap(i, m)
		i = m
	}
}

func (q *nodeQueue) swap(i, j int) {
	q.h[i], q.h[j] = q.h[j], q.h[i]
	q.idx[q.h[i].id] = int32(i)
	q.idx[q.h[j].id] = int32(j)
}
