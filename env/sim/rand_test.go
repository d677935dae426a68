package sim

import "testing"

// TestNormSkip: skipping a normal draw leaves the stream where drawing it
// would (setUsage skips the factors it would multiply by 0).
func TestNormSkip(t *testing.T) {
	a, b := NewRand(7), NewRand(7)
	for i := 0; i < 100; i++ {
		a.NormFloat64()
		b.normSkip()
		if x, y := a.NormFloat64(), b.NormFloat64(); x != y {
			t.Fatalf("draw %d after a skip: %v, want %v", i, y, x)
		}
	}
}
