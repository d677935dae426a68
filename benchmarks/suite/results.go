package suite

import (
	"encoding/json"
	"math"
	"sort"

	"yarngym/benchmarks/repro"
	"yarngym/runner"
)

// Results is everything a suite run produced: what the report is built
// from. Jobs, timelines and policy state are saved as CSV beside the JSON
// summary (see Write), so they are not part of the JSON.
type Results struct {
	Suite string   `json:"suite"`
	Doc   string   `json:"doc"`
	Seeds []uint64 `json:"seeds"`
	// TimelineS is the sampling interval; timelines longer than MaxPoints
	// samples keep every k-th sample (and the last).
	TimelineS  float64     `json:"timeline_s"`
	MaxPoints  int         `json:"timeline_max_points"`
	Skipped    []Skip      `json:"skipped"`
	Runs       []Record    `json:"runs"`
	Aggregates []Aggregate `json:"aggregates"`
	Papers     []Paper     `json:"papers"`
	// JobColumns is the header of the per-job rows (runner's jobs.csv).
	JobColumns []string `json:"-"`
}

// Record is one (scenario, policy, seed) run.
type Record struct {
	Variant string   `json:"variant"`
	Sets    []string `json:"sets"`
	runner.SummaryJSON
	// StateVars are the policy's StateVar names, in order (the columns of
	// Point.State).
	StateVars []string `json:"state_vars"`

	Jobs     [][]string `json:"-"` // per-job rows, columns Results.JobColumns
	Timeline []Point    `json:"-"`
}

// Point is one timeline sample.
type Point struct {
	TS               float64
	VCoresGuaranteed float64
	VCoresOpp        float64
	VCoresUsed       float64
	MemMBReserved    float64
	MemMBUsed        float64
	ContainersNormal float64
	ContainersOpp    float64
	PendingTasks     float64
	WaitingJobs      float64
	RunningJobs      float64
	State            []float64
}

// Stat is a mean and sample standard deviation over seeds.
type Stat struct {
	Mean float64 `json:"mean"`
	SD   float64 `json:"sd"`
}

// Aggregate is one (scenario, variant) over its seeds.
type Aggregate struct {
	Scenario string          `json:"scenario"`
	Variant  string          `json:"variant"`
	Policy   string          `json:"policy"`
	Seeds    int             `json:"seeds"`
	Metrics  map[string]Stat `json:"metrics"`
}

// Paper is one paper's reproduction: its published figures beside the
// simulated ones (benchmarks/repro).
type Paper struct {
	Name  string     `json:"name"`
	Title string     `json:"title"`
	Rows  []PaperRow `json:"rows"`
}

// PaperRow is repro.Row with NaN written as null both ways.
type PaperRow struct {
	Experiment  string `json:"experiment"`
	Metric      string `json:"metric"`
	Unit        string `json:"unit"`
	Paper       Num    `json:"paper"`
	Simulated   Num    `json:"simulated"`
	SimulatedSD Num    `json:"simulated_sd"`
	Note        string `json:"note,omitempty"`
}

// Num is a float64 that is null in JSON when NaN or infinite.
type Num float64

// MarshalJSON writes null for NaN and infinities.
func (n Num) MarshalJSON() ([]byte, error) {
	f := float64(n)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return json.Marshal(round6(f))
}

// UnmarshalJSON reads null as NaN.
func (n *Num) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*n = Num(math.NaN())
		return nil
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	*n = Num(f)
	return nil
}

func paperRows(rows []repro.Row) []PaperRow {
	out := make([]PaperRow, len(rows))
	for i, r := range rows {
		out[i] = PaperRow{Experiment: r.Experiment, Metric: r.Metric, Unit: r.Unit, Paper: Num(r.Paper),
			Simulated: Num(r.Simulated), SimulatedSD: Num(r.SimulatedSD), Note: r.Note}
	}
	return out
}

// round6 keeps 6 decimals, as the runner's summaries do.
func round6(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	return math.Round(x*1e6) / 1e6
}

