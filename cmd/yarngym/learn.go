package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"yarngym/benchmarks/baselines"
	"yarngym/benchmarks/report"
	"yarngym/env"
	"yarngym/env/task"
	"yarngym/learn"

	"yarngym/internal/atomicfile"
	"yarngym/internal/cputime"
)

// cmdLearn trains learners on tasks and compares them with the baselines:
// yarngym learn TASK[,TASK...]|all [--algo A[,A...]] [--budget N|A=N,...] [--seed S] [--out DIR] [--workers K].

// bestStaticLabel names the baselines' best static setting: chosen on the
// task's train seeds over a grid as fine as the learners' (task.Baselines).
const bestStaticLabel = "best static (81-point grid on train seeds)"

func cmdLearn(args []string, stdout, stderr io.Writer) error {
	c := newCommand("learn", "TASK[,TASK...]|all", `Trains learners on tasks (on their train seeds), evaluates each learned
controller on the test seeds paired with the task's baselines, and prints
the comparison table. Each learner writes OUT/TASK/ALGO/: model.json (the
model, checkpointed during PPO), curve.csv (the learning curve), eval.json
(test returns, paired differences, timing) and report.html (the curve
beside the baselines; which observed feature each action follows over
the test seeds, drawn beside one test episode's actions, and the load).
Learners: grid, random, cmaes, bo (budget: evaluations), ppo (budget:
env steps).`, "yarngym learn OPERA-v0,AutoAdmin-v0 --algo grid,cmaes,ppo --budget grid=81,cmaes=27,ppo=100000")
	algos := c.fs.String("algo", "ppo", "`LEARNERS`, comma-separated: "+strings.Join(learn.Names(), ", "))
	budget := c.fs.String("budget", "", "`N` for every learner, or per learner (cmaes=27,ppo=100000); default: each learner's ("+learn.DefaultBudgets()+")")
	seed := c.fs.Uint64("seed", 1, "the run's `SEED` (initial weights, samples, candidates)")
	out := c.fs.String("out", "out/learn", "results folder `OUT`")
	workers := c.fs.Int("workers", runtime.GOMAXPROCS(0), "`K` goroutines stepping the environments (results do not depend on it)")
	trainSeeds := c.fs.Int("train-seeds", learn.DefaultTrainSeeds, "`N` train seeds each black-box candidate is scored on")
	ppoSets := c.fs.String("ppo", "", "PPO's hyper-parameters, `KEY=VALUE,...` over the defaults ("+learn.PPOConfigKeys()+")")
	pos, err := c.parse(args, stdout)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("learn takes one task id, a comma-separated list, or all (see 'yarngym tasks')")
	}
	tasks, err := pickTasks(pos[0])
	if err != nil {
		return usagef("learn: %v", err)
	}
	names := strings.Split(*algos, ",")
	for _, a := range names {
		if _, err := learn.Lookup(a); err != nil {
			return usagef("learn: --algo: %v", err)
		}
	}
	budgets, err := parseBudgets(*budget, names)
	if err != nil {
		return usagef("learn: --budget: %v", err)
	}
	if *workers < 1 || *trainSeeds < 1 {
		return usagef("learn: --workers and --train-seeds must be at least 1")
	}
	ppo, err := learn.ParsePPOConfig(*ppoSets)
	if err != nil {
		return usagef("learn: --ppo: %v", err)
	}
	var rows []compareRow
	for _, t := range tasks {
		b, err := baselines.Load(t.ID)
		if err != nil {
			return err
		}
		rows = append(rows, compareRow{Task: t.ID, Method: "paper default", Action: fmtAction(b.Default.Action), Test: b.Default.Return},
			compareRow{Task: t.ID, Method: bestStaticLabel, Action: fmtAction(b.Best.Action), Test: b.Best.Return,
				VsBest: task.Paired(b.Best.Returns, b.Best.Returns), VsDefault: b.BestVsDefault})
		for _, a := range names {
			dir := filepath.Join(*out, t.ID, a)
			row, err := learnOne(t, a, budgets[a], *seed, *workers, *trainSeeds, &ppo, dir, b, stderr)
			if err != nil {
				return err
			}
			rows = append(rows, row)
		}
	}
	printCompare(stdout, rows)
	return writeCompare(filepath.Join(*out, "compare.json"), rows)
}

// compareRow is one line of the learners' comparison table.
type compareRow struct {
	Task      string    `json:"task"`
	Method    string    `json:"method"`
	Action    string    `json:"action"`
	Budget    string    `json:"budget,omitempty"`
	TrainS    float64   `json:"train_s,omitempty"`
	Test      task.Stat `json:"test"`
	VsBest    task.Stat `json:"vs_best_static"`
	VsDefault task.Stat `json:"vs_default"`
}

