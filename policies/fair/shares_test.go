package fair

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestComputeShares: the shares Hadoop 3.3.6's ComputeFairShares.computeShares
// gives for each case (run in jshell against the RM jar, oracle/target),
// including its bisection's rounding up (3 jobs splitting 10: 4 each).
func TestComputeShares(t *testing.T) {
	u := int64(unbounded)
	for _, c := range []struct {
		total int64
		items []share
		want  []int64
	}{
		{10, []share{{1, 0, u}, {1, 0, u}, {1, 0, u}}, []int64{4, 4, 4}},
		{327680, []share{{2, 0, u}, {1, 0, u}, {1, 0, u}}, []int64{163840, 81920, 81920}},
		{100, []share{{1, 60, u}, {1, 0, u}}, []int64{60, 40}},
		{100, []share{{1, 0, 20}, {1, 0, u}}, []int64{20, 80}},
		{100, []share{{0, 30, u}, {1, 0, u}}, []int64{30, 70}},
		{100, []share{{1, 0, 0}, {1, 0, u}}, []int64{0, 100}},
		{163840, slices.Repeat([]share{{1, 0, u}}, 7), slices.Repeat([]int64{23406}, 7)},
		{491520, []share{{3, 0, u}, {1, 40960, u}, {1, 0, 100000}}, []int64{294912, 98304, 98304}},
		{50, []share{{1, 0, 10}, {1, 0, 15}}, []int64{10, 15}},
	} {
		got := make([]int64, len(c.items))
		computeShares(c.items, c.total, got)
		if !slices.Equal(got, c.want) {
			t.Errorf("total %d, %v: got %v, want %v", c.total, c.items, got, c.want)
		}
	}
}

// TestComputeSharesProperties checks the shares against what they must be
// whatever the bisection does: within [min, max] for a positive weight, no
// more in all than the total allows (less at most one unit per item lost
// to truncation, plus one per item the bisection rounds up), ordered as
// the weights where no bound binds.
func TestComputeSharesProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for k := range 2000 {
		n := 1 + r.IntN(8)
		items := make([]share, n)
		for i := range items {
			items[i] = share{weight: float64(1 + r.IntN(4)), maxMB: unbounded}
			if r.IntN(3) == 0 {
				items[i].minMB = int64(r.IntN(50000))
			}
			if r.IntN(3) == 0 {
				items[i].maxMB = items[i].minMB + int64(r.IntN(100000))
			}
		}
		total := int64(r.IntN(500000))
		got := make([]int64, n)
		computeShares(items, total, got)
		var sum, minSum, maxSum int64
		for i, it := range items {
			if got[i] < min(it.minMB, it.maxMB) || got[i] > it.maxMB {
				t.Fatalf("case %d: share %d of %+v out of its bounds", k, got[i], it)
			}
			sum += got[i]
			minSum += it.minMB
			maxSum = safeAdd(maxSum, it.maxMB)
		}
		// The exact split uses min(total, sum of maxima) unless the minima
		// alone exceed it.
		want := max(min(total, maxSum), minSum)
		if sum < want-int64(n) || sum > want+int64(n) {
			t.Fatalf("case %d: shares %v of %+v add to %d, want %d +- %d", k, got, items, sum, want, n)
		}
		for i := range items {
			for j := range items {
				a, b := items[i], items[j]
				free := a.minMB == 0 && b.minMB == 0 && a.maxMB == unbounded && b.maxMB == unbounded
				if free && a.weight > b.weight && got[i] < got[j] {
					t.Fatalf("case %d: weight %v got %d < weight %v's %d", k, a.weight, got[i], b.weight, got[j])
				}
			}
		}
	}
}

// TestEqualShare: the fast path for a leaf queue's jobs gives what
// computeShares gives n identical jobs.
func TestEqualShare(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	for range 3000 {
		n := 1 + r.IntN(300)
		total := int64(r.IntN(2_000_000))
		out := make([]int64, n)
		computeShares(slices.Repeat([]share{{1, 0, unbounded}}, n), total, out)
		if got := equalShare(n, total); got != out[0] {
			t.Fatalf("%d jobs splitting %d: equalShare %d, computeShares %d", n, total, got, out[0])
		}
	}
	if got := equalShare(0, 100); got != 0 {
		t.Errorf("no jobs: %d", got)
	}
}
