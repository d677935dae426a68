// Package report turns a suite's results (benchmarks/suite) into one
// self-contained HTML file of echarts charts, built with go-echarts: the
// echarts script is inlined (no network needed to open it), chart IDs are
// derived from names, and nothing reads the clock, so the same results give
// the same bytes.
//
// Charts: per scenario, job completion time per policy (bars with the spread
// over seeds), completion-time CDFs, reserved vs used vCores and memory over
// time, normal vs opportunistic containers over time, killed tasks and
// wasted work, and each policy's state variables over time; per paper, the
// published figures beside the simulated ones, rows outside the tolerance
// marked (offPaper). Where a chart would show nothing (no kills, a state
// variable that never moved) a note says so instead.
package report

import (
	"bytes"
	"fmt"
	"html/template"
	"math"
	"path/filepath"
	"strings"

	"yarngym/benchmarks/repro"
	"yarngym/benchmarks/suite"

	"yarngym/internal/atomicfile"
)

// File is the report's name inside a results folder.
const File = "report.html"

// WriteDir loads the results saved in dir and writes dir/report.html. It
// returns the report's path.
func WriteDir(dir string) (string, error) {
	res, err := suite.Load(dir)
	if err != nil {
		return "", err
	}
	b, err := Build(res)
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, File)
	return path, atomicfile.Write(path, b)
}

type section struct {
	Anchor string
	Title  string
	Doc    string
	Head   []string
	Rows   []row
	Charts []chart
	// Notes stand in for charts with nothing to show (no kills, a policy
	// state that never moved).
	Notes []string
}

// row is a table row; Off marks a reproduced figure outside the tolerance
// (offPaper).
type row struct {
	Cells []string
	Off   bool
}

type page struct {
	Title      string
	Suite      string
	Doc        string
	Seeds      string
	TimelineS  float64
	MaxPoints  int
	Version    string
	Skipped    []suite.Skip
	Papers     []section
	Scenarios  []section
	EchartsJS  template.JS
	ChartCount int
}

// Build returns the report's HTML.
func Build(res *suite.Results) ([]byte, error) {
	id := ids{}
	p := page{Title: "yarngym benchmark report: " + res.Suite, Suite: res.Suite, Doc: strings.TrimSuffix(res.Doc, "."), Seeds: seedList(res.Seeds),
		TimelineS: res.TimelineS, MaxPoints: res.MaxPoints, Version: EchartsVersion, Skipped: res.Skipped,
		EchartsJS: template.JS(echartsJS)}
	for _, pp := range res.Papers {
		s := section{Anchor: id.next("paper", pp.Name), Title: pp.Title,
			Doc:  "The paper's published figure beside the simulated mean over seeds (benchmarks/repro/" + pp.Name + "). " + toleranceRule,
			Head: []string{"experiment", "metric", "unit", "paper", "simulated", "± SD", "vs paper", "note"}}
		for _, r := range pp.Rows {
			diff, off := offPaper(float64(r.Paper), float64(r.Simulated))
			s.Rows = append(s.Rows, row{Cells: []string{r.Experiment, r.Metric, r.Unit, fnum(float64(r.Paper)), fnum(float64(r.Simulated)),
				fnum(float64(r.SimulatedSD)), diff, r.Note}, Off: off})
		}
		s.Charts = paperCharts(id, pp)
		p.Papers = append(p.Papers, s)
	}
	for _, sc := range res.Scenarios() {
		s := section{Anchor: id.next("scenario", sc), Title: sc,
			Head: []string{"policy", "seeds", "jobs done", "stuck", "mean completion (s)", "makespan (s)", "mean wait (s)",
				"killed tasks", "wasted work (s)", "opportunistic", "vCores reserved", "vCores used", "mem GB reserved", "mem GB used"}}
		for _, v := range res.Variants(sc) {
			a := res.Find(sc, v)
			if a == nil {
				continue
			}
			m := a.Metrics
			name := v
			if v != a.Policy {
				name = fmt.Sprintf("%s (%s)", v, a.Policy)
			}
			s.Rows = append(s.Rows, row{Cells: []string{name, fmt.Sprint(a.Seeds), fnum(m["jobs_completed"].Mean), fnum(m["jobs_stuck"].Mean),
				pm(m["mean_completion_s"]), pm(m["makespan_s"]), pm(m["mean_wait_s"]), fnum(m["tasks_killed"].Mean),
				fnum(m["wasted_work_s"].Mean), fnum(m["opportunistic_started"].Mean), fnum(m["vcores_reserved_mean"].Mean),
				fnum(m["vcores_used_mean"].Mean), fnum(m["mem_mb_reserved_mean"].Mean / 1024), fnum(m["mem_mb_used_mean"].Mean / 1024)}})
		}
		s.Charts = append(s.Charts, jctChart(id, res, sc), cdfChart(id, res, sc), vcoresChart(id, res, sc), memChart(id, res, sc),
			containersChart(id, res, sc))
		if c, ok := killedChart(id, res, sc); ok {
			s.Charts = append(s.Charts, c)
		} else {
			s.Notes = append(s.Notes, "No kills: no task attempt was killed and no work was wasted under any policy, in any seed (so no kills chart).")
		}
		for _, v := range res.Variants(sc) {
			c, ok, flat := stateChart(id, res, sc, v)
			if ok {
				s.Charts = append(s.Charts, c)
			}
			if flat != "" {
				s.Notes = append(s.Notes, flat)
			}
		}
		p.Scenarios = append(p.Scenarios, s)
	}
	for _, s := range append(append([]section{}, p.Papers...), p.Scenarios...) {
		p.ChartCount += len(s.Charts)
	}
	var buf bytes.Buffer
	if err := pageTpl.Execute(&buf, p); err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	return buf.Bytes(), nil
}

