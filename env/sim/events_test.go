package sim

import (
	"sort"
	"testing"
)

// TestEventQueueMatchesSort is a property test: random interleavings of
// pushes and pops come out in exactly the (time, sequence) order a naive
// sort gives.
func TestEventQueueMatchesSort(t *testing.T) {
	for seed := uint64(1); seed <= 50; seed++ {
		r := NewRand(seed)
		var q eventQueue
		var naive []event
		var seq uint64
		for step := 0; step < 2000; step++ {
			if r.IntN(3) > 0 || len(naive) == 0 {
				seq++
				e := event{at: Ms(r.IntN(100)), seq: seq, id: int32(r.IntN(10))}
				q.push(e)
				naive = append(naive, e)
				continue
			}
			sort.SliceStable(naive, func(a, b int) bool { return naive[a].before(&naive[b]) })
			want := naive[0]
			naive = naive[1:]
			if got := q.pop(); got != want {
				t.Fatalf("seed %d step %d: popped %+v, want %+v", seed, step, got, want)
			}
		}
		if q.len() != len(naive) {
			t.Fatalf("seed %d: %d left, want %d", seed, q.len(), len(naive))
		}
	}
}

func TestRandDeterministicAndIndependent(t *testing.T) {
	a, b := NewRand(7), NewRand(7)
	for i := 0; i < 1000; i++ {
		if a.Uint64() != b.Uint64() {
			t.Fatal("same seed, different streams")
		}
	}
	if DeriveSeed(1, 2) == DeriveSeed(1, 3) || DeriveSeed(1, 2) == DeriveSeed(2, 2) {
		t.Fatal("derived seeds collide")
	}
	r := NewRand(3)
	sum, sq := 0.0, 0.0
	const n = 200000
	for i := 0; i < n; i++ {
		f := r.Float64()
		if f < 0 || f >= 1 {
			t.Fatalf("Float64 out of [0,1): %v", f)
		}
		z := r.NormFloat64()
		sum += z
		sq += z * z
	}
	if m := sum / n; m < -0.01 || m > 0.01 {
		t.Fatalf("normal mean %v", m)
	}
	if v := sq / n; v < 0.98 || v > 1.02 {
		t.Fatalf("normal variance %v", v)
	}
}
