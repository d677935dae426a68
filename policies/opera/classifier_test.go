package opera

import (
	"math"
	"runtime"
	"testing"
)

// feats builds a feature tuple (Eq. 1) from its four levels' values.
func feats(f, a, s, full string) [levels]string {
	return [levels]string{f, f + "|" + a, f + "|" + a + "|" + s, full}
}

// TestPosteriorByHand: the posterior of a hand-built example equals the one
// computed by hand from Eq. 2-3 with add-one smoothing.
//
// Reference: OPERA Sec. III-B, Eq. 2-3.
func TestPosteriorByHand(t *testing.T) {
	c := NewClassifier()
	mrMap := feats("mr", "sort", "map", "mr|sort|map|p0|4x1024")
	mrRed := feats("mr", "sort", "reduce", "mr|sort|reduce|p0|2x1024")
	spark := feats("spark", "ps", "exec", "spark|ps|exec|p0|4x10240")
	// Three short maps, one long map, two long reducers, one long executor.
	for _, x := range []struct {
		f     [levels]string
		runMs int64
	}{{mrMap, 30000}, {mrMap, 20000}, {mrMap, 59999}, {mrMap, 60000}, {mrRed, 90000}, {mrRed, 200000}, {spark, 600000}} {
		c.Learn(x.f, x.runMs)
	}
	// Counts: short 3, long 4, total 7. Distinct values per level:
	// {F}: mr, spark (2); {F,A}: 2; {F,A,S}: 3; full: 3.
	// Laplace: P(C) = (n_C+1)/(7+2); P(v|C) = (n_vC+1)/(n_C+V+1).
	pS := 4.0 / 9 * (3 + 1.0) / (3 + 3) * (3 + 1.0) / (3 + 3) * (3 + 1.0) / (3 + 4) * (3 + 1.0) / (3 + 4)
	pL := 5.0 / 9 * (3 + 1.0) / (4 + 3) * (3 + 1.0) / (4 + 3) * (1 + 1.0) / (4 + 4) * (1 + 1.0) / (4 + 4)
	cases := []struct {
		name  string
		f     [levels]string
		want  float64
		class int
	}{
		{"map", mrMap, pS / (pS + pL), Short},
		// A reducer: short counts 0 at the two deepest levels.
		{"reduce", mrRed,
			func() float64 {
				s := 4.0 / 9 * 4 / 6 * 4 / 6 * 1 / 7 * 1 / 7
				l := 5.0 / 9 * 4 / 7 * 4 / 7 * 3 / 8 * 3 / 8
				return s / (s + l)
			}(), Long},
		// A map in an unseen progress bucket: the full feature is unseen.
		{"map, new bucket", feats("mr", "sort", "map", "mr|sort|map|p3|4x1024"),
			func() float64 {
				s := 4.0 / 9 * 4 / 6 * 4 / 6 * 4 / 7 * 1 / 7
				l := 5.0 / 9 * 4 / 7 * 4 / 7 * 2 / 8 * 1 / 8
				return s / (s + l)
			}(), Short},
	}
	for _, tc := range cases {
		p, known := c.PosteriorShort(tc.f)
		if !known || math.Abs(p-tc.want) > 1e-12 {
			t.Errorf("%s: P(short) = %.12f (known %v), want %.12f", tc.name, p, known, tc.want)
		}
		if got := c.Classify(tc.f); got != tc.class {
			t.Errorf("%s: class %d, want %d", tc.name, got, tc.class)
		}
	}
	// The posterior cutoff moves the decision: the map's posterior is about
	// 0.85; a cutoff above it makes the map long.
	c.PosteriorCutoff = 0.9
	if c.Classify(mrMap) != Long {
		t.Error("posterior_cutoff 0.9: the map should be long")
	}
}

