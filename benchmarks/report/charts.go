package report

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/go-echarts/go-echarts/v2/render"

	"yarngym/benchmarks/suite"

	"gonum.org/v1/gonum/stat"
)

// palette is echarts' default colour list; a variant keeps its colour in
// every chart of a scenario.
var palette = []string{"#5470c6", "#91cc75", "#fac858", "#ee6666", "#73c0de", "#3ba272", "#fc8452", "#9a60b4", "#ea7ccc"}

// chart is one rendered chart: its container element and its script.
type chart struct {
	ID      string
	Element string
	Script  string
}

// ids hands out chart IDs derived from names, so that the same results give
// the same bytes (go-echarts would otherwise draw random IDs).
type ids map[string]int

func (m ids) next(parts ...string) string {
	var b strings.Builder
	b.WriteString("chart")
	for _, p := range parts {
		b.WriteByte('_')
		for _, r := range strings.ToLower(p) {
			if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
				b.WriteRune(r)
			} else {
				b.WriteByte('_')
			}
		}
	}
	id := b.String()
	m[id]++
	if n := m[id]; n > 1 {
		id = fmt.Sprintf("%s_%d", id, n)
	}
	return id
}

type snippeter interface{ RenderSnippet() render.ChartSnippet }

func snip(id string, c snippeter) chart {
	s := c.RenderSnippet()
	return chart{ID: id, Element: s.Element, Script: s.Script}
}

// common are the options every chart shares: a fixed ID, no animation (a
// report is read, not watched; and screenshots see the final frame).
// The grids (plot areas) default to one with room for the title and legend.
//
// Titles and subtitles longer than a line of the chart are wrapped (echarts
// does not wrap them: a long title ran off the chart's edge), and the plot
// areas and the chart move down by the lines added (titleExtra).
func common(id, title, subtitle string, trigger string, grids ...opts.Grid) []charts.GlobalOpts {
	if len(grids) == 0 {
		grids = []opts.Grid{{Left: "70", Right: "70", Top: "70", Bottom: "80"}}
	}
	extra := titleExtra(title, subtitle)
	for i := range grids {
		if top, err := strconv.Atoi(grids[i].Top); err == nil {
			grids[i].Top = strconv.Itoa(top + extra)
		}
	}
	return []charts.GlobalOpts{
		charts.WithInitializationOpts(opts.Initialization{ChartID: id, Width: "960px", Height: fmt.Sprintf("%dpx", 420+extra)}),
		charts.WithTitleOpts(titleOpts(title, subtitle)),
		charts.WithAnimation(false),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Type: "scroll", Bottom: "0"}),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: trigger}),
		charts.WithGridOpts(grids...),
	}
}

// TitleChars and SubtitleChars are the characters of a chart's title (18px
// bold) and subtitle (12px) that fit on one line of a 960px chart, with room
// to spare; longer ones are wrapped at spaces.
const (
	TitleChars    = 80
	SubtitleChars = 140
)

// titleExtra is the height in pixels the wrapped title and subtitle take
// beyond one line each.
func titleExtra(title, subtitle string) int {
	return 24*(len(wrap(title, TitleChars))-1) + 16*(len(wrap(subtitle, SubtitleChars))-1)
}

// titleOpts sets the wrapped title and subtitle, with the line heights
// titleExtra allows for (echarts draws the lines of a multi-line title
// over each other without one).
func titleOpts(title, subtitle string) opts.Title {
	t := opts.Title{Title: title, Subtitle: subtitle}
	if lines := wrap(title, TitleChars); len(lines) > 1 {
		t.Title = strings.Join(lines, "\n")
		t.TitleStyle = &opts.TextStyle{FontSize: 18, LineHeight: 24}
	}
	if lines := wrap(subtitle, SubtitleChars); len(lines) > 1 {
		t.Subtitle = strings.Join(lines, "\n")
		t.SubtitleStyle = &opts.TextStyle{FontSize: 12, LineHeight: 16}
	}
	return t
}

// wrap breaks s at spaces into lines of at most n characters (a longer
// word stays whole on its own line).
func wrap(s string, n int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		switch {
		case line == "":
			line = w
		case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(w) <= n:
			line += " " + w
		default:
			lines = append(lines, line)
			line = w
		}
	}
	return append(lines, line)
}

// num is a data value: rounded to 3 decimals, "-" (echarts' missing value)
// for NaN and infinities, which JSON cannot hold.
func num(x float64) any {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "-"
	}
	return math.Round(x*1000) / 1000
}

