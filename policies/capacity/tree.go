package capacity

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"yarngym/env/sim"
)

// The queue hierarchy: a queue named PARENT.CHILD is CHILD of PARENT
// (Hadoop's root.PARENT.CHILD), its capacity and max-capacity relative to
// its parent's in the scenario as in capacity-scheduler.xml, absolute once
// built. Usage is charged to a queue and each of its parents; a parent's
// limits bind its children together (ParentQueue).

// tree links each configured queue to its parent, checks that each
// parent's children (and root's) have capacities summing to 1, and makes
// capacity and max-capacity absolute (CSQueueUtils.updateQueueStatistics:
// absolute = parent's absolute x relative).
func (q *Queues) tree() error {
	sums := map[int]float64{}
	for i := range q.queues {
		qu := &q.queues[i]
		for _, part := range strings.Split(qu.name, ".") {
			if part == "" {
				return fmt.Errorf("capacity: queue %q: a level of its path is empty (a child queue is PARENT.CHILD)", qu.name)
			}
		}
		if k := strings.LastIndexByte(qu.name, '.'); k >= 0 {
			p := q.find(qu.name[:k])
			if p < 0 {
				return fmt.Errorf("capacity: queue %q: its parent %q is not declared (a parent's capacity is needed)", qu.name, qu.name[:k])
			}
			qu.parent = p
		}
		sums[qu.parent] += qu.capacity
	}
	for p, sum := range sums {
		if sum < 0.999 || sum > 1.001 {
			if p < 0 {
				return fmt.Errorf("capacity: queue capacities sum to %.3f, want 1", sum)
			}
			return fmt.Errorf("capacity: the capacities of queue %q's children sum to %.3f, want 1", q.queues[p].name, sum)
		}
	}
	abs := make([][2]float64, len(q.queues))
	var absolute func(i int) [2]float64
	absolute = func(i int) [2]float64 {
		if abs[i] != ([2]float64{}) {
			return abs[i]
		}
		c, m := q.queues[i].capacity, q.queues[i].maxCap
		if p := q.queues[i].parent; p >= 0 {
			pa := absolute(p)
			c, m = pa[0]*c, pa[1]*m
		}
		abs[i] = [2]float64{c, m}
		return abs[i]
	}
	for i := range q.queues {
		absolute(i)
	}
	for i := range q.queues {
		q.queues[i].capacity, q.queues[i].maxCap = abs[i][0], abs[i][1]
	}
	return nil
}

// find is the index of the queue named name, -1 if none.
func (q *Queues) find(name string) int {
	for i := range q.queues {
		if q.queues[i].name == name {
			return i
		}
	}
	return -1
}

// charge adds r to queue i's usage and to each of its parents'.
func (q *Queues) charge(i int, r sim.Res) {
	for ; i >= 0; i = q.queues[i].parent {
		q.queues[i].used = q.queues[i].used.Add(r)
	}
}

// siblings returns, for queues i and j, the children of their lowest
// common ancestor that hold them (i and j themselves when they share a
// parent; the same index when one holds the other).
func (q *Queues) siblings(i, j int) (int, int) {
	ci, cj := q.chain(i), q.chain(j)
	k := 0
	for k < len(ci)-1 && k < len(cj)-1 && ci[k] == cj[k] {
		k++
	}
	return ci[k], cj[k]
}

// chain is queue i's path from the queue under root down to i.
func (q *Queues) chain(i int) []int {
	var c []int
	for ; i >= 0; i = q.queues[i].parent {
		c = append(c, i)
	}
	slices.Reverse(c)
	return c
}

// currentMB is queue i's current limit (memory): the tightest, over the
// queue and its parents, of max-capacity less what that queue holds, plus
// what queue i holds, and no more than the cluster's memory less what all
// queues hold plus what i holds (ParentQueue.getResourceLimitsOfChild,
// AbstractCSQueue.getCurrentLimitResource). used gives each queue's usage
// as the caller counts it, rootUsed all queues'.
func (q *Queues) currentMB(i int, mem float64, used func(int) float64, rootUsed float64) float64 {
	own := used(i)
	cur := mem - rootUsed + own
	for a := i; a >= 0; a = q.queues[a].parent {
		cur = math.Min(cur, q.queues[a].maxCap*mem-used(a)+own)
	}
	return cur
}

// usage is each queue's usage (memory) from jobs (a parent's: its
// children's), and all queues' together.
func (q *Queues) usage(jobSets ...[]*sim.Job) (per []float64, root float64) {
	for _, jobs := range jobSets {
		for _, j := range jobs {
			q.jobIndex(j)
		}
	}
	per = make([]float64, len(q.queues))
	for _, jobs := range jobSets {
		for _, j := range jobs {
			root += q.addUsage(per, j)
		}
	}
	return per, root
}

// addUsage adds job j's guaranteed memory to per's entries of its queue and
// each parent (per holds an entry for every queue of j's chain) and
// returns it, for the root.
func (q *Queues) addUsage(per []float64, j *sim.Job) float64 {
	m := float64(j.Alloc.MemMB - j.OppAlloc.MemMB)
	for a := q.jobIndex(j); a >= 0; a = q.queues[a].parent {
		per[a] += m
	}
	return m
}
