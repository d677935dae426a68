package sim

import (
	"math"
	"testing"
)

// TestSumSplitInvariant: integrating a value over an interval in one piece
// or split at arbitrary instants gives the same float64 (the engine may skip
// events that change nothing), and the sum is the exact one.
func TestSumSplitInvariant(t *testing.T) {
	r := NewRand(1)
	for trial := 0; trial < 200; trial++ {
		var whole, split, naive sum
		var plain float64
		for piece := 0; piece < 2000; piece++ {
			v := r.Float64() * 1e4
			dt := float64(1 + r.IntN(100000))
			whole.addProduct(dt, v)
			naive.addProduct(dt, v)
			plain += dt * v
			// The same piece cut in up to five parts.
			left := dt
			for k := 0; k < 4 && left > 1; k++ {
				part := float64(1 + r.IntN(int(left-1)))
				split.addProduct(part, v)
				left -= part
			}
			split.addProduct(left, v)
		}
		if whole.value() != split.value() {
			t.Fatalf("trial %d: whole %v, split %v", trial, whole.value(), split.value())
		}
		if d := math.Abs(plain-whole.value()) / whole.value(); d > 1e-12 {
			t.Fatalf("trial %d: exact %v, plain float sum %v", trial, whole.value(), plain)
		}
	}
}