// jctChart: per variant, the mean job completion time (bar: mean over seeds
// of each run's mean) and its spread over seeds (box: min, quartiles, max).
func jctChart(id ids, res *suite.Results, sc string) chart {
	cid := id.next("jct", sc)
	vs := res.Variants(sc)
	bar := charts.NewBar()
	bar.SetGlobalOptions(append(common(cid, "Job completion time: "+sc,
		"bars: mean over seeds of the mean completion time of the jobs that finished; boxes: spread over seeds", "item"),
		charts.WithYAxisOpts(opts.YAxis{Name: "seconds"}))...)
	bar.SetXAxis(vs)
	var means []opts.BarData
	var boxes []opts.BoxPlotData
	for i, v := range vs {
		var xs []float64
		for _, r := range res.RunsOf(sc, v) {
			xs = append(xs, r.MeanCompletionS)
		}
		means = append(means, opts.BarData{Value: num(mean(xs)), ItemStyle: &opts.ItemStyle{Color: palette[i%len(palette)]}})
		q := fiveNum(xs)
		boxes = append(boxes, opts.BoxPlotData{Value: []any{num(q[0]), num(q[1]), num(q[2]), num(q[3]), num(q[4])}})
	}
	bar.AddSeries("mean completion time", means)
	box := charts.NewBoxPlot()
	box.SetXAxis(vs)
	box.AddSeries("spread over seeds", boxes, charts.WithItemStyleOpts(opts.ItemStyle{Color: "rgba(0,0,0,0)", BorderColor: "#333"}))
	bar.Overlap(box)
	return snip(cid, bar)
}

// cdfChart: the distribution of job completion times, pooled over seeds.
func cdfChart(id ids, res *suite.Results, sc string) chart {
	cid := id.next("cdf", sc)
	line := charts.NewLine()
	line.SetGlobalOptions(append(common(cid, "Job completion time CDF: "+sc, "jobs that finished, all seeds pooled", "item"),
		charts.WithXAxisOpts(opts.XAxis{Type: "value", Name: "completion time (s)", NameLocation: "middle", NameGap: 25}),
		charts.WithYAxisOpts(opts.YAxis{Type: "value", Name: "fraction of jobs", Min: 0, Max: 1}))...)
	col := completionColumn(res)
	for i, v := range res.Variants(sc) {
		var xs []float64
		for _, r := range res.RunsOf(sc, v) {
			for _, j := range r.Jobs {
				if col >= 0 && col < len(j) && j[col] != "" {
					if x, err := strconv.ParseFloat(j[col], 64); err == nil {
						xs = append(xs, x)
					}
				}
			}
		}
		sort.Float64s(xs)
		data := make([]opts.LineData, 0, len(xs)+1)
		if len(xs) > 0 {
			data = append(data, opts.LineData{Value: []any{num(xs[0]), 0}})
		}
		for k, x := range xs {
			data = append(data, opts.LineData{Value: []any{num(x), num(float64(k+1) / float64(len(xs)))}})
		}
		line.AddSeries(v, data, lineStyle(i, "solid"), charts.WithLineChartOpts(opts.LineChart{Step: "end", ShowSymbol: opts.Bool(false)}))
	}
	return snip(cid, line)
}

func completionColumn(res *suite.Results) int {
	for i, c := range res.JobColumns {
		if c == "completion_s" {
			return i
		}
	}
	return -1
}

func lineStyle(i int, typ string) charts.SeriesOpts {
	c := palette[i%len(palette)]
	return charts.WithSeriesOpts(func(s *charts.SingleSeries) {
		s.LineStyle = &opts.LineStyle{Color: c, Type: typ, Width: 2}
		s.ItemStyle = &opts.ItemStyle{Color: c}
	})
}

// series is one timeline line: a label, a dash style and a value per point.
type series struct {
	suffix string
	dash   string
	get    func(p *suite.Point) float64
}

// timelineChart draws, for each variant's first seed, the given series over
// simulated time.
func timelineChart(id ids, res *suite.Results, sc, kind, title, sub, unit string, ss []series) chart {
	cid := id.next(kind, sc)
	line := charts.NewLine()
	line.SetGlobalOptions(append(common(cid, title+": "+sc, sub, "axis"),
		charts.WithXAxisOpts(opts.XAxis{Type: "value", Name: "time (s)", NameLocation: "middle", NameGap: 25}),
		charts.WithYAxisOpts(opts.YAxis{Type: "value", Name: unit}))...)
	for i, v := range res.Variants(sc) {
		runs := res.RunsOf(sc, v)
		if len(runs) == 0 {
			continue
		}
		r := runs[0]
		for _, s := range ss {
			data := make([]opts.LineData, len(r.Timeline))
			for k := range r.Timeline {
				p := &r.Timeline[k]
				data[k] = opts.LineData{Value: []any{num(p.TS), num(s.get(p))}}
			}
			line.AddSeries(v+" "+s.suffix, data, lineStyle(i, s.dash), charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(false)}))
		}
	}
	return snip(cid, line)
}

