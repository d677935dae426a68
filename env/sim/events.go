package sim

import (
	"math/bits"
	"slices"
)

// eventKind says what an event does when it fires.
type eventKind uint8

const (
	evArrival    eventKind = iota // job id submits
	evHeartbeat                   // node id heartbeats to the ResourceManager
	evBoundary                    // node id: a task there reaches a phase end
	evControl                     // policy controller id runs its control cycle
	evSample                      // timeline sample
	evAMTick                      // ApplicationMasters' own periodic decisions
	evReady                       // engine only: job id's AM has started up (not a model event)
	evAMBeat                      // job id's AM heartbeat: it ramps its reducers (reduces.go)
	evRelease                     // node id reports its finished containers (release.go)
	evRemoveApps                  // node id's heartbeat is over: the applications whose AMs it reported complete are removed
	evUnhold                      // node id frees the preempted containers it reports complete (release.go)
	evCommit                      // job id's AM has committed the job (JobSpec.CommitMs): the job ends
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
// 600 heartbeats of a large cluster never touch the heap. Its length is a
// power of two, so positions wrap with a mask rather than a division (a
// push and a pop per heartbeat).
type fifoQueue struct {
	buf        []event
	head, size int
}

func (q *fifoQueue) push(e event) {
	if q.size == len(q.buf) {
		nb := make([]event, max(16, 2*len(q.buf)))
		for i := 0; i < q.size; i++ {
			nb[i] = q.buf[(q.head+i)&(len(q.buf)-1)]
		}
		q.buf, q.head = nb, 0
	}
	q.buf[(q.head+q.size)&(len(q.buf)-1)] = e
	q.size++
}

func (q *fifoQueue) peek() *event { return &q.buf[q.head] }

func (q *fifoQueue) pop() event {
	e := q.buf[q.head]
	q.head = (q.head + 1) & (len(q.buf) - 1)
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

// wheelMs is the span of the boundary queue's wheel: one bucket per
// millisecond from now on.
const wheelMs = 4096

// boundaryQueue holds each node's next phase boundary. Nearly all are less
// than a few seconds away and every event on a node moves its boundary, so
// they sit in a timing wheel of one bucket per millisecond for the next
// wheelMs (set and remove are O(1); a two-level bitmap finds the first
// non-empty bucket), with a heap for the later ones, which move into the
// wheel as time comes near. A bucket's events are all at one time; they are
// taken in (ord, seq) order: a bucket is sorted once its time has come (no
// boundary can be added to it then: a boundary is at least 1 ms after the
// event that sets it), before that its earliest is found by a scan, kept
// until it is removed. Clusters of fewer than wheelNodes nodes use the heap
// alone: their few boundaries are cheap there, and a small run need not
// allocate the wheel.
type boundaryQueue struct {
	wheel   []bucket // nil: the heap alone
	words   [wheelMs / 64]uint64
	summary uint64  // bit w: words[w] != 0
	pos     []int32 // per node: index of its event in its bucket, -1 if not in the wheel
	at      []Ms    // per node: the time of its event in the wheel
	count   int     // events in the wheel
	far     nodeQueue
	// spare holds the arrays of burst buckets that have emptied (see
	// remove), for the next bucket that grows past burstCap/8 (a burst
	// then grows no further by copies).
	spare [][]event
}

// burstCap is the capacity above which an emptied bucket gives its array
// up: to spare, which keeps at most maxSpare of them, so that a burst of
// boundaries at one millisecond (reducers polling on one grid) neither
// keeps memory in every bucket it has hit nor allocates anew each time.
const (
	burstCap = 256
	maxSpare = 8
)

// bucket is the wheel's events at one time. Sorted, its live events are
// ev[head:] in order, removed ones marked with id -1; unsorted, min is the
// index of the earliest or -1 if unknown.
type bucket struct {
	ev     []event
	head   int
	live   int
	sorted bool
	min    int32
}

// wheelNodes is the least cluster size to use the wheel for.
const wheelNodes = 256

func (q *boundaryQueue) init(nodes int) {
	q.far.init(nodes)
	if nodes < wheelNodes {
		return
	}
	q.wheel = make([]bucket, wheelMs)
	for i := range q.wheel {
		q.wheel[i].min = -1
	}
	q.pos = make([]int32, nodes)
	q.at = make([]Ms, nodes)
	for i := range q.pos {
		q.pos[i] = -1
	}
}

func (q *boundaryQueue) len() int { return q.count + q.far.len() }

// set inserts node e.id's boundary, or moves the one it has, at time now
// (e.at > now).
func (q *boundaryQueue) set(e event, now Ms) {
	if q.wheel == nil {
		q.far.set(e)
		return
	}
	q.remove(e.id)
	if e.at-now >= wheelMs {
		q.far.set(e)
		return
	}
	q.add(e)
}

func (q *boundaryQueue) add(e event) {
	b := int(e.at % wheelMs)
	bk := &q.wheel[b]
	if bk.live == 0 {
		bk.ev, bk.head, bk.sorted, bk.min = bk.ev[:0], 0, false, -1
		q.words[b/64] |= 1 << (b % 64)
		q.summary |= 1 << (b / 64)
	}
	if bk.sorted { // not expected (see boundaryQueue): back to unsorted
		live := bk.ev[:0]
		for _, x := range bk.ev[bk.head:] {
			if x.id >= 0 {
				q.pos[x.id] = int32(len(live))
				live = append(live, x)
			}
		}
		bk.ev, bk.head, bk.sorted, bk.min = live, 0, false, -1
	}
	i := int32(len(bk.ev))
	if len(bk.ev) == cap(bk.ev) && len(bk.ev) >= burstCap/8 && len(q.spare) > 0 {
		sp := q.spare[len(q.spare)-1]
		if cap(sp) > len(bk.ev) {
			q.spare[len(q.spare)-1] = nil
			q.spare = q.spare[:len(q.spare)-1]
			bk.ev = append(sp[:0], bk.ev...)
		}
	}
	bk.ev = append(bk.ev, e)
	bk.live++
	if bk.min >= 0 && e.before(&bk.ev[bk.min]) {
		bk.min = i
	}
	q.pos[e.id], q.at[e.id] = i, e.at
	q.count++
}

// remove withdraws node id's boundary, if it has one.
func (q *boundaryQueue) remove(id int32) {
	if q.wheel == nil {
		q.far.remove(id)
		return
	}
	i := q.pos[id]
	if i < 0 {
		q.far.remove(id)
		return
	}
	q.pos[id] = -1
	q.count--
	b := int(q.at[id] % wheelMs)
	bk := &q.wheel[b]
	bk.live--
	switch {
	case bk.live == 0:
		bk.ev, bk.head, bk.sorted, bk.min = bk.ev[:0], 0, false, -1
		if cap(bk.ev) > burstCap {
			// A burst's bucket does not keep its memory; a few such
			// arrays are kept for the next bursts.
			if len(q.spare) < maxSpare {
				q.spare = append(q.spare, bk.ev[:0])
			}
			bk.ev = nil
		}
		q.words[b/64] &^= 1 << (b % 64)
		if q.words[b/64] == 0 {
			q.summary &^= 1 << (b / 64)
		}
	case bk.sorted:
		bk.ev[i].id = -1
	default:
		last := int32(len(bk.ev) - 1)
		if i != last {
			bk.ev[i] = bk.ev[last]
			q.pos[bk.ev[i].id] = i
		}
		bk.ev = bk.ev[:last]
		if bk.min == i || bk.min == last {
			bk.min = -1
		}
	}
}

// drop removes e if it is still queued, unchanged since it was peeked.
func (q *boundaryQueue) drop(e event) {
	if q.wheel == nil {
		q.far.drop(e)
		return
	}
	if i := q.pos[e.id]; i >= 0 {
		if q.at[e.id] == e.at && q.wheel[e.at%wheelMs].ev[i].seq == e.seq {
			q.remove(e.id)
		}
		return
	}
	q.far.drop(e)
}

// peek returns the earliest boundary, or nil, at time now.
func (q *boundaryQueue) peek(now Ms) *event {
	if q.wheel == nil {
		if q.far.len() > 0 {
			return q.far.peek()
		}
		return nil
	}
	for q.far.len() > 0 && q.far.peek().at-now < wheelMs {
		q.add(q.far.pop())
	}
	if q.count == 0 {
		if q.far.len() > 0 {
			return q.far.peek()
		}
		return nil
	}
	nb := int(now % wheelMs)
	b := q.nextBucket(nb)
	bk := &q.wheel[b]
	if !bk.sorted && b == nb {
		// Its time has come: sort it once.
		live := bk.ev[:0]
		for _, e := range bk.ev[bk.head:] {
			if e.id >= 0 {
				live = append(live, e)
			}
		}
		if len(live) > 1 {
			slices.SortFunc(live, cmpTie)
		}
		for k := range live {
			q.pos[live[k].id] = int32(k)
		}
		bk.ev, bk.head, bk.sorted = live, 0, true
	}
	if bk.sorted {
		for bk.ev[bk.head].id < 0 {
			bk.head++
		}
		return &bk.ev[bk.head]
	}
	if bk.min < 0 {
		bk.min = 0
		for k := 1; k < len(bk.ev); k++ {
			if bk.ev[k].before(&bk.ev[bk.min]) {
				bk.min = int32(k)
			}
		}
	}
	return &bk.ev[bk.min]
}

// cmpTie orders events of one millisecond (ord, then seq).
func cmpTie(x, y event) int {
	if x.ord != y.ord {
		return int(x.ord) - int(y.ord)
	}
	if x.seq < y.seq {
		return -1
	}
	return 1
}

// nextBucket returns the first non-empty bucket at or after b, cyclically:
// the wheel holds times from now on only, so that is the earliest.
func (q *boundaryQueue) nextBucket(b int) int {
	w := b / 64
	if x := q.words[w] >> (b % 64); x != 0 {
		return b + bits.TrailingZeros64(x)
	}
	if y := q.summary &^ (1<<(w+1) - 1); y != 0 { // the words after w
		w = bits.TrailingZeros64(y)
	} else { // wrap around: the first word (w itself may hold earlier buckets)
		w = bits.TrailingZeros64(q.summary)
	}
	return w*64 + bits.TrailingZeros64(q.words[w])
}