// TestUnseenIsLong: with no history, or features none of which was ever
// seen ("an application with all new features"), a task is long.
//
// Reference: OPERA Sec. III-B ("we opt to conservatively classify the task
// as a long one").
func TestUnseenIsLong(t *testing.T) {
	c := NewClassifier()
	f := feats("mr", "wc", "map", "mr|wc|map|p0|4x1024")
	if p, known := c.PosteriorShort(f); known || p != 0 || c.Classify(f) != Long {
		t.Fatalf("empty classifier: P=%v known=%v class=%d, want long", p, known, c.Classify(f))
	}
	for i := 0; i < 50; i++ {
		c.Learn(f, 10000) // only short tasks seen
	}
	if c.Classify(f) != Short {
		t.Fatal("a task seen 50 times short should be short")
	}
	spark := feats("spark", "ps", "exec", "spark|ps|exec|p0|4x10240")
	if _, known := c.PosteriorShort(spark); known || c.Classify(spark) != Long {
		t.Fatal("a task of an unseen framework must be long")
	}
}

// TestDurationCutoff: a finished task is short iff it ran less than the
// cutoff (1 minute by default).
//
// Reference: OPERA Sec. III-B ("less than a threshold (e.g., 1 minute)").
func TestDurationCutoff(t *testing.T) {
	c := NewClassifier()
	for _, tc := range []struct {
		cutoffS float64
		runMs   int64
		want    int
	}{{60, 59999, Short}, {60, 60000, Long}, {60, 1, Short}, {30, 45000, Long}, {120, 90000, Short}} {
		c.CutoffS = tc.cutoffS
		if got := c.ClassOf(tc.runMs); got != tc.want {
			t.Errorf("cutoff %vs, run %d ms: class %d, want %d", tc.cutoffS, tc.runMs, got, tc.want)
		}
	}
}

// TestAccuracy: accuracies are the diagonal shares of the confusion counts.
//
// Reference: OPERA Table III (2417 of 2777 short, 105 of 107 long).
func TestAccuracy(t *testing.T) {
	c := NewClassifier()
	c.Confusion = [2][2]int64{{2417, 360}, {2, 105}}
	if s, l := c.Accuracy(Short), c.Accuracy(Long); math.Abs(s-0.870) > 0.001 || math.Abs(l-0.981) > 0.001 {
		t.Fatalf("accuracy %.4f / %.4f, want 0.870 / 0.981", s, l)
	}
}

// TestLogistic: the logistic posterior learns which features mean short
// from finished tasks alone, calls a task with no seen feature unknown, is
// deterministic, and runs inside the simulator's single goroutine (gorgonia's
// tape machine starts none).
func TestLogistic(t *testing.T) {
	before := runtime.NumGoroutine()
	c := NewClassifier()
	c.Model = ModelLogistic
	short := [levels]string{"mapreduce", "mapreduce|sort", "mapreduce|sort|map", "mapreduce|sort|map|p0|1x1024"}
	long := [levels]string{"mapreduce", "mapreduce|sort", "mapreduce|sort|reduce", "mapreduce|sort|reduce|p0|1x2048"}
	if _, known := c.PosteriorShort(short); known || c.Classify(short) != Long {
		t.Fatal("an unseen task is not long")
	}
	for range 50 {
		c.Learn(short, 10000)
		c.Learn(long, 200000)
	}
	ps, known := c.PosteriorShort(short)
	pl, _ := c.PosteriorShort(long)
	if !known || ps < 0.9 || pl > 0.1 || c.Classify(short) != Short || c.Classify(long) != Long {
		t.Fatalf("P(short|map) = %v, P(short|reduce) = %v after 50 of each", ps, pl)
	}
	// A new stage of the same application: the shared levels decide.
	other := [levels]string{"mapreduce", "mapreduce|sort", "mapreduce|sort|merge", "mapreduce|sort|merge|p0|1x1024"}
	if p, known := c.PosteriorShort(other); !known || p <= 0 || p >= 1 {
		t.Errorf("a partly known task: p %v, known %v", p, known)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after training, %d before", n, before)
	}
	// The same updates give the same weights, bit for bit.
	d := NewClassifier()
	d.Model = ModelLogistic
	for range 50 {
		d.Learn(short, 10000)
		d.Learn(long, 200000)
	}
	if q, _ := d.PosteriorShort(short); math.Float64bits(q) != math.Float64bits(ps) {
		t.Errorf("two classifiers trained alike disagree: %v vs %v", q, ps)
	}
	// The naive Bayes model was not trained meanwhile.
	if _, known := c.bayes.PosteriorShort(short); known {
		t.Error("the logistic classifier also fed the naive Bayes")
	}
}
