package learn

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"gonum.org/v1/gonum/stat"
)

// Thresholds of Explain's verdicts.
const (
	// StillTol: an action whose values over every step of every episode
	// lie within this share of its range does not move (float noise of a
	// saturated policy, not a decision).
	StillTol = 1e-6
	// NearlyConstant: an action whose 5th-95th percentile spread is under
	// this share of its range moves too little for its gain to come from
	// adapting; what it gains is its level, as a static setting's.
	NearlyConstant = 0.05
	// NoLink: below this |mean Spearman| the action follows no feature.
	NoLink = 0.2
)

// FeatureLink is how closely one parameter's action follows one feature of
// the observation over several episodes.
type FeatureLink struct {
	Feature string `json:"feature"`
	// Rho is the mean over the episodes in which the action moves of the
	// per-episode Spearman rank correlation between the action and the
	// feature (0 for an episode in which the feature is constant: the
	// action cannot follow it there); SE is its standard error over those
	// episodes (0 for fewer than two: JSON holds no NaN). Per-episode correlations keep differences
	// between seeds (one seed's busier workload) from reading as following.
	Rho float64 `json:"rho"`
	SE  float64 `json:"se"`
	// Pooled is the Spearman correlation over every step of every episode.
	Pooled float64 `json:"pooled"`
}

// ParamExplanation is Explain's answer for one parameter.
type ParamExplanation struct {
	Param string   `json:"param"`
	Seeds []uint64 `json:"seeds"`
	// Moves is false when the action stays within StillTol of its range
	// over every step; Links and Follows are then empty.
	Moves bool `json:"moves"`
	// MovingSeeds counts the episodes in which the action takes more than
	// one value (the episodes the correlations are over).
	MovingSeeds int `json:"moving_seeds"`
	// P5, Median and P95 are the action's percentiles over all steps;
	// Spread is P95 - P5 as a share of the parameter's range.
	P5     float64 `json:"p5"`
	Median float64 `json:"median"`
	P95    float64 `json:"p95"`
	Spread float64 `json:"spread"`
	// Links are every candidate feature's links, strongest |Rho| first.
	Links []FeatureLink `json:"links,omitempty"`
	// Follows names the strongest link's feature when |Rho| >= NoLink.
	Follows string `json:"follows,omitempty"`
	// Sentence says the above in words.
	Sentence string `json:"sentence"`
}

// Explain says, per controlled parameter, which observed feature the
// action follows over traces (one episode each, of the same task and
// controller). Features named "param.*" are not candidates: they are the
// controller's own previous setting, which any action that moves slowly
// follows. It is pure: the same traces give the same answer.
func Explain(traces []*ActionTrace) ([]ParamExplanation, error) {
	if len(traces) == 0 {
		return nil, fmt.Errorf("explain: no traces")
	}
	first := traces[0]
	for _, tr := range traces {
		if err := checkTrace(tr, first); err != nil {
			return nil, err
		}
	}
	var cands []int
	for k, f := range first.Features {
		if !strings.HasPrefix(f, "param.") {
			cands = append(cands, k)
		}
	}
	var out []ParamExplanation
	for j, p := range first.Params {
		pe := ParamExplanation{Param: p}
		var all []float64
		for _, tr := range traces {
			pe.Seeds = append(pe.Seeds, tr.Seed)
			for _, a := range tr.Actions {
				all = append(all, a[j])
			}
		}
		span := first.High[j] - first.Low[j]
		if span <= 0 {
			span = 1 // a fixed parameter: any movement counts in its own units
		}
		sorted := append([]float64(nil), all...)
		sort.Float64s(sorted)
		pe.P5 = stat.Quantile(0.05, stat.Empirical, sorted, nil)
		pe.Median = stat.Quantile(0.5, stat.Empirical, sorted, nil)
		pe.P95 = stat.Quantile(0.95, stat.Empirical, sorted, nil)
		pe.Spread = (pe.P95 - pe.P5) / span
		pe.Moves = sorted[len(sorted)-1]-sorted[0] > StillTol*span
		if pe.Moves {
			pe.Links, pe.MovingSeeds = links(traces, j, cands, all)
			if len(pe.Links) > 0 && math.Abs(pe.Links[0].Rho) >= NoLink {
				pe.Follows = pe.Links[0].Feature
			}
		}
		pe.Sentence = sentence(pe)
		out = append(out, pe)
	}
	return out, nil
}

// checkTrace checks tr against the first trace: the same parameters and
// features, and one action, observation per step.
func checkTrace(tr, first *ActionTrace) error {
	switch {
	case tr == nil:
		return fmt.Errorf("explain: a nil trace")
	case len(tr.Actions) == 0:
		return fmt.Errorf("explain: seed %d: the trace has no steps", tr.Seed)
	case len(tr.Obs) != len(tr.Actions):
		return fmt.Errorf("explain: seed %d: %d observations for %d steps", tr.Seed, len(tr.Obs), len(tr.Actions))
	case strings.Join(tr.Params, ",") != strings.Join(first.Params, ","):
		return fmt.Errorf("explain: seed %d: parameters %v, the first trace's %v", tr.Seed, tr.Params, first.Params)
	case strings.Join(tr.Features, ",") != strings.Join(first.Features, ","):
		return fmt.Errorf("explain: seed %d: features differ from the first trace's", tr.Seed)
	case len(tr.Low) != len(tr.Params) || len(tr.High) != len(tr.Params):
		return fmt.Errorf("explain: seed %d: %d/%d bounds for %d parameters", tr.Seed, len(tr.Low), len(tr.High), len(tr.Params))
	}
	for i := range tr.Actions {
		if len(tr.Actions[i]) != len(tr.Params) || len(tr.Obs[i]) != len(tr.Features) {
			return fmt.Errorf("explain: seed %d step %d: %d actions for %d parameters, %d features for %d names",
				tr.Seed, i, len(tr.Actions[i]), len(tr.Params), len(tr.Obs[i]), len(tr.Features))
		}
	}
	return nil
}