// aggMetrics are the per-run numbers aggregated over seeds.
var aggMetrics = []struct {
	name string
	get  func(s *runner.SummaryJSON) float64
}{
	{"mean_completion_s", func(s *runner.SummaryJSON) float64 { return s.MeanCompletionS }},
	{"makespan_s", func(s *runner.SummaryJSON) float64 { return s.MakespanS }},
	{"mean_wait_s", func(s *runner.SummaryJSON) float64 { return s.MeanWaitS }},
	{"jobs_completed", func(s *runner.SummaryJSON) float64 { return float64(s.JobsCompleted) }},
	{"jobs_stuck", func(s *runner.SummaryJSON) float64 { return float64(s.JobsStuck) }},
	{"tasks_killed", func(s *runner.SummaryJSON) float64 { return float64(s.TasksKilled) }},
	{"wasted_work_s", func(s *runner.SummaryJSON) float64 { return s.WastedWorkS }},
	{"opportunistic_started", func(s *runner.SummaryJSON) float64 { return float64(s.OpportunisticStarted) }},
	{"reducers_suspended", func(s *runner.SummaryJSON) float64 { return float64(s.ReducersSuspended) }},
	{"vcores_reserved_mean", func(s *runner.SummaryJSON) float64 { return s.VCoresReservedMean }},
	{"vcores_used_mean", func(s *runner.SummaryJSON) float64 { return s.VCoresUsedMean }},
	{"mem_mb_reserved_mean", func(s *runner.SummaryJSON) float64 { return s.MemMBReservedMean }},
	{"mem_mb_used_mean", func(s *runner.SummaryJSON) float64 { return s.MemMBUsedMean }},
	{"swap_s", func(s *runner.SummaryJSON) float64 { return s.SwapS }},
}

// AggregateRuns groups runs by (scenario, variant), in first-appearance order,
// with each metric's mean and sample standard deviation over seeds.
func AggregateRuns(runs []Record) []Aggregate {
	type key struct{ sc, v string }
	idx := map[key]int{}
	var out []Aggregate
	var members [][]int
	for i, r := range runs {
		k := key{r.Scenario, r.Variant}
		j, ok := idx[k]
		if !ok {
			j = len(out)
			idx[k] = j
			out = append(out, Aggregate{Scenario: r.Scenario, Variant: r.Variant, Policy: r.Policy, Metrics: map[string]Stat{}})
			members = append(members, nil)
		}
		members[j] = append(members[j], i)
	}
	for j := range out {
		out[j].Seeds = len(members[j])
		for _, m := range aggMetrics {
			xs := make([]float64, 0, len(members[j]))
			for _, i := range members[j] {
				xs = append(xs, m.get(&runs[i].SummaryJSON))
			}
			st := repro.MeanSD(xs)
			out[j].Metrics[m.name] = Stat{round6(st.Mean), round6(st.SD)}
		}
	}
	return out
}

// Find returns the aggregate of (scenario, variant), or nil.
func (r *Results) Find(scenario, variant string) *Aggregate {
	for i := range r.Aggregates {
		if r.Aggregates[i].Scenario == scenario && r.Aggregates[i].Variant == variant {
			return &r.Aggregates[i]
		}
	}
	return nil
}

// Scenarios returns the scenarios run, in order.
func (r *Results) Scenarios() []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range r.Runs {
		if !seen[x.Scenario] {
			seen[x.Scenario] = true
			out = append(out, x.Scenario)
		}
	}
	return out
}

// Variants returns the variants run on scenario, in order.
func (r *Results) Variants(scenario string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range r.Runs {
		if x.Scenario == scenario && !seen[x.Variant] {
			seen[x.Variant] = true
			out = append(out, x.Variant)
		}
	}
	return out
}

// RunsOf returns the runs of (scenario, variant), by seed.
func (r *Results) RunsOf(scenario, variant string) []*Record {
	var out []*Record
	for i := range r.Runs {
		if r.Runs[i].Scenario == scenario && r.Runs[i].Variant == variant {
			out = append(out, &r.Runs[i])
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Seed < out[b].Seed })
	return out
}
