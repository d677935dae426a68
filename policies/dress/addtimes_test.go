package dress

import (
	"math"
	"testing"

	"yarngym/env/sim"
)

// TestAddTimes: addTimes against k additions one at a time, bit for bit, on
// whole and fractional sums and units (the pools' containers are whole
// where requests are whole vCores and the memory ratio's multiples, else
// fractional: multiples of a power of two or not), and sums near 2^53
// where whole numbers stop being exact.
func TestAddTimes(t *testing.T) {
	r := sim.NewRand(1)
	naive := func(sum, u float64, k int) float64 {
		for range k {
			sum += u
		}
		return sum
	}
	cases := []struct{ sum, u float64 }{
		{0, 1}, {3, 2}, {0, 0.1}, {7, 1.0 / 3}, {0.25, 4}, {1.5, 0.375}, {1 << 53, 1}, {1<<53 - 10, 3}, {1 << 33, 0.5}, {-5, 2},
	}
	for i := 0; i < 2000; i++ {
		sum, u := float64(r.IntN(5000)), float64(1+r.IntN(16))
		switch i % 4 {
		case 1:
			u /= float64(1 + r.IntN(7))
		case 2:
			sum += r.Float64()
		case 3:
			sum, u = sum*1e12, u*1e3
		}
		if i%8 == 5 {
			sum, u = sum+float64(r.IntN(1<<20))/(1<<20), float64(r.IntN(1<<12))/1024 // dyadic
		}
		cases = append(cases, struct{ sum, u float64 }{sum, u})
	}
	for _, c := range cases {
		for _, k := range []int{0, 1, 2, 17, 1000} {
			got, want := addTimes(c.sum, c.u, k), naive(c.sum, c.u, k)
			if math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("addTimes(%v, %v, %d) = %v, want %v (one addition at a time)", c.sum, c.u, k, got, want)
			}
		}
	}
}