func learnOne(t task.Task, algo string, budget int, seed uint64, workers, trainSeeds int, ppo *learn.PPOConfig, dir string, b *task.Baselines, stderr io.Writer) (compareRow, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return compareRow{}, err
	}
	fmt.Fprintf(stderr, "%s: training %s\n", t.ID, algo)
	start, cpu0 := time.Now(), cputime.Seconds()
	last := time.Now()
	total := float64(budget)
	if l, err := learn.Lookup(algo); err == nil && budget == 0 {
		total = float64(l.DefaultBudget)
	}
	res, err := learn.Train(algo, t, learn.Options{Budget: budget, Seed: seed, Workers: workers, TrainSeeds: trainSeeds, PPO: ppo,
		Checkpoint: func(m *learn.Model) error { _, err := m.Save(dir); return err },
		Progress: func(p learn.Point) {
			if time.Since(last) > 2*time.Second {
				el := time.Since(start)
				eta := ""
				if p.X > 0 && p.X < total {
					eta = ", ETA " + (time.Duration(float64(el) * (total - p.X) / p.X)).Round(time.Second).String()
				}
				fmt.Fprintf(stderr, "  %s %s: %.0f of %.0f, return %.4g (best %.4g), %.0f s%s\n", t.ID, algo, p.X, total, p.Return, p.Best, el.Seconds(), eta)
				last = time.Now()
			}
		}})
	if err != nil {
		return compareRow{}, fmt.Errorf("%s %s: %w", t.ID, algo, err)
	}
	trainS, trainCPU := time.Since(start).Seconds(), cputime.Seconds()-cpu0
	m := res.Model
	if _, err := m.Save(dir); err != nil {
		return compareRow{}, err
	}
	if err := writeCurve(filepath.Join(dir, "curve.csv"), res); err != nil {
		return compareRow{}, err
	}
	eps, err := learn.Evaluate(m, t, workers)
	if err != nil {
		return compareRow{}, err
	}
	rets := task.Returns(eps)
	spent := int64(res.Evals)
	if res.XUnit == "env steps" {
		spent = res.EnvSteps
	}
	row := compareRow{Task: t.ID, Method: algo, Action: fmtAction(m.Action), Budget: fmt.Sprintf("%d %s", spent, res.XUnit),
		TrainS: trainS, Test: task.NewStat(rets), VsBest: task.Paired(rets, b.Best.Returns), VsDefault: task.Paired(rets, b.Default.Returns)}
	if m.Kind == learn.KindPolicy {
		row.Action = "policy"
	}
	// eval.json is deterministic (the same model gives the same bytes);
	// the wall-clock figures go to timing.json.
	if err := writeJSON(filepath.Join(dir, "eval.json"), map[string]any{"task": t.ID, "algo": algo, "test_seeds": t.Test.List(), "returns": rets,
		"test": row.Test, "vs_best_static": row.VsBest, "vs_default": row.VsDefault,
		"env_steps": res.EnvSteps, "grad_steps": res.GradSteps, "evals": res.Evals}); err != nil {
		return compareRow{}, err
	}
	if err := writeJSON(filepath.Join(dir, "timing.json"), map[string]any{"train_s": trainS, "env_steps_per_s": float64(res.EnvSteps) / trainS,
		"grad_steps_per_s": float64(res.GradSteps) / trainS, "workers": workers, "train_cpu_s": trainCPU,
		"env_cpu_s": res.EnvCPU, "update_cpu_s": res.UpdateCPU, "env_steps": res.EnvSteps, "grad_steps": res.GradSteps}); err != nil {
		return compareRow{}, err
	}
	// Every test seed, so that the report can say what the actions follow
	// across episodes rather than in the one it draws.
	x, err := explainModel(t, m, task.SplitTest, t.Test.List(), workers)
	if err != nil {
		return compareRow{}, err
	}
	html, err := report.BuildLearning(learningReport(t, algo, res, b, row, x))
	if err != nil {
		return compareRow{}, err
	}
	if err := atomicfile.Write(filepath.Join(dir, "report.html"), html); err != nil {
		return compareRow{}, err
	}
	fmt.Fprintf(stderr, "  %s %s: test return %s (best static %s) in %.1f s; %s\n", t.ID, algo, row.Test, b.Best.Return, trainS, dir)
	return row, nil
}