func vcoresChart(id ids, res *suite.Results, sc string) chart {
	return timelineChart(id, res, sc, "vcores", "Reserved vs used vCores", firstSeed(res)+"; dashed: reserved by containers (normal + opportunistic), solid: actually used", "vCores",
		[]series{{"reserved", "dashed", func(p *suite.Point) float64 { return p.VCoresGuaranteed + p.VCoresOpp }},
			{"used", "solid", func(p *suite.Point) float64 { return p.VCoresUsed }}})
}

func memChart(id ids, res *suite.Results, sc string) chart {
	return timelineChart(id, res, sc, "memory", "Reserved vs used memory", firstSeed(res)+"; dashed: reserved by containers, solid: actually used", "GB",
		[]series{{"reserved", "dashed", func(p *suite.Point) float64 { return p.MemMBReserved / 1024 }},
			{"used", "solid", func(p *suite.Point) float64 { return p.MemMBUsed / 1024 }}})
}

func containersChart(id ids, res *suite.Results, sc string) chart {
	return timelineChart(id, res, sc, "containers", "Normal vs opportunistic containers", firstSeed(res)+"; solid: normal (guaranteed), dashed: opportunistic", "containers",
		[]series{{"normal", "solid", func(p *suite.Point) float64 { return p.ContainersNormal }},
			{"opportunistic", "dashed", func(p *suite.Point) float64 { return p.ContainersOpp }}})
}

func firstSeed(res *suite.Results) string {
	if len(res.Seeds) == 0 {
		return "seed ?"
	}
	return fmt.Sprintf("seed %d", res.Seeds[0])
}

// killedChart: killed task attempts and the work they lost, means over
// seeds; none (false) when nothing was killed under any variant, where the
// chart would be an empty axis.
func killedChart(id ids, res *suite.Results, sc string) (chart, bool) {
	vs := res.Variants(sc)
	any := false
	for _, v := range vs {
		if a := res.Find(sc, v); a == nil || a.Metrics["tasks_killed"].Mean != 0 || a.Metrics["wasted_work_s"].Mean != 0 {
			any = true
		}
	}
	if !any {
		return chart{}, false
	}
	cid := id.next("killed", sc)
	bar := charts.NewBar()
	bar.SetGlobalOptions(append(common(cid, "Killed tasks and wasted work: "+sc, "means over seeds; wasted work = run time of killed attempts", "axis"),
		charts.WithYAxisOpts(opts.YAxis{Name: "killed tasks", MinInterval: 1}))...)
	bar.ExtendYAxis(opts.YAxis{Name: "wasted work (s)", Position: "right"})
	bar.SetXAxis(vs)
	var killed, wasted []opts.BarData
	for _, v := range vs {
		a := res.Find(sc, v)
		k, w := math.NaN(), math.NaN()
		if a != nil {
			k, w = a.Metrics["tasks_killed"].Mean, a.Metrics["wasted_work_s"].Mean
		}
		killed = append(killed, opts.BarData{Value: num(k)})
		wasted = append(wasted, opts.BarData{Value: num(w)})
	}
	bar.AddSeries("killed tasks", killed, charts.WithItemStyleOpts(opts.ItemStyle{Color: "#ee6666"}))
	bar.AddSeries("wasted work (s)", wasted, charts.WithBarChartOpts(opts.BarChart{YAxisIndex: 1}),
		charts.WithItemStyleOpts(opts.ItemStyle{Color: "#fac858"}))
	return snip(cid, bar), true
}

