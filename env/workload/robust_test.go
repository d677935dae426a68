package workload

import (
	"math"
	"sort"
)

// median is the middle of xs (the mean of the two middle values for an
// even count); xs is not modified.
func median(xs []float64) float64 {
	ys := append([]float64(nil), xs...)
	sort.Float64s(ys)
	n := len(ys)
	if n%2 == 1 {
		return ys[n/2]
	}
	return (ys[n/2-1] + ys[n/2]) / 2
}

// robustSD is 1.4826 x the median absolute deviation of xs from their
// median: the standard deviation of normal data, unmoved by a few outliers.
func robustSD(xs []float64) float64 {
	m := median(xs)
	d := make([]float64, len(xs))
	for i, x := range xs {
		d[i] = math.Abs(x - m)
	}
	return 1.4826 * median(d)
}
