package report

import (
	"bytes"
	"html"
	"regexp"
	"strings"
	"testing"
)

// followLearning is a learning report of a saved model (no curve) whose
// action follows jobs_waiting_frac, over a three-step episode.
func followLearning() Learning {
	return Learning{Task: "T-v0", Algo: "ppo", Objective: "slowdown",
		Summary:     [][2]string{{"model", "m"}},
		EpisodeSeed: 7, Params: []string{"rho", "sigma"}, TimeS: []float64{0, 60, 120}, Actions: [][]float64{{1, 3}, {1.5, 3}, {2, 3}},
		Follow: []Follow{
			{Param: "rho", Sentence: "rho moves over 50 % of its range and strongly follows jobs_waiting_frac: Spearman rho +0.91 ± 0.02 (mean ± s.e. over 20 episodes).",
				Feature: "jobs_waiting_frac", Values: []float64{0.1, 0.2, 0.4}},
			{Param: "sigma", Sentence: "sigma does not move: 3 at every step of 20 test episodes."},
		},
		FollowOver: "test seeds 7-26",
		LoadNames:  []string{"jobs waiting", "vcores reserved"}, LoadShare: []bool{false, true},
		Load: [][]float64{{1, 0.5}, {2, 0.75}, {4, 1}}}
}

// TestLearningDrawsWhatTheActionFollows: with an explanation, the report
// states each parameter's sentence, draws the action beside the feature it
// follows on a second y axis (and a still action alone), and the load with
// counts and shares on their own axes; it draws no curve when it has none,
// and is byte-identical for the same input.
func TestLearningDrawsWhatTheActionFollows(t *testing.T) {
	l := followLearning()
	b, err := BuildLearning(l)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := BuildLearning(l); !bytes.Equal(b, again) {
		t.Error("two builds of the same report differ")
	}
	page := string(b)
	if !strings.Contains(page, "<h2>What the controller's actions follow (test seeds 7-26)</h2>") {
		t.Error("no heading naming the episodes the explanation is over")
	}
	for _, f := range l.Follow {
		// The template escapes "+" (&#43;): compare unescaped.
		if !strings.Contains(html.UnescapeString(page), "<p>"+f.Sentence+"</p>") {
			t.Errorf("sentence of %s not stated", f.Param)
		}
	}
	if strings.Contains(page, `id="chart_learning_`) || strings.Contains(page, `id="chart_actions_`) {
		t.Error("a curve chart without a curve, or the plain actions chart beside the follow charts")
	}
	rho := chartScript(t, page, "chart_follow_t_v0_ppo_rho")
	if !strings.Contains(rho, `"text":"rho beside jobs_waiting_frac, the feature it follows (test seed 7)"`) {
		t.Error("rho's chart: title does not name the feature and seed")
	}
	if n := len(regexp.MustCompile(`"name":"[^"]*"`).FindAllString(yAxes(t, rho), -1)); n != 2 {
		t.Errorf("rho's chart: %d named y axes, want 2 (the action's, the feature's)", n)
	}
	if !regexp.MustCompile(`"name":"jobs_waiting_frac \(observed, right axis\)"[^}]*"yAxisIndex":1`).MatchString(rho) ||
		!strings.Contains(rho, `"data":[{"value":[0,0.1]},{"value":[60,0.2]},{"value":[120,0.4]}]`) {
		t.Error("rho's chart: the feature is not drawn on the second axis with its values")
	}
	if !strings.Contains(rho, `"step":"end"`) {
		t.Error("rho's chart: an action holds from its step's start to the next (step end)")
	}
	sigma := chartScript(t, page, "chart_follow_t_v0_ppo_sigma")
	if strings.Contains(sigma, "yAxisIndex\":1") || !strings.Contains(sigma, `"text":"sigma over test seed 7"`) {
		t.Error("sigma's chart: a still action follows nothing, so it is drawn alone")
	}
	load := chartScript(t, page, "chart_load_t_v0_ppo")
	if !regexp.MustCompile(`"name":"vcores reserved"[^}]*"yAxisIndex":1`).MatchString(load) ||
		regexp.MustCompile(`"name":"jobs waiting"[^}]*"yAxisIndex":1`).MatchString(load) {
		t.Error("load chart: shares belong on the right axis, counts on the left")
	}
}

// chartScript returns the script of chart id in page.
func chartScript(t *testing.T, page, id string) string {
	t.Helper()
	i := strings.Index(page, `echarts.init(document.getElementById('`+id+`')`)
	if i < 0 {
		i = strings.Index(page, `"`+id+`"`)
	}
	if i < 0 {
		t.Fatalf("no chart %s", id)
	}
	end := strings.Index(page[i:], "</script>")
	if end < 0 {
		t.Fatalf("chart %s: no script end", id)
	}
	return page[i : i+end]
}

func yAxes(t *testing.T, script string) string {
	t.Helper()
	m := regexp.MustCompile(`"yAxis":\[[^\]]*\]`).FindString(script)
	if m == "" {
		t.Fatal("no y axes")
	}
	return m
}

// TestActionsHoldOverTheirInterval: an action set at a step's start holds
// until the next step, so the step line turns at the end of the interval
// ("start" drew each action over the interval before it).
func TestActionsHoldOverTheirInterval(t *testing.T) {
	l := followLearning()
	l.Follow = nil
	b, err := BuildLearning(l)
	if err != nil {
		t.Fatal(err)
	}
	acts := chartScript(t, string(b), "chart_actions_t_v0_ppo")
	if !strings.Contains(acts, `"step":"end"`) || strings.Contains(acts, `"step":"start"`) {
		t.Error("actions chart: want step lines turning at the interval's end")
	}
}
