package report

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"html"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"yarngym/benchmarks/suite"
)

// results runs the quick suite (2 seeds) and adds a reproduction table with
// a figure the paper does not give (NaN), so every chart kind is drawn.
func results(t *testing.T, parallel int) *suite.Results {
	t.Helper()
	s, _ := suite.Lookup("quick")
	res, err := suite.Run(s, suite.Options{Seeds: 2, Parallel: parallel})
	if err != nil {
		t.Fatal(err)
	}
	res.Papers = append(res.Papers, suite.Paper{Name: "toy", Title: "Toy paper (test)", Rows: toyRows})
	// One killed task in one run of quick under fifo, so that quick has a
	// kills chart and dress-fig1 (no kills) a note instead.
	for i := range res.Runs {
		if r := &res.Runs[i]; r.Scenario == "quick" && r.Variant == "fifo" && r.Seed == 1 {
			r.TasksKilled, r.WastedWorkS = 1, 12.5
		}
	}
	res.Aggregates = suite.AggregateRuns(res.Runs)
	return res
}

// toyRows are a reproduction's rows: in tolerance, outside it (27.5 %
// off, a sign disagreement, a paper 0 not reproduced), and without a
// published number.
var toyRows = []suite.PaperRow{
	{Experiment: "fig1", Metric: "makespan", Unit: "s", Paper: 40, Simulated: 40, SimulatedSD: 0},
	{Experiment: "fig1", Metric: "mean wait", Unit: "s", Paper: 16, Simulated: 15.5, SimulatedSD: 1.2, Note: "lower is better"},
	{Experiment: "table2", Metric: "small-job time", Unit: "%", Paper: -27.6, Simulated: -20, SimulatedSD: 3},
	{Experiment: "table2", Metric: "makespan", Unit: "%", Paper: suite.Num(math.NaN()), Simulated: 1, SimulatedSD: 0.5},
	{Experiment: "table2", Metric: "throughput gain", Unit: "%", Paper: 5, Simulated: -1, SimulatedSD: 0.5},
	{Experiment: "fig3", Metric: "kills", Unit: "count", Paper: 0, Simulated: 0.25, SimulatedSD: 0.5},
	{Experiment: "fig3", Metric: "stuck", Unit: "count", Paper: 0, Simulated: 0, SimulatedSD: 0},
}

// saved writes res and its report to a fresh folder; it returns the folder
// and the report's bytes.
func saved(t *testing.T, res *suite.Results) (string, []byte) {
	t.Helper()
	dir := t.TempDir()
	if err := suite.Write(dir, res); err != nil {
		t.Fatal(err)
	}
	path, err := WriteDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return dir, b
}

func TestVendoredEcharts(t *testing.T) {
	sum := sha256.Sum256([]byte(echartsJS))
	if got := hex.EncodeToString(sum[:]); got != EchartsSHA256 {
		t.Fatalf("assets/echarts/echarts.min.js has sha256 %s, want %s (echarts@%s); run make echarts", got, EchartsSHA256, EchartsVersion)
	}
	for _, f := range []string{"LICENSE", "NOTICE", "LICENSE-d3"} {
		if _, err := os.Stat(filepath.Join("assets", "echarts", f)); err != nil {
			t.Errorf("the vendored echarts must carry its %s: %v", f, err)
		}
	}
	if strings.Contains(echartsJS, "</script") {
		t.Fatal("echarts.min.js contains </script and cannot be inlined")
	}
}

// The same results give the same bytes: whatever the parallelism of the
// runs, and when the report is rebuilt from the saved folder.
func TestDeterministic(t *testing.T) {
	dir, a := saved(t, results(t, 1))
	_, b := saved(t, results(t, 3))
	if !bytes.Equal(a, b) {
		t.Fatalf("reports differ (%d vs %d bytes)", len(a), len(b))
	}
	path, err := WriteDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := os.ReadFile(path)
	if !bytes.Equal(a, c) {
		t.Fatal("rebuilding from the saved results changed the report")
	}
}

var (
	initRe = regexp.MustCompile(`echarts\.init\(document\.getElementById\('([^']*)'\)`)
	itemRe = regexp.MustCompile(`<div class="item" id="([^"]*)"`)
)

