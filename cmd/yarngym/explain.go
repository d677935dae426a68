package main

import (
	"fmt"
	"io"
	"strconv"

	"yarngym/internal/atomicfile"

	"yarngym/benchmarks/report"
	"yarngym/env/task"
	"yarngym/learn"
)

// explained is a controller's episodes over some seeds and what its
// actions follow in them (learn.Explain).
type explained struct {
	Traces []*learn.ActionTrace
	Params []learn.ParamExplanation
	Over   string // the seeds, in words: "test seeds 1-20"
	// Held are the returns of the controller's median action held fixed
	// on the same seeds, VsHeld the controller's paired difference from
	// them (evaluate --explain; empty, N = 0 when not measured).
	Held    []float64
	VsHeld  task.Stat
	feature map[string]int
}

// medians is each parameter's median action over every step played.
func (x *explained) medians() []float64 {
	out := make([]float64, len(x.Params))
	for i, p := range x.Params {
		out[i] = p.Median
	}
	return out
}

// explainModel plays m on t's seeds (the split's name, for the words) and
// explains its actions. Each episode gets its own agent (a model's agent
// keeps no state, but TraceAll asks for one per episode).
func explainModel(t task.Task, m *learn.Model, split string, seeds []uint64, workers int) (*explained, error) {
	trs, err := learn.TraceAll(t, m.Agent, seeds, workers)
	if err != nil {
		return nil, err
	}
	ex, err := learn.Explain(trs)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t.ID, err)
	}
	over := fmt.Sprintf("%s seeds %d-%d", split, seeds[0], seeds[len(seeds)-1])
	if len(seeds) == 1 {
		over = fmt.Sprintf("%s seed %d", split, seeds[0])
	}
	x := &explained{Traces: trs, Params: ex, Over: over, feature: map[string]int{}}
	for k, f := range trs[0].Features {
		x.feature[f] = k
	}
	return x, nil
}

// fill puts the first episode and the explanation into a learning report.
func (x *explained) fill(l *report.Learning) {
	tr := x.Traces[0]
	l.EpisodeSeed, l.Params, l.TimeS, l.Actions = tr.Seed, tr.Params, tr.TimeS, tr.Actions
	l.LoadNames, l.LoadShare, l.Load = tr.LoadNames, learn.LoadShare, tr.Load
	l.FollowOver = x.Over
	for _, p := range x.Params {
		f := report.Follow{Param: p.Param, Sentence: p.Sentence, Feature: p.Follows}
		if k, ok := x.feature[p.Follows]; ok && p.Follows != "" {
			for _, o := range tr.Obs {
				f.Values = append(f.Values, o[k])
			}
		}
		l.Follow = append(l.Follow, f)
	}
}

// print writes one line per parameter: what its action follows.
func (x *explained) print(w io.Writer) {
	fmt.Fprintf(w, "what the actions follow (%s):\n", x.Over)
	for _, p := range x.Params {
		fmt.Fprintf(w, "  %s\n", p.Sentence)
	}
	if x.VsHeld.N > 0 {
		fmt.Fprintf(w, "  against its median action held fixed, paired on the same seeds: %s (what adapting gains beyond that level)\n", x.VsHeld)
	}
}

// writeExplainReport writes evaluate --report's page: the evaluation's rows
// as its table, then the first seed's episode drawn with the explanation.
func writeExplainReport(path string, t task.Task, m *learn.Model, model string, wl evalWorkload, rows []compareRow, x *explained) error {
	l := report.Learning{Task: t.ID, Algo: m.Algo, Objective: t.Objective()}
	l.Summary = [][2]string{{"task", t.GymID() + ": " + t.Doc}, {"model", model + " (" + m.Algo + ", seed " + strconv.FormatUint(m.Seed, 10) + ")"},
		{"workload", wl.String()}}
	for _, r := range rows {
		v := r.Test.String()
		if r.VsBest.N > 0 && r.Method != bestStaticLabel {
			v += "; vs best static (paired) " + r.VsBest.String()
		}
		l.Summary = append(l.Summary, [2]string{r.Method + " (" + r.Action + ")", v})
	}
	x.fill(&l)
	html, err := report.BuildLearning(l)
	if err != nil {
		return fmt.Errorf("evaluate --report %s: %w", path, err)
	}
	if err := atomicfile.Write(path, html); err != nil {
		return fmt.Errorf("evaluate --report %s: %w", path, err)
	}
	return nil
}
