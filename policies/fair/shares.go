package fair

import "math"

// share is what ComputeFairShares reads of a queue or a job: its weight and
// its min and max shares of one resource (a job: none and unbounded).
type share struct {
	weight       float64
	minMB, maxMB int64
}

// unbounded is Resources.unbounded()'s memory (Long.MAX_VALUE).
const unbounded = math.MaxInt64

// fairShareIterations is ComputeFairShares.COMPUTE_FAIR_SHARES_ITERATIONS.
const fairShareIterations = 25

// computeShares is Hadoop 3.3.6's ComputeFairShares.computeSharesInternal
// for instantaneous shares of one resource: an item with a max share of 0
// gets 0, one with a weight of 0 its min share; the others split what is
// left (no more than their max shares add up to) as clamp(weight x R, min,
// max), R found by doubling and then 25 steps of bisection. The shares are
// those at the bisection's upper end, truncated to integers, so they can add
// up to more than the total (3 jobs splitting 10: 4 each); the scheduler's
// starvation and AM-limit checks read them as Hadoop's are. The caller
// leaves out inactive queues (no runnable job: share 0).
func computeShares(items []share, totalMB int64, out []int64) {
	var taken int64
	var rest []int
	for i, it := range items {
		switch {
		case it.maxMB <= 0:
			out[i] = 0
		case it.weight <= 0:
			out[i] = max(it.minMB, 0)
			taken = safeAdd(taken, out[i])
		default:
			rest = append(rest, i)
		}
	}
	if len(rest) == 0 {
		return
	}
	var totalMax int64
	for _, i := range rest {
		if totalMax = safeAdd(totalMax, items[i].maxMB); totalMax == unbounded {
			break
		}
	}
	total := min(max(totalMB-taken, 0), totalMax)
	used := func(r float64) int64 {
		var sum int64
		for _, i := range rest {
			if sum = safeAdd(sum, shareAt(items[i], r)); sum == unbounded {
				break
			}
		}
		return sum
	}
	right := bisect(used, total)
	for _, i := range rest {
		out[i] = shareAt(items[i], right)
	}
}

// bisect finds the weight-to-resource ratio as computeSharesInternal does:
// doubling from 1 until used reaches total, then 25 bisection steps,
// stopping early on an exact hit; it returns the upper end.
func bisect(used func(r float64) int64, total int64) float64 {
	rMax := 1.0
	for used(rMax) < total {
		rMax *= 2
	}
	left, right := 0.0, rMax
	for range fairShareIterations {
		mid := (left + right) / 2
		u := used(mid)
		if u == total {
			return mid
		} else if u < total {
			left = mid
		} else {
			right = mid
		}
	}
	return right
}

// equalShare is computeShares over n jobs of weight 1 with no min or max
// share (a leaf queue's runnable applications): what each gets of totalMB.
func equalShare(n int, totalMB int64) int64 {
	if n <= 0 {
		return 0
	}
	job := share{weight: 1, maxMB: unbounded}
	used := func(r float64) int64 {
		v := shareAt(job, r)
		if v > 0 && int64(n) > math.MaxInt64/v {
			return math.MaxInt64
		}
		return int64(n) * v
	}
	return shareAt(job, bisect(used, max(totalMB, 0)))
}

// shareAt is ComputeFairShares.computeShare: clamp(weight x r, min, max),
// cast to a long as Java does (towards zero, saturating).
func shareAt(it share, r float64) int64 {
	v := it.weight * r
	v = math.Max(v, float64(it.minMB))
	v = math.Min(v, float64(it.maxMB))
	if v >= math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(v)
}

// safeAdd is ComputeFairShares.safeAdd: a sum saturating at Long.MAX_VALUE.
func safeAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}