// The report needs no network: echarts inlined, no external script or
// stylesheet; chart IDs come from names and are unique.
func TestSelfContained(t *testing.T) {
	_, b := saved(t, results(t, 2))
	html := string(b)
	for _, bad := range []string{"<script src", "<link", "go-echarts.github.io", "cdn"} {
		if strings.Contains(strings.ToLower(html), strings.ToLower(bad)) {
			t.Errorf("report contains %q", bad)
		}
	}
	if !strings.Contains(html, echartsJS) {
		t.Fatal("echarts is not inlined")
	}
	items := itemRe.FindAllStringSubmatch(html, -1)
	inits := initRe.FindAllStringSubmatch(html, -1)
	if len(items) == 0 || len(items) != len(inits) {
		t.Fatalf("%d chart containers, %d echarts.init calls", len(items), len(inits))
	}
	seen := map[string]bool{}
	for i, m := range items {
		id := m[1]
		if !strings.HasPrefix(id, "chart_") || seen[id] || inits[i][1] != id {
			t.Errorf("chart id %q: not derived from a name, duplicated, or not the one initialised (%q)", id, inits[i][1])
		}
		seen[id] = true
	}
	// 2 scenarios x 5 charts, kills for quick, state for fair and capacity
	// on quick and for capacity on dress-fig1 (fair's state never moves
	// there: it has no AMs) + 3 units of the toy paper.
	if len(items) != 2*5+1+3+3 {
		t.Errorf("%d charts, want 17", len(items))
	}
	for _, want := range []string{"chart_jct_dress_fig1", "chart_cdf_quick", "chart_vcores_quick", "chart_memory_quick",
		"chart_containers_quick", "chart_killed_quick", "chart_state_quick_fair", "chart_paper_toy_s", "chart_paper_toy__", "chart_paper_toy_count"} {
		if !seen[want] {
			t.Errorf("no chart %s", want)
		}
	}
	// The paper's missing figure is shown as such, not as 0.
	if !strings.Contains(html, "<td>n/a</td>") {
		t.Error("a missing paper value is not shown as n/a")
	}
}

func TestFiveNum(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want [5]float64
	}{
		{[]float64{3}, [5]float64{3, 3, 3, 3, 3}},
		{[]float64{4, 1, 3, 2, 5}, [5]float64{1, 2, 3, 4, 5}},
		{[]float64{1, 2}, [5]float64{1, 1.25, 1.5, 1.75, 2}},
	} {
		if got := fiveNum(c.in); got != c.want {
			t.Errorf("fiveNum(%v) = %v, want %v", c.in, got, c.want)
		}
	}
	if q := fiveNum(nil); !math.IsNaN(q[2]) {
		t.Errorf("fiveNum(nil) = %v", q)
	}
}

func TestIDs(t *testing.T) {
	m := ids{}
	for _, c := range []struct {
		parts []string
		want  string
	}{
		{[]string{"jct", "dress-fig1"}, "chart_jct_dress_fig1"},
		{[]string{"jct", "dress-fig1"}, "chart_jct_dress_fig1_2"},
		{[]string{"paper", "opera", "%"}, "chart_paper_opera__"},
		{[]string{"State", "Q", "fair-no-am-limit"}, "chart_state_q_fair_no_am_limit"},
	} {
		if got := m.next(c.parts...); got != c.want {
			t.Errorf("next(%v) = %q, want %q", c.parts, got, c.want)
		}
	}
}

func TestFnum(t *testing.T) {
	for in, want := range map[float64]string{1: "1", 1.5: "1.5", 2.346: "2.35", -0.001: "0", math.NaN(): "n/a", 1234.5678: "1234.57"} {
		if got := fnum(in); got != want {
			t.Errorf("fnum(%v) = %q, want %q", in, got, want)
		}
	}
}

// section returns the report's HTML from the heading of the section titled
// title to the next heading.
func sectionOf(t *testing.T, html, title string) string {
	t.Helper()
	i := strings.Index(html, ">"+title+"</h2>")
	if i < 0 {
		t.Fatalf("no section %q", title)
	}
	rest := html[i:]
	if j := strings.Index(rest[1:], "<h2"); j >= 0 {
		rest = rest[:j+1]
	}
	return rest
}

