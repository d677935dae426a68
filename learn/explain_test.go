package learn

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// synthTraces builds traces of seeds 1..n, 50 steps each, over the
// features load_a, load_b (independent random walks), noise (i.i.d.) and
// param.x (the action's own previous value, as the env observes it), with
// the action act(load_a, load_b, noise) on a parameter of range [0, 2].
func synthTraces(n int, act func(a, b, noise float64) float64) []*ActionTrace {
	var out []*ActionTrace
	for s := 1; s <= n; s++ {
		r := rand.New(rand.NewPCG(uint64(s), 7))
		tr := &ActionTrace{Seed: uint64(s), Params: []string{"x"}, Low: []float64{0}, High: []float64{2},
			Features: []string{"load_a", "load_b", "noise", "param.x"}}
		a, b, prev := 0.5, 0.5, 1.0
		for i := range 50 {
			a = min(max(a+0.1*(r.Float64()-0.5), 0), 1)
			b = min(max(b+0.1*(r.Float64()-0.5), 0), 1)
			noise := r.Float64()
			x := act(a, b, noise)
			tr.TimeS = append(tr.TimeS, float64(i))
			tr.Obs = append(tr.Obs, []float64{a, b, noise, prev})
			tr.Actions = append(tr.Actions, []float64{x})
			prev = x
		}
		out = append(out, tr)
	}
	return out
}

// hidden returns an action drawn from its own random source, which no
// feature observes.
func hidden() func(a, b, noise float64) float64 {
	r := rand.New(rand.NewPCG(9, 9))
	return func(_, _, _ float64) float64 { return 2 * r.Float64() }
}

func TestExplainNamesTheFollowedFeature(t *testing.T) {
	for _, c := range []struct {
		name    string
		act     func(a, b, noise float64) float64
		moves   bool
		follows string   // "" : none
		sign    float64  // the strongest link's sign when follows is set
		says    []string // in the sentence
	}{
		{"rises with load_a", func(a, _, _ float64) float64 { return 0.2 + 1.5*a }, true, "load_a", 1, []string{"strongly follows load_a"}},
		{"falls with load_b, nonlinear", func(_, b, _ float64) float64 { return 2 - math.Exp(b) }, true, "load_b", -1, []string{"strongly follows load_b", "rho -1.00"}},
		{"constant", func(_, _, _ float64) float64 { return 1.1 }, false, "", 0, []string{"does not move", "1.1 at every step", "not adaptivity"}},
		// The action is drawn from a source the observation does not hold;
		// param.x echoes it: it must not be the answer, and the observed
		// features are independent of the action.
		{"follows only itself", hidden(), true, "", 0, []string{"follows no observed feature"}},
		{"nearly constant", func(a, _, _ float64) float64 { return 1 + 0.01*a }, true, "load_a", 1, []string{"strongly follows load_a", "nearly constant"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ex, err := Explain(synthTraces(6, c.act))
			if err != nil {
				t.Fatal(err)
			}
			if len(ex) != 1 {
				t.Fatalf("%d explanations, want 1", len(ex))
			}
			e := ex[0]
			if e.Moves != c.moves || e.Follows != c.follows {
				t.Fatalf("moves %v follows %q, want %v %q: %s", e.Moves, e.Follows, c.moves, c.follows, e.Sentence)
			}
			if c.follows != "" {
				if l := e.Links[0]; l.Rho*c.sign < 0.9 || l.Pooled*c.sign < 0.9 || !(l.SE < 0.05) {
					t.Errorf("link %+v, want |rho| >= 0.9 with sign %v and a small s.e.", l, c.sign)
				}
			}
			if !e.Moves && (len(e.Links) != 0 || e.MovingSeeds != 0) {
				t.Errorf("a still action has links %v over %d seeds", e.Links, e.MovingSeeds)
			}
			for _, l := range e.Links {
				if strings.HasPrefix(l.Feature, "param.") {
					t.Errorf("candidate %s: the controller's own setting is not a feature it can follow", l.Feature)
				}
			}
			if !slices.Equal(e.Seeds, []uint64{1, 2, 3, 4, 5, 6}) {
				t.Errorf("seeds %v", e.Seeds)
			}
			for _, s := range c.says {
				if !strings.Contains(e.Sentence, s) {
					t.Errorf("sentence %q does not say %q", e.Sentence, s)
				}
			}
		})
	}
}

func TestExplainIsPure(t *testing.T) {
	trs := synthTraces(4, func(a, b, _ float64) float64 { return a + b })
	x, err := Explain(trs)
	if err != nil {
		t.Fatal(err)
	}
	y, _ := Explain(trs)
	if x[0].Sentence != y[0].Sentence || x[0].Follows == "" {
		t.Fatalf("two calls differ or name nothing: %q, %q", x[0].Sentence, y[0].Sentence)
	}
}

func TestExplainRejectsBadTraces(t *testing.T) {
	ok := func() []*ActionTrace { return synthTraces(2, func(a, _, _ float64) float64 { return a }) }
	short := ok()
	short[1].Obs = short[1].Obs[:10]
	other := ok()
	other[1].Features = []string{"a", "b", "c", "d"}
	for _, c := range []struct {
		name string
		trs  []*ActionTrace
		want string
	}{
		{"none", nil, "no traces"},
		{"fewer observations", short, "seed 2: 10 observations for 50 steps"},
		{"other features", other, "seed 2: features differ"},
	} {
		if _, err := Explain(c.trs); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
	}
}

func TestRanksShareTies(t *testing.T) {
	if got := ranks([]float64{3, 1, 2, 2}); !slices.Equal(got, []float64{4, 1, 2.5, 2.5}) {
		t.Fatalf("ranks %v", got)
	}
}