// links correlates parameter j's action with each candidate feature, per
// episode and pooled, strongest |Rho| first (ties by name).
func links(traces []*ActionTrace, j int, cands []int, all []float64) ([]FeatureLink, int) {
	var moving []*ActionTrace
	for _, tr := range traces {
		if varies(column(tr.Actions, j)) {
			moving = append(moving, tr)
		}
	}
	var out []FeatureLink
	for _, k := range cands {
		var rhos, pooled []float64
		for _, tr := range traces {
			pooled = append(pooled, column(tr.Obs, k)...)
		}
		for _, tr := range moving {
			f := column(tr.Obs, k)
			r := 0.0
			if varies(f) {
				r = spearman(column(tr.Actions, j), f)
			}
			rhos = append(rhos, r)
		}
		l := FeatureLink{Feature: traces[0].Features[k]}
		if varies(pooled) {
			l.Pooled = spearman(all, pooled)
		}
		if n := len(rhos); n > 0 {
			l.Rho = stat.Mean(rhos, nil)
			if n > 1 {
				l.SE = stat.StdDev(rhos, nil) / math.Sqrt(float64(n))
			}
		} else {
			// The action moves only between episodes (constant within
			// each): only the pooled correlation says anything.
			l.Rho = l.Pooled
		}
		out = append(out, l)
	}
	sort.SliceStable(out, func(a, b int) bool {
		ra, rb := math.Abs(out[a].Rho), math.Abs(out[b].Rho)
		if ra != rb {
			return ra > rb
		}
		return out[a].Feature < out[b].Feature
	})
	return out, len(moving)
}

func column(rows [][]float64, j int) []float64 {
	out := make([]float64, len(rows))
	for i, r := range rows {
		out[i] = r[j]
	}
	return out
}

func varies(xs []float64) bool {
	for _, x := range xs {
		if x != xs[0] {
			return true
		}
	}
	return false
}

// spearman is the Pearson correlation of the ranks (ties share their mean
// rank); both series must vary.
func spearman(x, y []float64) float64 {
	return stat.Correlation(ranks(x), ranks(y), nil)
}

func ranks(xs []float64) []float64 {
	idx := make([]int, len(xs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return xs[idx[a]] < xs[idx[b]] })
	r := make([]float64, len(xs))
	for i := 0; i < len(idx); {
		k := i
		for k+1 < len(idx) && xs[idx[k+1]] == xs[idx[i]] {
			k++
		}
		mid := float64(i+k)/2 + 1
		for m := i; m <= k; m++ {
			r[idx[m]] = mid
		}
		i = k + 1
	}
	return r
}

// strength words a correlation's size.
func strength(rho float64) string {
	switch a := math.Abs(rho); {
	case a >= 0.7:
		return "strongly"
	case a >= 0.4:
		return "moderately"
	default:
		return "weakly"
	}
}

func sentence(pe ParamExplanation) string {
	n := len(pe.Seeds)
	if !pe.Moves {
		return fmt.Sprintf("%s does not move: %.4g at every step of %d episodes; it acts as a static setting, and what it gains is that value, not adaptivity.",
			pe.Param, pe.Median, n)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s moves over %.0f %% of its range (5th-95th percentile %.3g-%.3g, median %.3g; it varies within %d of %d episodes)",
		pe.Param, 100*pe.Spread, pe.P5, pe.P95, pe.Median, pe.MovingSeeds, n)
	if pe.Follows == "" {
		fmt.Fprintf(&b, " and follows no observed feature: the strongest, %s, has Spearman rho %s.", pe.Links[0].Feature, rhoText(pe.Links[0], pe.MovingSeeds))
	} else {
		l := pe.Links[0]
		fmt.Fprintf(&b, " and %s follows %s: Spearman rho %s, pooled over all steps %+.2f", strength(l.Rho), l.Feature, rhoText(l, pe.MovingSeeds), l.Pooled)
		var next []string
		for _, m := range pe.Links[1:min(3, len(pe.Links))] {
			next = append(next, fmt.Sprintf("%s %+.2f", m.Feature, m.Rho))
		}
		if len(next) > 0 {
			fmt.Fprintf(&b, " (next: %s)", strings.Join(next, ", "))
		}
		b.WriteString(".")
	}
	if pe.Spread < NearlyConstant {
		b.WriteString(" It is nearly constant: what it gains is mostly its level, not adaptivity.")
	}
	return b.String()
}

func rhoText(l FeatureLink, seeds int) string {
	if seeds < 2 {
		return fmt.Sprintf("%+.2f (over %d episode(s) in which it varies)", l.Rho, seeds)
	}
	return fmt.Sprintf("%+.2f ± %.2f (mean ± s.e. over %d episodes)", l.Rho, l.SE, seeds)
}