// TestLead: the report opens with the suite's name and what it runs (the
// quick report's subtitle read "seconds: the quick mix ...").
func TestLead(t *testing.T) {
	res := results(t, 2)
	_, b := saved(t, res)
	want := `<p class="lead">Suite quick: the quick mix and the DRESS Fig. 1 toy under FIFO, Fair and Capacity; runs in seconds (for tests and demos).</p>`
	if !strings.Contains(string(b), want) {
		t.Fatalf("the report does not open with %s", want)
	}
}

// TestPlusMinusDefined: the report says what "±" stands for before its
// first table uses it (issue 29: it was never defined).
func TestPlusMinusDefined(t *testing.T) {
	_, b := saved(t, results(t, 2))
	html := string(b)
	def := strings.Index(html, `A cell "m ± s" is the mean over the seeds ± their standard deviation`)
	first := strings.Index(html, "<table>")
	if def < 0 || first < 0 || def > first {
		t.Fatalf("definition of ± at %d, first table at %d: want the definition first", def, first)
	}
}

// TestAxisNamesClearOfTitles: an axis name is drawn neither over a chart's
// subtitle nor past its edge (issue 29: the policy-state chart's first axis
// name sat on its subtitle; the learning report's x-axis names, at the
// axis end, were cut at the right edge, "simulated s").
func TestAxisNamesClearOfTitles(t *testing.T) {
	html := string(func() []byte { _, b := saved(t, results(t, 2)); return b }())
	// The first state panel: its y-axis name takes 15 px of gap and a 12 px
	// line above the panel; the title (one 24 px line from 5 px) and the
	// subtitle (a 16 px line) end at 45 px.
	i := strings.Index(html, `"chart_state_dress_fig1_capacity"`)
	if i < 0 {
		t.Fatal("no state chart for capacity on dress-fig1")
	}
	m := regexp.MustCompile(`"grid":\[\{[^}]*"top":"(\d+)"`).FindStringSubmatch(html[i:])
	if m == nil {
		t.Fatal("state chart: no grid top")
	}
	if top, _ := strconv.Atoi(m[1]); top-15-12 < 45 {
		t.Errorf("state chart: first panel at %d px, its axis name reaches up to %d px, over the subtitle (ends at 45 px)", top, top-27)
	}
	l := Learning{Task: "T-v0", Algo: "ppo", Objective: "slowdown", XUnit: "env steps", CurveX: []float64{1, 2}, CurveReturn: []float64{-2, -1},
		CurveBest: []float64{-2, -1}, DiagNames: []string{"approx KL"}, Diag: map[string][]float64{"approx KL": {0.01, 0.02}},
		Params: []string{"rho"}, TimeS: []float64{0, 60}, Actions: [][]float64{{1}, {2}}}
	b, err := BuildLearning(l)
	if err != nil {
		t.Fatal(err)
	}
	axes := regexp.MustCompile(`"xAxis":\[\{[^}]*\}`).FindAllString(string(b), -1)
	if len(axes) != 3 {
		t.Fatalf("learning report: %d x axes, want 3 (curve, diagnostics, actions)", len(axes))
	}
	for _, a := range axes {
		if strings.Contains(a, `"name":`) && !strings.Contains(a, `"nameLocation":"middle"`) {
			t.Errorf("learning report: x axis %s: a name at the axis end is cut at the chart's edge", a)
		}
	}
}

// TestNothingToDraw: a scenario without kills gets a note instead of a
// kills chart of empty axes, and a policy state that never moves gets a
// note with its value instead of a flat line; a scenario with kills keeps
// its chart.
func TestNothingToDraw(t *testing.T) {
	_, b := saved(t, results(t, 2))
	html := string(b)
	dress, quick := sectionOf(t, html, "Scenario dress-fig1"), sectionOf(t, html, "Scenario quick")
	if strings.Contains(dress, "chart_killed_") || !strings.Contains(dress, `<p class="nochart">No kills: no task attempt was killed`) {
		t.Error("dress-fig1 (no kills): want a no-kills note and no kills chart")
	}
	if !strings.Contains(quick, `id="chart_killed_quick"`) || strings.Contains(quick, "No kills") {
		t.Error("quick (a kill): want the kills chart")
	}
	if strings.Contains(dress, "chart_state_dress_fig1_fair") ||
		!strings.Contains(dress, `<p class="nochart">Policy state of fair on dress-fig1 (seed 1): am_vcores_share stayed 0 throughout, so not drawn.</p>`) {
		t.Error("dress-fig1 under fair: want a note that am_vcores_share stayed 0, and no state chart")
	}
	if !strings.Contains(dress, `id="chart_state_dress_fig1_capacity"`) || !strings.Contains(quick, `id="chart_state_quick_fair"`) {
		t.Error("a policy state that moves lost its chart")
	}
}

