package report

import (
	"bytes"
	"fmt"
	"html/template"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// Learning is what a learning report shows: a learner's curve on one task
// beside the task's baselines, and the learned controller's actions over
// one test episode.
type Learning struct {
	Task, Algo, Objective string
	// XUnit names the curve's x axis ("evaluations", "env steps").
	XUnit string
	// Curve: x, the return of that point (a candidate's mean train return,
	// or an iteration's finished episodes), and the best so far.
	CurveX, CurveReturn, CurveBest []float64
	// Diagnostics per curve point (PPO's updates; empty for the black-box
	// tuners): name -> one value per point ("approx KL", "clip fraction",
	// "explained variance"), drawn in DiagNames' order.
	DiagNames []string
	Diag      map[string][]float64
	// Baselines are mean test returns by name ("paper default", "random",
	// "best static ..."); Learned is the learned model's.
	Baselines []NamedValue
	Learned   NamedValue
	// Table rows (label, value) summarising the run.
	Summary [][2]string
	// One test episode (of seed EpisodeSeed): the time of each step and
	// the parameters' values.
	EpisodeSeed uint64
	Params      []string
	TimeS       []float64
	Actions     [][]float64
	// Follow, per parameter, says which feature its action follows over
	// the test episodes (FollowOver names them, e.g. "test seeds 1-20");
	// with it, each action is drawn beside that feature, and the episode's
	// load (LoadNames, per step Load; LoadShare marks the measures that are
	// shares of capacity, drawn on their own axis) below.
	Follow     []Follow
	FollowOver string
	LoadNames  []string
	LoadShare  []bool
	Load       [][]float64
}

// NamedValue is a labelled number.
type NamedValue struct {
	Name  string
	Value float64
}

// BuildLearning returns the learning report's HTML: self-contained (the
// echarts script inlined), byte-identical for the same input.
func BuildLearning(l Learning) ([]byte, error) {
	id := ids{}
	var cs []chart

	pts := func(ys []float64) []opts.LineData {
		out := make([]opts.LineData, len(ys))
		for i, y := range ys {
			out[i] = opts.LineData{Value: []any{num(l.CurveX[i]), num(y)}}
		}
		return out
	}
	// evaluate --report draws a saved model's episodes without a curve.
	if len(l.CurveX) > 0 {
		curve := charts.NewLine()
		cid := id.next("learning", l.Task, l.Algo)
		curve.SetGlobalOptions(append(common(cid, "Learning curve: "+l.Algo+" on "+l.Task,
			"return ("+l.Objective+") on train seeds; dashed: the baselines' mean return on the test seeds", "axis"),
			charts.WithXAxisOpts(opts.XAxis{Name: l.XUnit, Type: "value", NameLocation: "middle", NameGap: 25}),
			charts.WithYAxisOpts(opts.YAxis{Name: "return", Type: "value", Scale: opts.Bool(true)}))...)
		curve.AddSeries("this point", pts(l.CurveReturn), lineStyle(0, "solid"))
		curve.AddSeries("best so far", pts(l.CurveBest), lineStyle(1, "solid"))
		if n := len(l.CurveX); n > 0 {
			for i, b := range append(append([]NamedValue{}, l.Baselines...), l.Learned) {
				if b.Name == "" {
					continue
				}
				line := []opts.LineData{{Value: []any{num(l.CurveX[0]), num(b.Value)}}, {Value: []any{num(l.CurveX[n-1]), num(b.Value)}}}
				curve.AddSeries(b.Name+" (test)", line, lineStyle(i+2, "dashed"))
			}
		}
		cs = append(cs, snip(cid, curve))
	}

	if len(l.DiagNames) > 0 {
		diag := charts.NewLine()
		did := id.next("diagnostics", l.Task, l.Algo)
		diag.SetGlobalOptions(append(common(did, "PPO's update diagnostics",
			"approximate KL divergence and clipped share of each update; explained variance of the value function on its rollout", "axis"),
			charts.WithXAxisOpts(opts.XAxis{Name: l.XUnit, Type: "value", NameLocation: "middle", NameGap: 25}),
			charts.WithYAxisOpts(opts.YAxis{Name: "value", Type: "value", Scale: opts.Bool(true)}))...)
		for j, name := range l.DiagNames {
			diag.AddSeries(name, pts(l.Diag[name]), lineStyle(j, "solid"))
		}
		cs = append(cs, snip(did, diag))
	}

	// With an explanation, the follow charts draw the actions (beside
	// what they follow); without, the actions alone.
	if len(l.Follow) > 0 {
		cs = append(cs, followCharts(id, l)...)
	} else if len(l.TimeS) > 0 {
		acts := charts.NewLine()
		aid := id.next("actions", l.Task, l.Algo)
		acts.SetGlobalOptions(append(common(aid, "The controller's actions over one test episode",
			"each parameter's value as set at the start of each control interval", "axis"),
			charts.WithXAxisOpts(opts.XAxis{Name: "simulated s", Type: "value", NameLocation: "middle", NameGap: 25}),
			charts.WithYAxisOpts(opts.YAxis{Name: "value", Type: "value", Scale: opts.Bool(true)}))...)
		for j, p := range l.Params {
			data := make([]opts.LineData, len(l.TimeS))
			for i, t := range l.TimeS {
				data[i] = opts.LineData{Value: []any{num(t), num(l.Actions[i][j])}}
			}
			acts.AddSeries(p, data, lineStyle(j, "solid"), charts.WithLineChartOpts(opts.LineChart{Step: "end"}))
		}
		cs = append(cs, snip(aid, acts))
	}

	var buf bytes.Buffer
	err := learnTpl.Execute(&buf, struct {
		L         Learning
		Charts    []chart
		EchartsJS template.JS
	}{l, cs, template.JS(echartsJS)})
	if err != nil {
		return nil, fmt.Errorf("learning report: %w", err)
	}
	return buf.Bytes(), nil
}

var learnTpl = template.Must(template.New("learning").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>yarngym learning report: {{.L.Algo}} on {{.L.Task}}</title>
<style>
body { font-family: sans-serif; margin: 2em; max-width: 1000px; }
table { border-collapse: collapse; margin: 1em 0; }
td, th { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; }
</style>
<script>{{.EchartsJS}}</script>
</head>
<body>
<h1>{{.L.Algo}} on {{.L.Task}}</h1>
<table>
{{range .L.Summary}}<tr><th>{{index . 0}}</th><td>{{index . 1}}</td></tr>
{{end}}</table>
{{if .L.Follow}}<h2>What the controller's actions follow ({{.L.FollowOver}})</h2>
{{range .L.Follow}}<p>{{.Sentence}}</p>
{{end}}{{end}}{{range .Charts}}{{.HTML}}
{{end}}
</body>
</html>
`))
