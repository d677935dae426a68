// Package suite runs benchmark suites: every (scenario, policy, seed) of a
// named set, with timelines, and saves the results as tidy CSV and a JSON
// summary that the report generator (benchmarks/report) turns into HTML.
//
// A suite lists (scenario, policy) pairs. The papers' policies are looked up
// in the registry (policies/registry.go) when the suite runs: a pair whose
// policy is not registered is skipped, with a note in the results, so the
// suites pick up OPERA, DRESS, AutoAdmin, iKayak and RAS as they land.
package suite

import (
	"fmt"
	"os"
	"strings"

	"yarngym/benchmarks/models"
	"yarngym/env/scenario"
	"yarngym/env/task"
	"yarngym/policies"
)

// Pair is one (scenario, policy) combination of a suite.
type Pair struct {
	Scenario string
	Policy   string
	// Sets are extra --set overrides (scenario keys or policy parameters).
	Sets []string
	// Label names the variant in tables and charts; empty means Policy.
	Label string
	// Model names a trained controller that sets the policy's parameters
	// every control interval of its task: a committed one
	// (benchmarks/models, "TASK/ALGO") or a model file or folder written by
	// yarngym learn (LoadModel).
	Model string
}

// loadSets are the overrides a run loads the scenario with. With policy
// parameters among them, the scenario's policy is switched too: the scenario
// loader checks --set parameters against the file's own policy.
func (p Pair) loadSets() []string {
	if len(p.Sets) == 0 {
		return nil
	}
	return append([]string{"policy.name=" + p.Policy}, p.Sets...)
}

// Name is the variant's label.
func (p Pair) Name() string {
	if p.Label != "" {
		return p.Label
	}
	return p.Policy
}

// Suite is a named set of pairs, plus the papers whose reproductions
// (benchmarks/repro) are run alongside.
type Suite struct {
	Name   string
	Doc    string
	Pairs  []Pair
	Papers []string
}

func pairs(scenarios []string, pols ...string) []Pair {
	var out []Pair
	for _, s := range scenarios {
		for _, p := range pols {
			out = append(out, Pair{Scenario: s, Policy: p})
		}
	}
	return out
}

// paperSuites are the per-paper suites: each paper's scenarios under its
// baselines (the stock scheduler the paper compares against) and its own
// policy. Reference: papers/INDEX.md (experiments to reproduce).
var paperSuites = []Suite{
	{Name: "opera", Doc: "OPERA Sec. IV: MapReduce, MapReduce + Spark and interactive mixes under Fair and OPERA (PRESERVE, NEUTRAL, AGGRESSIVE relief)",
		Pairs: variants([]string{"opera-mr", "opera-spark", "opera-interactive"}, []Pair{{Policy: "fair"}, {Policy: "opera"},
			{Policy: "opera", Sets: []string{"relief_policy=1"}, Label: "opera-neutral"},
			{Policy: "opera", Sets: []string{"relief_policy=0"}, Label: "opera-aggressive"}}),
		Papers: []string{"opera"}},
	{Name: "dress", Doc: "DRESS Sec. I and V-B: the Fig. 1 toy under FIFO, and the MapReduce, Spark and mixed runs under Capacity and DRESS",
		Pairs: append(pairs([]string{"dress-fig1"}, "fifo", "capacity", "dress"),
			pairs([]string{"dress-mr", "dress-spark", "dress-mixed"}, "capacity", "dress")...),
		Papers: []string{"dress"}},
	{Name: "autoadmin", Doc: "AutoAdmin Sec. 2-4: terasort batches and heterogeneous mixes under Fair, a static reservation and AutoAdmin; the AM deadlock without an AM share limit",
		Pairs: append(pairs([]string{"autoadmin-66", "autoadmin-72"}, "fair", "static-reserve", "autoadmin"),
			append(pairs([]string{"autoadmin-mix"}, "fair", "autoadmin"),
				Pair{Scenario: "terasort-burst", Policy: "fair"},
				Pair{Scenario: "terasort-burst", Policy: "fair", Sets: []string{"max_am_share=-1"}, Label: "fair-no-am-limit"},
				Pair{Scenario: "terasort-burst", Policy: "autoadmin"})...),
		Papers: []string{"autoadmin"}},
	{Name: "ikayak", Doc: "iKayak Sec. 4.3 and 5: MapReduce and Spark mixed 1:1 under Capacity, the SpreadOut, NonSpreadOut and YARN-client baselines, and iKayak",
		Pairs:  pairs([]string{"ikayak"}, "capacity", "spreadout", "nonspreadout", "yarn-client", "ikayak"),
		Papers: []string{"ikayak"}},
	{Name: "ras", Doc: "RAS Sec. 4: the Gridmix jobs of Table 1 under Fair and RAS",
		Pairs: pairs([]string{"ras"}, "fair", "ras"), Papers: []string{"ras"}},
}