var titleRe = regexp.MustCompile(`"title":\{"text":"((?:[^"\\]|\\.)*)"`)

// TestLongTitlesWrap: every chart title fits the chart's width (wrapped at
// TitleChars): the OPERA reproduction's title ran off the chart.
func TestLongTitlesWrap(t *testing.T) {
	res := results(t, 2)
	opera := "OPERA (Yang et al., New YARN Non-Exclusive Resource Management Scheme through Opportunistic Idle Resource Assignment), Sec. IV"
	res.Papers = append(res.Papers, suite.Paper{Name: "long", Title: opera, Rows: toyRows[:2]})
	_, b := saved(t, res)
	titles := titleRe.FindAllStringSubmatch(string(b), -1)
	if len(titles) < 10 {
		t.Fatalf("%d chart titles found", len(titles))
	}
	wrapped := false
	for _, m := range titles {
		lines := strings.Split(m[1], `\n`)
		wrapped = wrapped || len(lines) > 1
		for _, l := range lines {
			if n := len([]rune(l)); n > TitleChars {
				t.Errorf("title line of %d characters (at most %d fit): %s", n, TitleChars, l)
			}
		}
	}
	if !wrapped || !strings.Contains(string(b), `"text":"OPERA (Yang et al., New YARN Non-Exclusive Resource Management Scheme through\nOpportunistic Idle Resource Assignment), Sec. IV (s)"`) {
		t.Error("the long title is not wrapped at a space")
	}
}

// TestOffPaperMarked: reproduced figures outside the tolerance are marked
// in the table (class off, ✗) and the rule is stated; the others are not.
func TestOffPaperMarked(t *testing.T) {
	_, b := saved(t, results(t, 2))
	toy := sectionOf(t, string(b), "Toy paper (test)")
	if !strings.Contains(toy, "more than 25 % of it, or has the other sign") {
		t.Error("the tolerance rule is not stated")
	}
	rowRe := regexp.MustCompile(`<tr( class="off")?><td>([^<]*)</td><td>([^<]*)</td>(?:<td>[^<]*</td>){4}<td>([^<]*)</td>`)
	got := map[string]string{}
	for _, m := range rowRe.FindAllStringSubmatch(toy, -1) {
		mark := "ok"
		if m[1] != "" {
			mark = "off"
		}
		got[m[2]+" "+m[3]] = mark + " " + html.UnescapeString(m[4])
	}
	want := map[string]string{
		"fig1 makespan":          "ok 0 %",
		"fig1 mean wait":         "ok −3 %",
		"table2 small-job time":  "off ✗ +28 %",
		"table2 makespan":        "ok n/a",
		"table2 throughput gain": "off ✗ −120 %",
		"fig3 kills":             "off ✗ paper 0",
		"fig3 stuck":             "ok =",
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("row %s: %q, want %q", k, got[k], w)
		}
	}
}

func TestOffPaper(t *testing.T) {
	for _, c := range []struct {
		paper, sim float64
		txt        string
		off        bool
	}{
		{100, 125, "+25 %", false}, {100, 125.1, "✗ +25 %", true}, {100, 74, "✗ −26 %", true}, {-10, -12, "−20 %", false},
		{-10, 1, "✗ +110 %", true}, {10, 0, "✗ −100 %", true}, {0, 0.001, "=", false}, {0, 0.01, "✗ paper 0", true},
		{math.NaN(), 3, "n/a", false}, {3, math.NaN(), "n/a", false},
	} {
		if txt, off := offPaper(c.paper, c.sim); txt != c.txt || off != c.off {
			t.Errorf("offPaper(%v, %v) = %q, %v; want %q, %v", c.paper, c.sim, txt, off, c.txt, c.off)
		}
	}
}
