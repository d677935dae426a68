package report

import (
	"bytes"
	"fmt"
	"html/template"
	"math"
	"sort"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"

	"yarngym/oracle"
)

// BuildOracle returns the oracle's page for one scenario: yarngym's and
// Hadoop's job completion-time CDFs and the per-job table. Self-contained
// and byte-identical for the same result.
func BuildOracle(r *oracle.Result) ([]byte, error) {
	id := ids{}
	cid := id.next("oracle-cdf", r.Scenario, r.Policy)
	line := charts.NewLine()
	c := r.Comparison
	line.SetGlobalOptions(append(common(cid, fmt.Sprintf("Job completion time CDF: %s under %s, seed %d", r.Scenario, r.Policy, r.Seed),
		fmt.Sprintf("yarngym beside Hadoop 3.3.6's own scheduler on the same realised workload: %d of %d jobs within 10 %%, mean ratio %.3f",
			c.Within, len(c.Rows), c.MeanRatio), "item"),
		charts.WithXAxisOpts(opts.XAxis{Type: "value", Name: "completion time (s)", NameLocation: "middle", NameGap: 25}),
		charts.WithYAxisOpts(opts.YAxis{Type: "value", Name: "fraction of jobs", Min: 0, Max: 1}))...)
	for i, side := range []struct {
		name string
		get  func(oracle.Row) float64
	}{{"yarngym", func(x oracle.Row) float64 { return x.YarngymS }}, {"Hadoop 3.3.6", func(x oracle.Row) float64 { return x.HadoopS }}} {
		var xs []float64
		for _, row := range c.Rows {
			if v := side.get(row); !math.IsNaN(v) {
				xs = append(xs, v)
			}
		}
		sort.Float64s(xs)
		data := make([]opts.LineData, 0, len(xs)+1)
		if len(xs) > 0 {
			data = append(data, opts.LineData{Value: []any{num(xs[0]), 0}})
		}
		for k, x := range xs {
			data = append(data, opts.LineData{Value: []any{num(x), num(float64(k+1) / float64(len(c.Rows)))}})
		}
		line.AddSeries(side.name, data, lineStyle(i, "solid"), charts.WithLineChartOpts(opts.LineChart{Step: "end", ShowSymbol: opts.Bool(false)}))
	}
	var buf bytes.Buffer
	err := oracleTpl.Execute(&buf, struct {
		R         *oracle.Result
		Chart     chart
		EchartsJS template.JS
	}{r, snip(cid, line), template.JS(echartsJS)})
	if err != nil {
		return nil, fmt.Errorf("oracle report: %w", err)
	}
	return buf.Bytes(), nil
}

var oracleTpl = template.Must(template.New("oracle").Funcs(template.FuncMap{
	"s": func(x float64) string {
		if math.IsNaN(x) {
			return "-"
		}
		return fmt.Sprintf("%.3f", x)
	},
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>yarngym oracle: {{.R.Scenario}} under {{.R.Policy}}</title>
<style>
body { font-family: sans-serif; margin: 2em; max-width: 1000px; }
table { border-collapse: collapse; margin: 1em 0; }
td, th { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; }
tr.off td { background: #fde8e8; }
</style>
<script>{{.EchartsJS}}</script>
</head>
<body>
<h1>{{.R.Scenario}} under {{.R.Policy}}, seed {{.R.Seed}}: yarngym beside Hadoop 3.3.6</h1>
<p>{{.R.Comparison.Within}} of {{len .R.Comparison.Rows}} jobs finish within 10 % of Hadoop's completion time;
the mean completion time is {{s .R.Comparison.MeanRatio}} of Hadoop's. Rows outside 10 % are shaded.</p>
{{.Chart.HTML}}
<table>
<tr><th>job</th><th>name</th><th>yarngym (s)</th><th>Hadoop (s)</th><th>ratio</th></tr>
{{range .R.Comparison.Rows}}<tr{{if not .Within}} class="off"{{end}}><td>{{.ID}}</td><td>{{.Name}}</td><td>{{s .YarngymS}}</td><td>{{s .HadoopS}}</td><td>{{s .Ratio}}</td></tr>
{{end}}</table>
</body>
</html>
`))