func learningReport(t task.Task, algo string, res *learn.Result, b *task.Baselines, row compareRow, x *explained) report.Learning {
	l := report.Learning{Task: t.ID, Algo: algo, Objective: t.Objective(), XUnit: res.XUnit,
		Baselines: []report.NamedValue{{Name: "paper default", Value: b.Default.Return.Mean}, {Name: "random", Value: b.Random.Return.Mean}, {Name: bestStaticLabel, Value: b.Best.Return.Mean}},
		Learned:   report.NamedValue{Name: algo, Value: row.Test.Mean}}
	x.fill(&l)
	for _, p := range res.Curve {
		l.CurveX = append(l.CurveX, p.X)
		l.CurveReturn = append(l.CurveReturn, p.Return)
		l.CurveBest = append(l.CurveBest, p.Best)
		if p.Diag != nil {
			if l.Diag == nil {
				l.DiagNames = []string{"approx KL", "clip fraction", "explained variance"}
				l.Diag = map[string][]float64{}
			}
			l.Diag["approx KL"] = append(l.Diag["approx KL"], p.Diag.ApproxKL)
			l.Diag["clip fraction"] = append(l.Diag["clip fraction"], p.Diag.ClipFrac)
			l.Diag["explained variance"] = append(l.Diag["explained variance"], p.Diag.ExplainedVar)
		}
	}
	l.Summary = [][2]string{
		{"task", t.GymID() + ": " + t.Doc},
		{"objective", t.Objective() + " (return = the episode's rewards summed)"},
		{"learner", algo + ", seed " + strconv.FormatUint(res.Model.Seed, 10) + ", budget " + row.Budget},
		{"test return (" + strconv.Itoa(t.Test.Count) + " seeds)", row.Test.String()},
		{"vs best static (paired)", row.VsBest.String()},
		{"vs paper default (paired)", row.VsDefault.String()},
		{"baselines (test)", fmt.Sprintf("paper default %s, random %s, best static %v: %s", b.Default.Return, b.Random.Return, b.Best.Action, b.Best.Return)},
	}
	return l
}