// variants returns every scenario under every variant (a Pair without its
// scenario).
func variants(scenarios []string, vs []Pair) []Pair {
	var out []Pair
	for _, s := range scenarios {
		for _, v := range vs {
			v.Scenario = s
			out = append(out, v)
		}
	}
	return out
}

// learnedSuite runs every committed PPO model (benchmarks/models) beside
// its task's policy with the paper's defaults, on the task's scenario.
func learnedSuite() Suite {
	s := Suite{Name: "learned", Doc: "each tuning task's scenario under its policy with the paper's thresholds and under the committed PPO controller (benchmarks/models) that sets them every control interval"}
	for _, key := range models.Keys() {
		tk, algo, _ := strings.Cut(key, "/")
		if algo != "ppo" {
			continue
		}
		t, err := task.Lookup(tk)
		if err != nil {
			continue
		}
		sets := t.Env.Sets
		s.Pairs = append(s.Pairs, Pair{Scenario: t.Env.Scenario, Policy: t.Env.Policy, Sets: sets},
			Pair{Scenario: t.Env.Scenario, Policy: t.Env.Policy, Sets: sets, Label: t.Env.Policy + " + " + algo, Model: key})
	}
	return s
}

// All returns every suite: quick, papers and one per paper.
func All() []Suite {
	out := []Suite{
		{Name: "quick", Doc: "the quick mix and the DRESS Fig. 1 toy under FIFO, Fair and Capacity; runs in seconds (for tests and demos)",
			Pairs: pairs([]string{"quick", "dress-fig1"}, "fifo", "fair", "capacity")},
	}
	all := Suite{Name: "papers", Doc: "every paper's scenarios with its baselines and its policy, and every paper's reproduction"}
	for _, s := range paperSuites {
		all.Pairs = append(all.Pairs, s.Pairs...)
		all.Papers = append(all.Papers, s.Papers...)
	}
	out = append(out, all)
	return append(append(out, paperSuites...), learnedSuite())
}

// Lookup returns the suite called name.
func Lookup(name string) (Suite, bool) {
	for _, s := range All() {
		if s.Name == name {
			return s, true
		}
	}
	return Suite{}, false
}

// Names returns the suites' names in listing order.
func Names() []string {
	var n []string
	for _, s := range All() {
		n = append(n, s.Name)
	}
	return n
}

// Skip is a pair (or paper) left out, and why.
type Skip struct {
	Scenario string `json:"scenario,omitempty"`
	Policy   string `json:"policy,omitempty"`
	Paper    string `json:"paper,omitempty"`
	Reason   string `json:"reason"`
}

// registered reports the policy names in the registry now.
func registered() map[string]bool {
	out := map[string]bool{}
	for _, in := range policies.All() {
		out[in.Name] = true
	}
	return out
}

// Resolve splits the suite's pairs into those that can run and those whose
// policy is not registered (yet) or whose scenario is not built in (yet).
func (s Suite) Resolve() (run []Pair, skipped []Skip) {
	reg := registered()
	builtin := map[string]bool{}
	for _, n := range scenario.Builtins() {
		builtin[n] = true
	}
	for _, p := range s.Pairs {
		if !builtin[p.Scenario] && !isFile(p.Scenario) {
			skipped = append(skipped, Skip{Scenario: p.Scenario, Policy: p.Name(),
				Reason: fmt.Sprintf("scenario %q is neither a built-in scenario (env/scenario/builtin) nor a file", p.Scenario)})
			continue
		}
		if !reg[p.Policy] {
			skipped = append(skipped, Skip{Scenario: p.Scenario, Policy: p.Name(),
				Reason: fmt.Sprintf("policy %q is not registered in policies/registry.go", p.Policy)})
			continue
		}
		// Build once so that a setting the policy does not (or no longer)
		// accept skips the pair with the reason instead of failing the suite.
		sc, err := scenario.Load(p.Scenario, p.loadSets())
		if err == nil {
			_, err = sc.Build(1, p.Policy)
		}
		if err != nil {
			skipped = append(skipped, Skip{Scenario: p.Scenario, Policy: p.Name(), Reason: "cannot build: " + err.Error()})
			continue
		}
		run = append(run, p)
	}
	return run, skipped
}

// isFile reports whether path names a file (a user suite's own scenario).
func isFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && !st.IsDir()
}

// Scenarios returns the suite's scenario names in first-appearance order.
func Scenarios(ps []Pair) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range ps {
		if !seen[p.Scenario] {
			seen[p.Scenario] = true
			out = append(out, p.Scenario)
		}
	}
	return out
}

// Describe lists the suites for usage text.
func Describe() string {
	var b strings.Builder
	all := All()
	w := 0
	for _, s := range all {
		w = max(w, len(s.Name))
	}
	for _, s := range all {
		fmt.Fprintf(&b, "  %-*s  %s\n", w, s.Name, s.Doc)
	}
	return b.String()
}
