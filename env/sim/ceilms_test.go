package sim

import "testing"

// TestCeilMs: boundary times round up to whole milliseconds, float dust
// within 1e-6 ms of one rounded to it (it once ended a third of the maps
// of opera-mr 1 ms late against the oracle's driver).
func TestCeilMs(t *testing.T) {
	for _, c := range []struct {
		in   float64
		want Ms
	}{
		{27420, 27420},
		{27420.000000001, 27420},
		{27419.9999999999, 27420},
		{27420.00001, 27421},
		{27420.4, 27421},
		{0.0000001, 0},
		{0.5, 1},
	} {
		if got := ceilMs(c.in); got != c.want {
			t.Errorf("ceilMs(%v) = %d, want %d", c.in, got, c.want)
		}
	}
}