// cmdEvaluate evaluates a saved model on its task's test seeds, paired with
// the baselines: yarngym evaluate TASK --model DIR [--set KEY=VALUE ...]
// [--split S] [--workers K] [--format table|json]. On the task's own test
// workload the saved baselines are the comparison; on another workload
// (--set, or another split) the paper default and the saved best static
// setting are played again on that workload's seeds, so that every
// difference stays paired.
func cmdEvaluate(args []string, stdout io.Writer) error {
	c := newCommand("evaluate", "TASK", `Evaluates a trained model (yarngym learn's model.json) on the task's test
seeds, paired with the task's baselines (paper default, random, best
static). --set KEY=VALUE (workload keys, repeatable) plays the model on
another workload without retraining: another trace (workload.options.path),
other windows of it (workload.options.windows_from / windows_to / window_s)
or other generator parameters; --split names which of the task's seed runs
(and its part of the workload family) to play. Off the task's own test
workload, the paper default and the saved best static setting are played
again on the same workload and seeds. The output states the workload used.`,
		"yarngym evaluate DRESS-FB5-v0 --model out/learn/DRESS-FB5-v0/grid --set workload.options.windows_from=0 --set workload.options.windows_to=23")
	model := c.fs.String("model", "", "`PATH` of model.json, or the folder holding it")
	workers := c.fs.Int("workers", runtime.GOMAXPROCS(0), "`K` goroutines stepping the environments")
	var sets multiFlag
	c.fs.Var(&sets, "set", "`KEY=VALUE` override of a workload key (workload.*; repeatable), applied after the task's and its split's")
	split := c.fs.String("split", task.SplitTest, "the task's seed run to play: `SPLIT` train, validation or test (its part of the workload family)")
	format := c.fs.String("format", "table", "output `FORMAT`: table or json")
	explain := c.fs.Bool("explain", false, "also say which observed feature each action follows over the seeds played (Spearman correlation per episode, mean ± s.e.)")
	reportPath := c.fs.String("report", "", "write to `FILE` an HTML report of the first seed's episode: each action beside the feature it follows, and the load (implies --explain)")
	pos, err := c.parse(args, stdout)
	if err != nil {
		return err
	}
	if len(pos) != 1 || *model == "" {
		return usagef("evaluate takes one task id and --model DIR")
	}
	if *format != "table" && *format != "json" {
		return usagef("evaluate: --format %q is not table or json", *format)
	}
	if *workers < 1 {
		return usagef("evaluate: --workers must be at least 1")
	}
	for _, kv := range sets {
		k, _, ok := strings.Cut(kv, "=")
		if !ok || !strings.HasPrefix(k, "workload.") {
			return usagef("evaluate: --set %s: want KEY=VALUE with a workload key (workload.*): the model's task fixes the cluster, the policy and the spaces", kv)
		}
	}
	t, err := task.Lookup(pos[0])
	if err != nil {
		return usagef("evaluate: %v", err)
	}
	seedRun, err := t.SeedsOf(*split)
	if err != nil {
		return usagef("evaluate: --split: %v", err)
	}
	m, err := learn.LoadModel(*model)
	if err != nil {
		return usagef("evaluate: %v", err)
	}
	if m.Task != t.ID {
		return usagef("evaluate: --model %s: the model is for task %s, not %s", *model, m.Task, t.ID)
	}
	b, err := baselines.Load(t.ID)
	if err != nil {
		return err
	}
	wt := t.WithSets(sets)
	cfg := wt.EnvFor(*split)
	if _, err := env.New(cfg); err != nil {
		return usagef("evaluate: --set %s: %v", strings.Join(sets, " --set "), err)
	}
	seeds := seedRun.List()
	if *split == task.SplitTrain {
		seeds = seeds[:min(len(seeds), t.Test.Count)] // as many as the test run, paired
	}
	wl := evalWorkload{Scenario: cfg.Scenario, Policy: cfg.Policy, Sets: cfg.Sets, TaskSets: t.EnvFor(*split).Sets, Overrides: sets,
		Split: *split, Seeds: seeds}
	ownTest := len(sets) == 0 && *split == task.SplitTest
	play := func(a task.Agent) ([]float64, error) {
		eps, err := task.Evaluate(cfg, seeds, a, *workers)
		if err != nil {
			return nil, fmt.Errorf("evaluate: %w", err)
		}
		return task.Returns(eps), nil
	}
	rets, err := play(m.Agent())
	if err != nil {
		return err
	}
	def, best := b.Default.Returns, b.Best.Returns
	if !ownTest {
		// Another workload: the baselines are played again on it (their
		// saved returns are of the task's test workload, not these).
		if def, err = play(task.Static(b.Default.Action)); err != nil {
			return err
		}
		if best, err = play(task.Static(b.Best.Action)); err != nil {
			return err
		}
	}
	wl.BaselinesRecomputed = !ownTest
	act := fmtAction(m.Action)
	if m.Kind == learn.KindPolicy {
		act = "policy"
	}
	rows := []compareRow{{Task: t.ID, Method: "paper default", Action: fmtAction(b.Default.Action), Test: task.NewStat(def)}}
	if ownTest {
		rows = append(rows, compareRow{Task: t.ID, Method: "random", Action: "-", Test: b.Random.Return, VsBest: task.Paired(b.Random.Returns, best), VsDefault: task.Paired(b.Random.Returns, def)})
	}
	rows = append(rows,
		compareRow{Task: t.ID, Method: bestStaticLabel, Action: fmtAction(b.Best.Action), Test: task.NewStat(best), VsDefault: task.Paired(best, def)},
		compareRow{Task: t.ID, Method: m.Algo + " (" + *model + ")", Action: act, Test: task.NewStat(rets), VsBest: task.Paired(rets, best), VsDefault: task.Paired(rets, def)})
	var x *explained
	if *explain || *reportPath != "" {
		if x, err = explainModel(wt, m, *split, seeds, *workers); err != nil {
			return fmt.Errorf("evaluate: %w", err)
		}
		// The controller's median action held fixed on the same seeds:
		// what beating it is worth says what adapting gains beyond the
		// level the controller keeps on average.
		held, err := play(task.Static(x.medians()))
		if err != nil {
			return err
		}
		// Before the model's row, which stays last.
		rows = slices.Insert(rows, len(rows)-1, compareRow{Task: t.ID, Method: m.Algo + "'s median action, held fixed", Action: fmtAction(x.medians()),
			Test: task.NewStat(held), VsBest: task.Paired(held, best), VsDefault: task.Paired(held, def)})
		x.Held, x.VsHeld = held, task.Paired(rets, held)
		if *reportPath != "" {
			if err := writeExplainReport(*reportPath, t, m, *model, wl, rows, x); err != nil {
				return err
			}
		}
	}
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		out := map[string]any{"task": t.ID, "model": *model, "workload": wl, "rows": rows,
			"returns": map[string][]float64{"model": rets, "paper default": def, "best static": best}}
		if x != nil {
			out["explain"] = x.Params
			out["vs_median_held"] = x.VsHeld
			out["returns"].(map[string][]float64)["median held"] = x.Held
		}
		return enc.Encode(out)
	}
	fmt.Fprintf(stdout, "workload: %s\n", wl)
	printCompare(stdout, rows)
	if x != nil {
		x.print(stdout)
	}
	return nil
}

