package ras

import (
	"math"
	"testing"
)

// TestUtilityFig2 checks Eq. 1-3 at the point of Fig. 2 (s_req = 20, s_pend
// = 35, r_pend = 10), with values worked out by hand.
// Reference: RAS Sec. 3.3, Eq. 1-3, Fig. 2.
func TestUtilityFig2(t *testing.T) {
	const sReq, sPend, rPend = 20, 35, 10
	cases := []struct {
		sAlloc, rAlloc float64
		want           float64
		why            string
	}{
		{20, 10, 0, "s_alloc = s_req, every reducer placed: u^M = 0, u^R = 0"},
		{35, 10, 1, "every pending map placed: u^M = (35-20)/(35-20) = 1"},
		{26, 10, 0.4, "linear branch: (26-20)/15"},
		{27, 7, 0.4666666666666667 + math.Log(7)/math.Log(10) - 1, "(27-20)/15 + log 7/log 10 - 1 = 0.3118"},
		{10, 10, math.Log(10)/math.Log(20) - 1, "log branch: log 10/log 20 - 1 = -0.2314"},
		{5, 3, math.Log(5)/math.Log(20) - 1 + math.Log(3)/math.Log(10) - 1, "-0.4628 - 0.5229 = -0.9856"},
		{1, 1, -2, "log 1 = 0: u^M = -1 and u^R = -1"},
		{20, 0, -1, "no reducer placed: u^R = -1, the bottom of its [-1, 0] range"},
		{35, 5, math.Log(5) / math.Log(10), "1 + log 5/log 10 - 1 = 0.6990"},
		{50, 5, 1, "u^M = (50-20)/15 = 2, u = 2 - 0.301 capped at 1"},
		{50, 10, 1, "u^M = 2 capped at 1"},
		{0, 10, math.Inf(-1), "no map slot: log 0 = -Inf"},
	}
	for _, c := range cases {
		got := Utility(c.sAlloc, sReq, sPend, c.rAlloc, rPend)
		if math.IsInf(c.want, -1) {
			if !math.IsInf(got, -1) {
				t.Errorf("u(%v, %v) = %v, want -Inf (%s)", c.sAlloc, c.rAlloc, got, c.why)
			}
			continue
		}
		if math.Abs(got-c.want) > 1e-12 {
			t.Errorf("u(%v, %v) = %.6f, want %.6f (%s)", c.sAlloc, c.rAlloc, got, c.want, c.why)
		}
	}
}

// TestUtilityShape: u^M is increasing in s_alloc and u^R in r_alloc (Sec.
// 3.3: "u_j^M is a monotonically increasing utility function, with values in
// the range (-Inf, 1]"; u^R "is [-1, 0]").
// Reference: RAS Sec. 3.3.
func TestUtilityShape(t *testing.T) {
	prev := math.Inf(-1)
	for s := 1.0; s <= 35; s++ {
		u := MapUtility(s, 20, 35)
		if u <= prev || u > 1 {
			t.Fatalf("u^M(%v) = %v after %v: not increasing within (-Inf, 1]", s, u, prev)
		}
		prev = u
	}
	prev = -2
	for r := 1.0; r <= 10; r++ {
		u := ReduceUtility(r, 10)
		if u < prev || u < -1 || u > 0 {
			t.Fatalf("u^R(%v) = %v after %v: not non-decreasing within [-1, 0]", r, u, prev)
		}
		prev = u
	}
	// A single reducer: -1 until placed, then 0 (log 1 = 0 would divide by zero).
	if ReduceUtility(0, 1) != -1 || ReduceUtility(1, 1) != 0 {
		t.Fatal("one pending reducer: want -1 unplaced, 0 placed")
	}
	// s_req = s_pend: the linear branch would divide by zero; all placed is 1.
	if MapUtility(35, 35, 35) != 1 || MapUtility(10, 35, 35) >= 0 {
		t.Fatal("s_req = s_pend: want 1 when all placed, negative below")
	}
}

// TestRequiredSlots checks the Job Completion Time Estimator: 35 maps of
// 100 s with 175 s to the goal need ceil(35*100/175) = 20 concurrent maps,
// the s_req of Fig. 2.
// Reference: RAS Sec. 3.2 (Job Completion Time Estimator), Sec. 3.1, Sec.
// 4.2 (Fig. 5).
func TestRequiredSlots(t *testing.T) {
	cases := []struct {
		sPend      int
		mean, left float64
		hasGoal    bool
		want       float64
		why        string
	}{
		{35, 100, 175, true, 20, "Fig. 2's s_req"},
		{35, 100, 1e6, true, 1, "a lax goal needs one slot"},
		{35, 100, 3500, true, 1, "35 x 100 s fit in 3,500 s serially"},
		{35, 100, 3499, true, 2, "just under: two at once"},
		{35, 100, 80, true, 35, "less than one task length left: everything at once"},
		{35, 0, 1e6, true, 35, "no task length at all: everything at once"},
		{35, 100, 1e6, false, 35, "no goal: earliest possible"},
		{0, 100, 175, true, 0, "nothing left"},
	}
	for _, c := range cases {
		if got := RequiredSlots(c.sPend, c.mean, c.left, c.hasGoal); got != c.want {
			t.Errorf("%s: s_req = %v, want %v", c.why, got, c.want)
		}
	}
}
