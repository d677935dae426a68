package report

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"math"
	"os"
	"path/filepath"
	"regexp"
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
	res.Papers = append(res.Papers, suite.Paper{Name: "toy", Title: "Toy paper (test)", Rows: []suite.PaperRow{
		{Experiment: "fig1", Metric: "makespan", Unit: "s", Paper: 40, Simulated: 40, SimulatedSD: 0},
		{Experiment: "fig1", Metric: "mean wait", Unit: "s", Paper: 16, Simulated: 15.5, SimulatedSD: 1.2, Note: "lower is better"},
		{Experiment: "table2", Metric: "small-job time", Unit: "%", Paper: -27.6, Simulated: -20, SimulatedSD: 3},
		{Experiment: "table2", Metric: "makespan", Unit: "%", Paper: suite.Num(math.NaN()), Simulated: 1, SimulatedSD: 0.5},
	}})
	return res
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
	// 2 scenarios x (6 charts + a state chart for fair and for capacity) + 2 units of the toy paper.
	if len(items) != 2*8+2 {
		t.Errorf("%d charts, want 18", len(items))
	}
	for _, want := range []string{"chart_jct_dress_fig1", "chart_cdf_quick", "chart_vcores_quick", "chart_memory_quick",
		"chart_containers_quick", "chart_killed_quick", "chart_state_quick_fair", "chart_paper_toy_s", "chart_paper_toy__"} {
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
