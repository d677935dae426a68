package dress

import (
	"math"
	"testing"
)

// TestAdjust checks Alg. 3's three branches by hand.
// Reference: DRESS Sec. IV-C, Alg. 3.
func TestAdjust(t *testing.T) {
	cases := []struct {
		name  string
		delta float64
		d     Demand
		want  float64
	}{
		{"SD covered: surplus to LD (l. 7-8)", 0.1,
			Demand{TotR: 100, Ac1: 10, F1: 2, SD: []float64{5}, Ac2: 0, LD: []float64{50}}, 0.1 - 7.0/100},
		{"no SD demand: the whole SD surplus goes", 0.1,
			Demand{TotR: 100, Ac1: 10, LD: []float64{50}}, 0},
		{"SD short, LD covered: LD surplus to SD (l. 9-11)", 0.1,
			Demand{TotR: 100, Ac1: 0, SD: []float64{5}, Ac2: 20, F2: 3, LD: []float64{8}}, 0.1 + 15.0/100},
		{"predicted releases count: F1 covers SD", 0.05,
			Demand{TotR: 100, Ac1: 1, F1: 6, SD: []float64{7}, LD: []float64{40}}, 0.05},
		{"both short, leftovers move to SD (l. 12-24)", 0.1,
			// SD [2 4 5] into 3: 2 fits, 1 left; LD [12 20] into 7: none fit;
			// SD 4 <= 1 + 7: 3 come from LD (delta += 0.03); SD 5 > 0 + 4: stop.
			Demand{TotR: 100, Ac1: 2, F1: 1, SD: []float64{5, 2, 4}, Ac2: 3, F2: 4, LD: []float64{20, 12}}, 0.13},
		{"both short, LD absorbs its releases", 0.1,
			// LD [6 20] into 7: 6 fits, 1 left; SD [4] into 0 + 1: no.
			Demand{TotR: 100, Ac1: 0, F1: 0, SD: []float64{4}, Ac2: 3, F2: 4, LD: []float64{20, 6}}, 0.1},
		{"both short, several SD jobs moved", 0.2,
			// SD [1 1 3] into 0; LD [30] into 5: none; SD 1, 1, 3 from LD: 5 moved.
			Demand{TotR: 50, SD: []float64{3, 1, 1}, Ac2: 5, LD: []float64{30}}, 0.2 + 5.0/50},
		{"exact fit is met", 0.1,
			Demand{TotR: 10, Ac1: 0, SD: []float64{2}, Ac2: 0, F2: 2, LD: []float64{3}}, 0.1 + 2.0/10},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Adjust(c.delta, c.d); math.Abs(got-c.want) > 1e-12 {
				t.Fatalf("Adjust = %v, want %v", got, c.want)
			}
		})
	}
}

// TestDeltaUpAndBack: SD demand beyond the SD pool's predicted availability
// raises delta (from LD's surplus, or from LD's leftovers when LD is short
// too); once SD's demand is met its surplus lowers delta again.
// Reference: DRESS Sec. IV-C, Alg. 3 l. 7-11.
func TestDeltaUpAndBack(t *testing.T) {
	delta := 0.1
	// Step 1: 20 containers pending for SD, its pool has 10 free; LD has 30
	// spare beyond its 5 pending.
	delta = Adjust(delta, Demand{TotR: 100, Ac1: 10, SD: []float64{20}, Ac2: 35, LD: []float64{5}})
	if math.Abs(delta-0.4) > 1e-12 {
		t.Fatalf("after SD demand: delta %v, want 0.4", delta)
	}
	// Step 2: SD got its 20 (30 used of 40): 10 spare, nothing pending.
	delta = Adjust(delta, Demand{TotR: 100, Ac1: 10, Ac2: 0, LD: []float64{50}})
	if math.Abs(delta-0.3) > 1e-12 {
		t.Fatalf("after SD demand met: delta %v, want 0.3", delta)
	}
	// Step 3: a release of 8 is predicted from SD and 4 pending: 4 spare.
	delta = Adjust(delta, Demand{TotR: 100, F1: 8, SD: []float64{4}, LD: []float64{50}})
	if math.Abs(delta-0.26) > 1e-12 {
		t.Fatalf("with predicted SD releases: delta %v, want 0.26", delta)
	}
}
