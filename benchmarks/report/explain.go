package report

import (
	"fmt"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// Follow is what a learning report says of one parameter's action over the
// test episodes (learn.Explain): the sentence, and the feature the action
// follows with its values over the episode drawn (Feature "" when it
// follows none, or does not move).
type Follow struct {
	Param    string
	Sentence string
	Feature  string
	Values   []float64 // per step of Learning.TimeS
}

// followCharts draws, per parameter, the action over the episode beside the
// feature it follows (left and right y axes: they have different units),
// then the episode's load, so that a reader sees what the action tracks.
func followCharts(id ids, l Learning) []chart {
	var cs []chart
	for _, f := range l.Follow {
		j := -1
		for k, p := range l.Params {
			if p == f.Param {
				j = k
			}
		}
		if j < 0 {
			continue // a parameter the episode does not hold: nothing to draw
		}
		c := charts.NewLine()
		cid := id.next("follow", l.Task, l.Algo, f.Param)
		// The sentence is stated above the charts: a subtitle of its length
		// ran into the y axes' names.
		title := fmt.Sprintf("%s over test seed %d", f.Param, l.EpisodeSeed)
		sub := "the action as set at the start of each control interval; it follows no observed feature"
		if f.Feature != "" {
			title = fmt.Sprintf("%s beside %s, the feature it follows (test seed %d)", f.Param, f.Feature, l.EpisodeSeed)
			sub = "left axis: the action as set at the start of each control interval; right axis: " + f.Feature + " as the controller observed it then"
		}
		c.SetGlobalOptions(append(common(cid, title, sub, "axis"),
			charts.WithXAxisOpts(opts.XAxis{Name: "simulated s", Type: "value", NameLocation: "middle", NameGap: 25}),
			charts.WithYAxisOpts(opts.YAxis{Name: f.Param, Type: "value", Scale: opts.Bool(true)}))...)
		data := make([]opts.LineData, len(l.TimeS))
		for i, t := range l.TimeS {
			data[i] = opts.LineData{Value: []any{num(t), num(l.Actions[i][j])}}
		}
		// Step "end": a value holds from its point to the next (the action
		// set at a step's start holds over the interval).
		c.AddSeries(f.Param+" (action)", data, lineStyle(0, "solid"), charts.WithLineChartOpts(opts.LineChart{Step: "end"}))
		if f.Feature != "" && len(f.Values) == len(l.TimeS) {
			c.ExtendYAxis(opts.YAxis{Name: f.Feature, Type: "value", Position: "right", Scale: opts.Bool(true)})
			fd := make([]opts.LineData, len(l.TimeS))
			for i, t := range l.TimeS {
				fd[i] = opts.LineData{Value: []any{num(t), num(f.Values[i])}}
			}
			c.AddSeries(f.Feature+" (observed, right axis)", fd, lineStyle(1, "solid"),
				charts.WithLineChartOpts(opts.LineChart{YAxisIndex: 1, ShowSymbol: opts.Bool(false)}))
		}
		cs = append(cs, snip(cid, c))
	}
	if len(l.LoadNames) > 0 && len(l.Load) == len(l.TimeS) && len(l.TimeS) > 0 {
		c := charts.NewLine()
		cid := id.next("load", l.Task, l.Algo)
		c.SetGlobalOptions(append(common(cid, fmt.Sprintf("The cluster's load over the same episode (test seed %d)", l.EpisodeSeed),
			"job counts on the left axis; shares of the cluster's vCores on the right, at the start of each control interval", "axis"),
			charts.WithXAxisOpts(opts.XAxis{Name: "simulated s", Type: "value", NameLocation: "middle", NameGap: 25}),
			charts.WithYAxisOpts(opts.YAxis{Name: "jobs", Type: "value"}))...)
		c.ExtendYAxis(opts.YAxis{Name: "share of vCores", Type: "value", Position: "right", Min: 0})
		for k, name := range l.LoadNames {
			d := make([]opts.LineData, len(l.TimeS))
			for i, t := range l.TimeS {
				d[i] = opts.LineData{Value: []any{num(t), num(l.Load[i][k])}}
			}
			axis := 0
			if k < len(l.LoadShare) && l.LoadShare[k] {
				axis = 1
			}
			c.AddSeries(name, d, lineStyle(k, "solid"), charts.WithLineChartOpts(opts.LineChart{YAxisIndex: axis, ShowSymbol: opts.Bool(false)}))
		}
		cs = append(cs, snip(cid, c))
	}
	return cs
}