// stateChart: a policy's StateVars over time (first seed), one small panel
// per variable stacked on a shared time axis, since the variables' scales
// differ by orders of magnitude (counters, shares, MB). A variable that
// never moved gets no panel (a flat line says less than its value): flat
// names them and their values, and without a variable that moved there is
// no chart (ok false).
func stateChart(id ids, res *suite.Results, sc, variant string) (c chart, ok bool, flat string) {
	runs := res.RunsOf(sc, variant)
	if len(runs) == 0 || len(runs[0].StateVars) == 0 || len(runs[0].Timeline) == 0 {
		return chart{}, false, ""
	}
	r := runs[0]
	var moved []int
	var still []string
	for vi, name := range r.StateVars {
		if v, constant := constantState(r.Timeline, vi); constant {
			still = append(still, fmt.Sprintf("%s stayed %s", name, fnum(v)))
		} else {
			moved = append(moved, vi)
		}
	}
	if len(still) > 0 {
		flat = fmt.Sprintf("Policy state of %s on %s (%s): %s throughout, so not drawn.", variant, sc, firstSeed(res), strings.Join(still, ", "))
	}
	if len(moved) == 0 {
		return chart{}, false, flat
	}
	cid := id.next("state", sc, variant)
	// The first panel's name sits above its plot (nameLocation "end"): at
	// top 60 it was drawn over the subtitle; 80 leaves it a line of its own.
	const top, panel, gap = 80, 70, 30
	n := len(moved)
	tmax := r.Timeline[len(r.Timeline)-1].TS
	title, sub := "Policy state: "+variant+" on "+sc, firstSeed(res)+"; each of the policy's state variables (sim.StateVar) that moved, as sampled"
	line := charts.NewLine()
	var grids []opts.Grid
	for i := 0; i < n; i++ {
		grids = append(grids, opts.Grid{Left: "90", Right: "40", Top: fmt.Sprint(top + i*(panel+gap)), Height: fmt.Sprint(panel)})
	}
	line.SetGlobalOptions(append(common(cid, title, sub, "axis", grids...),
		// after common's: a taller chart, and no legend (each panel is named)
		charts.WithInitializationOpts(opts.Initialization{ChartID: cid, Width: "960px",
			Height: fmt.Sprintf("%dpx", top+n*(panel+gap)+20+titleExtra(title, sub))}),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(false)}))...)
	for k, vi := range moved {
		name := r.StateVars[vi]
		last := k == n-1
		x := opts.XAxis{Type: "value", GridIndex: k, Min: 0, Max: num(tmax), AxisLabel: &opts.AxisLabel{Show: opts.Bool(last)}}
		if last {
			x.Name, x.NameLocation, x.NameGap = "time (s)", "middle", 25
		}
		y := opts.YAxis{Type: "value", GridIndex: k, Name: name, NameLocation: "end", Scale: opts.Bool(true), SplitNumber: 2}
		if k == 0 {
			line.XAxisList[0], line.YAxisList[0] = x, y
		} else {
			line.ExtendXAxis(x)
			line.ExtendYAxis(y)
		}
		data := make([]opts.LineData, len(r.Timeline))
		for j := range r.Timeline {
			p := &r.Timeline[j]
			v := math.NaN()
			if vi < len(p.State) {
				v = p.State[vi]
			}
			data[j] = opts.LineData{Value: []any{num(p.TS), num(v)}}
		}
		line.AddSeries(name, data, lineStyle(vi, "solid"),
			charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(false), XAxisIndex: k, YAxisIndex: k}))
	}
	return snip(cid, line), true, flat
}

// constantState reports whether state variable vi has one value in every
// sample (missing values count as NaN), and the value.
func constantState(tl []suite.Point, vi int) (float64, bool) {
	at := func(p *suite.Point) float64 {
		if vi < len(p.State) {
			return p.State[vi]
		}
		return math.NaN()
	}
	first := at(&tl[0])
	for i := range tl {
		v := at(&tl[i])
		if v != first && !(math.IsNaN(v) && math.IsNaN(first)) {
			return 0, false
		}
	}
	return first, true
}