// evalWorkload is the workload an evaluation played: the scenario, every
// override in the order applied (the task's, its split's, the user's),
// the split and its seeds.
type evalWorkload struct {
	Scenario string   `json:"scenario"`
	Policy   string   `json:"policy,omitempty"`
	Sets     []string `json:"sets"`
	// TaskSets are the task's own sets for the split; Overrides the --set
	// values on top of them (none: the task's own workload).
	TaskSets            []string `json:"task_sets"`
	Overrides           []string `json:"overrides"`
	Split               string   `json:"split"`
	Seeds               []uint64 `json:"seeds"`
	BaselinesRecomputed bool     `json:"baselines_recomputed"`
}

func (w evalWorkload) String() string {
	own := "the task's own"
	if len(w.Overrides) > 0 {
		own = "overridden by --set " + strings.Join(w.Overrides, " --set ")
	}
	base := "saved baselines"
	if w.BaselinesRecomputed {
		base = "baselines played again on this workload"
	}
	return fmt.Sprintf("scenario %s (policy %s), %s split, seeds %d..%d; sets [%s] (%s); %s",
		w.Scenario, w.Policy, w.Split, w.Seeds[0], w.Seeds[len(w.Seeds)-1], strings.Join(w.Sets, " "), own, base)
}

func printCompare(w io.Writer, rows []compareRow) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "task\tmethod\taction\tbudget\ttrain s\ttest return\tvs best static\tvs default")
	for _, r := range rows {
		ts := "-"
		if r.TrainS > 0 {
			ts = fmt.Sprintf("%.1f", r.TrainS)
		}
		vb, vd := "-", "-"
		if r.VsBest.N > 0 && r.Method != bestStaticLabel {
			vb = r.VsBest.String()
		}
		if r.VsDefault.N > 0 {
			vd = r.VsDefault.String()
		}
		budget := r.Budget
		if budget == "" {
			budget = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Task, r.Method, r.Action, budget, ts, r.Test, vb, vd)
	}
	tw.Flush()
	fmt.Fprintln(w, "(test return: mean ± s.e. over the seeds played; vs: paired differences on the same seeds)")
}

func writeCompare(path string, rows []compareRow) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return writeJSON(path, rows)
}

func writeJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(path, append(data, '\n'))
}

func writeCurve(path string, res *learn.Result) error {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	// PPO's curve carries each update's diagnostics too.
	diag := len(res.Curve) > 0 && res.Curve[0].Diag != nil
	head := []string{strings.ReplaceAll(res.XUnit, " ", "_"), "return", "best"}
	if diag {
		head = append(head, "approx_kl", "clip_frac", "explained_var", "lr")
	}
	_ = w.Write(head)
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	for _, p := range res.Curve {
		row := []string{g(p.X), g(p.Return), g(p.Best)}
		if diag && p.Diag != nil {
			row = append(row, g(p.Diag.ApproxKL), g(p.Diag.ClipFrac), g(p.Diag.ExplainedVar), g(p.Diag.LR))
		}
		_ = w.Write(row)
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return err
	}
	return atomicfile.Write(path, buf.Bytes())
}

func pickTasks(arg string) ([]task.Task, error) {
	if arg == "all" {
		return task.All(), nil
	}
	var out []task.Task
	for _, id := range strings.Split(arg, ",") {
		t, err := task.Lookup(strings.TrimSpace(id))
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

func parseBudgets(s string, algos []string) (map[string]int, error) {
	out := map[string]int{}
	if s == "" {
		return out, nil
	}
	if n, err := strconv.Atoi(s); err == nil {
		if n < 1 {
			return nil, fmt.Errorf("%d: want at least 1", n)
		}
		for _, a := range algos {
			out[a] = n
		}
		return out, nil
	}
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(kv, "=")
		n, err := strconv.Atoi(v)
		if !ok || err != nil || n < 1 {
			return nil, fmt.Errorf("%q: want N or ALGO=N,... with N >= 1", kv)
		}
		if _, err := learn.Lookup(k); err != nil {
			return nil, err
		}
		out[k] = n
	}
	return out, nil
}

func fmtAction(a []float64) string {
	if a == nil {
		return "-"
	}
	parts := make([]string, len(a))
	for i, v := range a {
		parts[i] = strconv.FormatFloat(v, 'g', 4, 64)
	}
	return strings.Join(parts, " ")
}