func seedList(s []uint64) string {
	var parts []string
	for _, x := range s {
		parts = append(parts, fmt.Sprint(x))
	}
	return strings.Join(parts, ", ")
}

// fnum formats a table number: up to 2 decimals, "n/a" when missing.
func fnum(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "n/a"
	}
	s := fmt.Sprintf("%.2f", x)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "-0" {
		s = "0"
	}
	return s
}

func pm(s suite.Stat) string { return fnum(s.Mean) + " ± " + fnum(s.SD) }

// Tolerance is the relative difference beyond which a reproduced figure is
// marked as disagreeing with the paper: repro's, so that `yarngym repro` and
// the report judge rows alike.
const Tolerance = repro.Tolerance

var toleranceRule = repro.ToleranceRule

// offPaper is repro.OffPaper: the simulated value's relative difference
// from the paper's, formatted, and whether the row is outside the tolerance.
func offPaper(paper, sim float64) (string, bool) { return repro.OffPaper(paper, sim) }

func (c chart) HTML() template.HTML { return template.HTML(c.Element + "\n" + c.Script) }

var pageTpl = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{.Title}}</title>
<style>
body { font-family: sans-serif; margin: 24px auto; max-width: 1040px; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 1px solid #ccc; } h3 { font-size: 1.05em; }
table { border-collapse: collapse; font-size: 0.82em; margin: 0.5em 0 1em; }
th, td { border: 1px solid #ddd; padding: 3px 6px; text-align: right; } th { background: #f3f3f3; }
td:first-child, th:first-child { text-align: left; }
td.note { text-align: left; font-size: 0.9em; color: #555; }
tr.off td { background: #fde8e8; } p.nochart { color: #555; font-style: italic; }
.container { margin: 12px 0; } .item { margin: auto; }
.meta { color: #555; font-size: 0.9em; }
</style>
<script>/* Apache ECharts {{.Version}} (Apache-2.0; see benchmarks/report/assets/echarts/NOTICE in yarngym) */
{{.EchartsJS}}</script>
</head>
<body>
<h1>{{.Title}}</h1>
<p class="lead">Suite {{.Suite}}: {{.Doc}}.</p>
<p class="meta">Seeds: {{.Seeds}}. Timelines sampled every {{.TimelineS}} s of simulated time (at most {{.MaxPoints}} samples a run kept); time series show the first seed. {{.ChartCount}} charts. A cell "m ± s" is the mean over the seeds ± their standard deviation (SD, not a standard error: it is the spread of one run, not the uncertainty of the mean).</p>
<ul>
{{- range .Papers}}
<li><a href="#{{.Anchor}}">paper: {{.Title}}</a></li>
{{- end}}
{{- range .Scenarios}}
<li><a href="#{{.Anchor}}">scenario: {{.Title}}</a></li>
{{- end}}
</ul>
{{- if .Skipped}}
<h2 id="skipped">Not run</h2>
<ul>
{{- range .Skipped}}
<li>{{if .Paper}}paper {{.Paper}}{{else}}{{.Scenario}} under {{.Policy}}{{end}}: {{.Reason}}</li>
{{- end}}
</ul>
{{- end}}
{{- range .Papers}}
<h2 id="{{.Anchor}}">{{.Title}}</h2>
<p>{{.Doc}}</p>
<table>
<tr>{{range .Head}}<th>{{.}}</th>{{end}}</tr>
{{- range .Rows}}
<tr{{if .Off}} class="off"{{end}}>{{range $i, $c := .Cells}}{{if eq $i 7}}<td class="note">{{$c}}</td>{{else}}<td>{{$c}}</td>{{end}}{{end}}</tr>
{{- end}}
</table>
{{- range .Charts}}
{{.HTML}}
{{- end}}
{{- end}}
{{- range .Scenarios}}
<h2 id="{{.Anchor}}">Scenario {{.Title}}</h2>
<table>
<tr>{{range .Head}}<th>{{.}}</th>{{end}}</tr>
{{- range .Rows}}
<tr>{{range .Cells}}<td>{{.}}</td>{{end}}</tr>
{{- end}}
</table>
{{- range .Charts}}
{{.HTML}}
{{- end}}
{{- range .Notes}}
<p class="nochart">{{.}}</p>
{{- end}}
{{- end}}
<p class="meta">Generated by yarngym from the results beside this file (summary.json, runs.csv, jobs.csv, timeline.csv, policy_state.csv); rebuild with <code>yarngym report DIR</code>.</p>
</body>
</html>
`))
