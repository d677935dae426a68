package capacity

import "testing"

// TestDominantCompare: Resources.greaterThan, max and min under the
// DominantResourceCalculator compare the largest shares of the cluster,
// then the smaller ones; roundUp rounds each resource up.
// Reference: Hadoop 3.3.6 DominantResourceCalculator.compare
// (calculateSharesForTwoNumericResources), Resources.roundUp.
func TestDominantCompare(t *testing.T) {
	c := dres{mem: 100, vc: 10}
	for _, x := range []struct {
		name string
		a, b dres
		want bool
	}{
		{"larger dominant share wins whatever the resource", dres{10, 5}, dres{40, 1}, true}, // 0.5 against 0.4
		{"smaller dominant share loses", dres{40, 1}, dres{10, 5}, false},
		{"equal dominant shares: the smaller share decides", dres{50, 2}, dres{10, 5}, true}, // 0.5, 0.2 against 0.5, 0.1
		{"equal resources are not greater", dres{50, 2}, dres{50, 2}, false},
		{"a negative share counts as it is", dres{-10, 3}, dres{20, 2}, true}, // 0.3 against 0.2
		{"over the cluster in one resource", dres{10, 11}, dres{100, 10}, true},
	} {
		if got := greater(x.a, x.b, c); got != x.want {
			t.Errorf("%s: greater(%v, %v) = %v", x.name, x.a, x.b, got)
		}
	}
	if m := dmax(dres{10, 5}, dres{40, 1}, c); m != (dres{10, 5}) {
		t.Errorf("dmax: %v", m)
	}
	if m := dmin(dres{10, 5}, dres{40, 1}, c); m != (dres{40, 1}) {
		t.Errorf("dmin: %v", m)
	}
	if r := roundUp(dres{1500, 2.5}, dres{1024, 1}); r != (dres{2048, 3}) {
		t.Errorf("roundUp: %v", r)
	}
}