// paperCharts: per unit, the paper's published value beside the simulated
// mean, with the simulated mean ± one SD as an error bar on the simulated
// bar. Bars run horizontally, one row per figure in the table's order, so
// that long figure names stay readable however many rows a paper has.
func paperCharts(id ids, p suite.Paper) []chart {
	var units []string
	byUnit := map[string][]suite.PaperRow{}
	for _, r := range p.Rows {
		if _, ok := byUnit[r.Unit]; !ok {
			units = append(units, r.Unit)
		}
		byUnit[r.Unit] = append(byUnit[r.Unit], r)
	}
	var out []chart
	for _, u := range units {
		rows := byUnit[u]
		cid := id.next("paper", p.Name, u)
		var cats []string
		var paper, simd []opts.BarData
		var sd []opts.CustomData
		for i, r := range rows {
			cats = append(cats, r.Experiment+": "+r.Metric)
			paper = append(paper, opts.BarData{Value: num(float64(r.Paper))})
			simd = append(simd, opts.BarData{Value: num(float64(r.Simulated))})
			m, s := float64(r.Simulated), float64(r.SimulatedSD)
			if math.IsNaN(s) {
				s = 0
			}
			sd = append(sd, opts.CustomData{Value: []any{num(m - s), num(m + s), i}})
		}
		unit := u
		if unit == "" {
			unit = "value"
		}
		bar := charts.NewBar()
		title := p.Title + " (" + unit + ")"
		sub := "published value beside the simulated mean over seeds; whisker: simulated mean ± SD; no purple bar: the paper gives no number"
		bar.SetGlobalOptions(append(common(cid, title, sub, "axis",
			opts.Grid{Left: "10", Right: "60", Top: "70", Bottom: "60", ContainLabel: opts.Bool(true)}),
			charts.WithInitializationOpts(opts.Initialization{ChartID: cid, Width: "960px", Height: fmt.Sprintf("%dpx", 150+32*len(rows)+titleExtra(title, sub))}),
			charts.WithXAxisOpts(opts.XAxis{Type: "value", Name: unit}),
			charts.WithYAxisOpts(opts.YAxis{Type: "category", Inverse: opts.Bool(true), AxisLabel: &opts.AxisLabel{Interval: "0"}}))...)
		bar.SetXAxis(cats).XYReversal()
		gaps := charts.WithBarChartOpts(opts.BarChart{BarGap: "30%", BarCategoryGap: "20%"})
		bar.AddSeries("paper", paper, gaps, charts.WithItemStyleOpts(opts.ItemStyle{Color: "#9a60b4"}))
		bar.AddSeries("simulated", simd, gaps, charts.WithItemStyleOpts(opts.ItemStyle{Color: "#5470c6"}))
		bar.Overlap(errorBars("simulated ± SD", sd))
		out = append(out, snip(cid, bar))
	}
	return out
}

// errorBarJS draws a horizontal whisker from value 0 to value 1 in the
// category row value 2, over the second of two bars (bar gap 30%, category
// gap 20%: each bar is 0.8/2.3 of the band, the second centred 0.65 bar
// widths below the row's centre on an inverted category axis).
const errorBarJS = `function (params, api) {
	var y = api.value(2), a = api.coord([api.value(0), y]), b = api.coord([api.value(1), y]);
	var band = api.size([0, 1])[1], cy = a[1] + band * 0.8 / 2.3 * 0.65, half = band * 0.12;
	var st = {stroke: '#222', lineWidth: 1.5};
	return {type: 'group', children: [
		{type: 'line', shape: {x1: a[0], y1: cy, x2: b[0], y2: cy}, style: st, z2: 100},
		{type: 'line', shape: {x1: a[0], y1: cy - half, x2: a[0], y2: cy + half}, style: st, z2: 100},
		{type: 'line', shape: {x1: b[0], y1: cy - half, x2: b[0], y2: cy + half}, style: st, z2: 100}]};
}`

func errorBars(name string, data []opts.CustomData) *charts.Custom {
	c := charts.NewCustom()
	c.AddSeries(name, data, charts.WithCustomChartOpts(opts.CustomChart{RenderItem: opts.FuncOpts(errorBarJS)}),
		charts.WithEncodeOpts(opts.Encode{X: []int{0, 1}, Y: 2}), charts.WithItemStyleOpts(opts.ItemStyle{Color: "#333"}))
	return c
}

// mean is the mean of xs (gonum/stat), NaN for none.
func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	return stat.Mean(xs, nil)
}

// fiveNum returns min, lower quartile, median, upper quartile and max
// (linear interpolation between order statistics: R's type 7, numpy's
// default). Written out because gonum's stat.Quantile offers only the
// empirical CDF and its interpolation (R's types 1 and 4), whose median of
// an even count is not the mean of the two middle values.
func fiveNum(xs []float64) [5]float64 {
	if len(xs) == 0 {
		n := math.NaN()
		return [5]float64{n, n, n, n, n}
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	q := func(f float64) float64 {
		pos := f * float64(len(s)-1)
		lo := int(math.Floor(pos))
		hi := int(math.Ceil(pos))
		return s[lo] + (s[hi]-s[lo])*(pos-float64(lo))
	}
	return [5]float64{s[0], q(0.25), q(0.5), q(0.75), s[len(s)-1]}
}
