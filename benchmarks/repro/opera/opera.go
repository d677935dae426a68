// Package opera reproduces the experiments of OPERA (Yang et al., "New YARN
// Non-Exclusive Resource Management Scheme through Opportunistic Idle
// Resource Assignment", Sec. IV) on the built-in scenarios opera-mr (IV-B),
// opera-spark (IV-C) and opera-interactive (IV-E): the Fair scheduler
// against OPERA with each contention relief policy.
package opera

import (
	"fmt"
	"math"

	"yarngym/benchmarks/repro"
	"yarngym/env/sim"
	"yarngym/runner"
)

func init() {
	repro.Register(repro.Paper{Name: "opera",
		Title: "OPERA (Yang et al., New YARN Non-Exclusive Resource Management Scheme through Opportunistic Idle Resource Assignment), Sec. IV",
		Run:   Run})
}

// Variants in the order the rows report them: the baseline and OPERA with
// each relief policy (relief_policy parameter).
var variants = []struct {
	name   string
	relief string // "" for Fair
}{{"Fair", ""}, {"PRESERVE", "2"}, {"NEUTRAL", "1"}, {"AGGRESSIVE", "0"}}

// experiment is one of the paper's workloads.
type experiment struct {
	id       string // row prefix
	scenario string
	apps     []string
	// sets are extra --set values for the OPERA runs, allSets for every run.
	sets, allSets []string
	// sensitivity experiments report only the job time changes, vCores
	// and kills.
	sensitivity bool
	// The paper's reductions of the mean MapReduce job time for PRESERVE,
	// NEUTRAL and AGGRESSIVE, in percent (negative: shorter).
	mrChange [3]float64
	note     string
}

var mrApps = []string{"terasort", "wordcount", "piEstimate"}

// paperExperiments are Sec. IV's workloads as the paper ran them.
var paperExperiments = []experiment{
	{id: "IV-B", scenario: "opera-mr", apps: mrApps, mrChange: [3]float64{-19.7, -28.7, -32.4},
		note: "paper: \"relative improvements of 19.7%, 28.7%, and 32.4%, respectively\" (Fig. 5b); read as PRESERVE/NEUTRAL/AGGRESSIVE as in IV-C"},
	{id: "IV-C", scenario: "opera-spark", apps: append([]string{"pathSim"}, mrApps...), mrChange: [3]float64{-25.5, -29.3, -36.1}},
	{id: "IV-E", scenario: "opera-interactive", apps: append([]string{"pathSim"}, mrApps...), mrChange: [3]float64{-29.1, -33.9, -39.8},
		sets: []string{"reservation=2"},
		note: "OPERA with task reservation (\"task reservation enabled\"); multi-chance assumed, the paper does not say which"},
}

// experiments are the paper's, then each again as a sensitivity
// experiment with the engine's default usage profiles, whose CPU never
// exceeds the request, instead of the paper's request sizing (peak CPU 4/3
// of the request, Sec. IV-A): how far the rows follow the CPU a task uses
// beyond its request.
var experiments = append(append([]experiment(nil), paperExperiments...), usageCapped(paperExperiments)...)

func usageCapped(es []experiment) []experiment {
	var out []experiment
	for _, e := range es {
		e.id += " usage<=request"
		e.allSets = append(e.allSets, "workload.options.cpu_request_of_peak=0")
		e.sensitivity = true
		e.note = "sensitivity: usage capped at the request (not the paper's Sec. IV-A sizing)"
		out = append(out, e)
	}
	return out
}

// metrics extracts the reported numbers from one run.
func metrics(r *runner.Result) map[string]float64 {
	m := map[string]float64{}
	sum, n := map[string]float64{}, map[string]float64{}
	for _, j := range r.Sim.Jobs {
		if j.State != sim.JobDone {
			continue
		}
		d := float64(j.FinishMs-j.Spec.SubmitMs) / 1000
		sum[j.Spec.App] += d
		n[j.Spec.App]++
		if j.Spec.Framework == "mapreduce" {
			sum["mr"] += d
			n["mr"]++
		}
	}
	for k, v := range sum {
		m["job_s:"+k] = v / n[k]
	}
	var mapS, maps float64
	for _, t := range r.Sim.AllTasks() {
		if t.Kind == sim.KindMap && t.State == sim.TaskDone {
			mapS += float64(t.FinishMs-t.StartMs) / 1000
			maps++
		}
	}
	if maps > 0 {
		m["map_task_s"] = mapS / maps
	}
	s := r.Summary
	m["vcores_used"] = s.VCoresUsedMean
	m["jobs_done"] = float64(s.JobsCompleted)
	m["opportunistic"] = float64(s.OppLaunched)
	js := r.JSON()
	m["reducers_preempted"] = float64(js.ReducersPreempted)
	for k, v := range js.PolicyState {
		m[k] = v
	}
	m["long_tasks"] = m["opera_long_as_long"] + m["opera_long_as_short"]
	return m
}

// Run runs every experiment over ctx.Seeds and returns the rows. Every
// change against Fair is paired: the OPERA run and the Fair run of one seed
// give one relative change, and the rows summarise the per-seed changes
// (mean, SD, standard error, 95 % interval).
func Run(ctx repro.Context) ([]repro.Row, error) {
	var runs []repro.Run
	for _, e := range experiments {
		for _, v := range variants {
			sets := append([]string(nil), e.allSets...)
			if v.relief != "" {
				sets = append(append(sets, "policy.name=opera", "relief_policy="+v.relief), e.sets...)
			}
			runs = append(runs, repro.Run{Scenario: e.scenario, Sets: sets})
		}
	}
	// Model study: IV-B's PRESERVE run with the learned logistic classifier
	// (classifier = 1) in place of the paper's naive Bayes.
	runs = append(runs, repro.Run{Scenario: "opera-mr", Sets: []string{"policy.name=opera", "relief_policy=2", "classifier=1"}})
	vals, err := repro.Sweep(ctx, runs, metrics)
	if err != nil {
		return nil, err
	}
	var rows []repro.Row
	at := func(ei, vi int) repro.Values { return vals[ei*len(variants)+vi] }
	for ei, e := range experiments {
		rows = append(rows, experimentRows(e, func(vi int) repro.Values { return at(ei, vi) })...)
	}
	rows = append(rows, crossRows(at)...)
	lr, nb, fair := vals[len(vals)-1], at(0, 1), at(0, 0)
	exp := "IV-B opera-mr, logistic classifier (model study)"
	rows = append(rows,
		row(exp, "short tasks predicted short (Table III)", "%", 87.0, scale(lr.Stat("opera_short_accuracy"), 100),
			fmt.Sprintf("gorgonia logistic regression, online; naive Bayes %.1f%%", 100*nb.Stat("opera_short_accuracy").Mean)),
		row(exp, "long tasks predicted long (Table III)", "%", 98.1, scale(lr.Stat("opera_long_accuracy"), 100),
			fmt.Sprintf("naive Bayes %.1f%%", 100*nb.Stat("opera_long_accuracy").Mean)),
		row(exp, "MapReduce job time change, PRESERVE", "%", math.NaN(), repro.PairedChange(fair["job_s:mr"], lr["job_s:mr"]),
			fmt.Sprintf("naive Bayes %.1f%%", repro.PairedChange(fair["job_s:mr"], nb["job_s:mr"]).Mean)))
	return rows, nil
}

// change is the relative change of metric key from Fair (variant 0) to
// variant vi, seed by seed, in percent.
func change(st func(int) repro.Values, vi int, key string) repro.Stat {
	return repro.PairedChange(st(0)[key], st(vi)[key])
}

func row(exp, metric, unit string, paper float64, s repro.Stat, note string) repro.Row {
	return repro.StatRow(exp, metric, unit, paper, s, note)
}

func headline(r repro.Row) repro.Row { r.Headline = true; return r }

// joinNote appends cause to a row's note.
func joinNote(note, cause string) string {
	if note == "" {
		return cause
	}
	return note + ". " + cause
}

// The causes of the headline rows that miss, as traced (a throwaway test
// sampling the run every 150 s through runner.Options.AfterEvent: vCores
// held and CPU used by kind of container, monitor kills, BR and BT).
const (
	// Traced at 4d0247a on opera-mr, policy fair and OPERA NEUTRAL,
	// seeds 1-3.
	neutralCause = "Where NEUTRAL gains less or kills more than the paper: every kill is CPU contention, and it falls on a map placed seconds before (a probe in the monitor, opera-mr, NEUTRAL, seed 1, under Hadoop 3.3.6's Fair headroom: 2,427 kills, all CPU; the newest opportunistic map had run a median 6 s, p10 3 s, p90 15 s): a <4 vCores> map is placed once OA exceeds its request and then demands up to 5.3 cores (peak 4/3 of the request, Sec. IV-A), and as the monitor runs before the allocation on a heartbeat, the OA a kill frees takes the next map at once. NEUTRAL kills 1,514 a run in IV-B (seeds 1-10) since the scenarios run YARN v2.5's zero Fair headroom (zero_headroom, the paper's stack); 2,578 under Hadoop 3.3.6's headroom, where the reducers started at slow start 0.05 held 100-194 of the 300 vCores idle through the map phase and the remaining maps ran opportunistically on them (2,988 while the monitor read the tasks' CPU demand, not the CPU they consume over its interval, as a NodeManager's ContainersMonitor measures). Measured and not adopted under 3.3.6's headroom (the paper does not say it): OA from the NodeManager's last report (the monitor's measurement, containers launched since at their request) made 1,623 kills a run, but NEUTRAL's IV-C gain -13.1 %. Measured beside it (the 'usage<=request' rows, seeds 1-10): with every task's CPU capped at its request NEUTRAL gains -33.6 % (IV-C) and -36.4 % (IV-E), past the paper's -29.3 and -33.9 %, where at the paper's sizing it gains -16.3 and -20.2 %: the paper's figures lie between, so how far these rows fall short follows the CPU a task uses beyond its request, which NEUTRAL treats as contention. Cause (b/d): the paper states that CPU's peak (Sec. IV-A) and, through Fair's 164 vCores (Fig. 5a, the calibration of peak_sds), its mean, not how long a task stays near its peak"
	// Traced on opera-mr, OPERA PRESERVE, seed 1.
	preserveCause = "Where PRESERVE gains less: BR and BT double on a contention within the current block window (Sec. III-C's text; Alg. 1 lines 24-27 as printed double on every contention, the grow_always parameter) and halve only after a quiet BT, which grows with them. Traced (opera-mr, seeds 1-2, every 100 s): the mean BR per node is 3.8 vCores at 100 s and 6-8 from 200 s to the end (the paper's Fig. 12: 2 until ~700 s, then 7), so PRESERVE uses 185 vCores against Fair's 164 and NEUTRAL's 248 and kills 154 tasks a run (paper: 248). Growing on every contention, as printed: 5 vCores at 100 s, 182 vCores used, 131 kills, IV-C -8.2 % and IV-E -8.3 % (now -8.1 and -9.3 %). Unlike NEUTRAL's and AGGRESSIVE's, its shortfall is not only the CPU a task uses beyond its request: with every task's CPU capped at its request (the 'usage<=request' rows, seeds 1-10) PRESERVE gains -17.9 % (IV-C) and -21.6 % (IV-E), still short of the paper's -25.5 and -29.1 %. Why the blocked vCores rise within the first 100 s here, traced (opera-mr, PRESERVE, seed 1, every 3 s to 150 s, before the window rule): the first opportunistic wave puts 5-6 nodes over rho x C at 42-48 s with their guaranteed containers alone under it, and after it the guaranteed containers' own fluctuation does (of the 32 samples with a node over rho x C, 23 had one over from its guaranteed containers alone, which demand 194-232 of the 300 vCores): a node contended on consecutive monitor rounds is within its window, so a few nodes block 8-15 vCores within 100 s. Why the paper's stays at 2 until ~700 s, and why PRESERVE stays short with the CPU capped: cause not settled; the paper names oscillating CPU usage at ~700 s (Fig. 6(b)) as what set BR rising, where the model's usage fluctuates alike from a task's start to its end. (Under Hadoop 3.3.6's Fair headroom, traced on seed 1: BR 2.2 at 50 s, 7 by 650 s, then 10-13 of a node's 15 after 1,150 s.) The wasted work per node (IV-C, under 3.3.6's headroom: 1,391 s against the paper's 90 s; 214 s before the window rule, 259 s since) was mostly reducers': until a long task has finished the classifier has seen only short maps and calls a reducer short (IV-C, PRESERVE, seed 1: 121 opportunistic reducer attempts, 74 killed after a median 115 s in the shuffle)"
	// IV-E traced on opera-interactive, OPERA AGGRESSIVE, seed 4.
	aggressiveShort = "Where short of the paper: with every task's CPU capped at its request AGGRESSIVE gains -43.7 % in IV-C and in IV-E, past the paper's -36.1 and -39.8 % (the 'usage<=request' rows, seeds 1-10), and -26.1 and -27.6 % at the paper's sizing: cause (b/d), the CPU a task uses beyond its request (see the NEUTRAL row). In IV-E, the run with multi-chance reservation, 3 seeds of 10 once stalled (-16 to -19 %, the others -25 to -30 %) while GetNextTaskFromQueue passed over a job whose next task was reserved on the node: every job's next task was a reducer that neither fitted nor was eligible, so no map ran from 1,700 s to 2,090 s (seed 4) with ~14 vCores of OA free on every node, until the AMs' reducer preemption; it now passes over the stage (a task of another stage is another task of the queue, Sec. III-E 2)"
	// Measured on opera-mr and opera-spark, seed 1, with a probe at each
	// preemption: which of the AM's two preemptions fired.
	reducerPreemptNote = "RMContainerAllocator.preemptReducesIfNeeded. The scenarios run YARN v2.5's zero Fair headroom (zero_headroom; YARN-1959 computed a headroom from Hadoop 2.6.0): a MapReduce AM ramps its reducers up only within what its job holds, so under Fair no reducer sits on a container its job's maps wait for, and none is preempted (seeds 1-10). Under Hadoop 3.3.6's headroom the reducers started at slow start 0.05 held 100-194 of the 300 vCores idle through the map phase, Fair's AMs preempted 16.6 a run in IV-B (38.6 in IV-C, 58.2 in IV-E), every one the unconditional preemption of maps that waited 300 s (mapreduce.job.reducer.unconditional-preempt.delay.sec, MAPREDUCE-6302, later than the paper's YARN v2.5), and Fair reached the paper's 164 vCores at peak_sds 0.4 (2.4 since: with zero headroom and 0.4 it used 229)"
	// Traced on opera-mr, OPERA AGGRESSIVE, seeds 1-3.
	aggressiveCause = "Where larger than the paper: AGGRESSIVE kills almost no map (memory is seldom contended: 0, 0 and 4 monitor kills on seeds 1-3) and fills the vCores the running tasks leave idle to 251 vCores used (paper: up to 240), at a map task time change of +4.5 % (paper +8.2 %): more opportunistic work, not less interference. With every task's CPU capped at its request the rows are larger still (-37.3/-40.5/-39.5 %, the 'usage<=request' rows). Read as one figure per relief policy (the 'MapReduce job time change' rows: -9.1/-23.8/-36.6 % against -19.7/-28.7/-32.4 %) NEUTRAL and AGGRESSIVE hold; which reading the paper means, its \"respectively\" does not say: cause (d) for the per-application reading. Under Hadoop 3.3.6's Fair headroom (before the scenarios ran YARN v2.5's) the rows were -36.3/-41.4/-18.5 %"
)

// ivbApp is the paper's Sec. IV-B improvement of each MapReduce
// application's mean job time (Fig. 5b): "for each MapReduce application,
// with relative improvements of 19.7%, 28.7%, and 32.4%, respectively", the
// applications in Table II's order.
var ivbApp = map[string]float64{"terasort": -19.7, "wordcount": -28.7, "piEstimate": -32.4}

func experimentRows(e experiment, st func(int) repro.Values) []repro.Row {
	nan := math.NaN()
	var rows []repro.Row
	exp := e.id + " " + e.scenario
	for vi, v := range variants {
		if d := st(vi).Stat("jobs_done"); d.Mean != float64(jobsOf(e)) {
			rows = append(rows, row(exp, v.name+": jobs completed", "jobs", float64(jobsOf(e)), d, "not every job completed"))
		}
	}
	if e.sensitivity {
		return append(rows, sensitivityRows(e, exp, st)...)
	}
	// Mean job time per application under each variant (Fig. 5b, 8b, 10a).
	for _, app := range e.apps {
		for vi, v := range variants {
			rows = append(rows, row(exp, fmt.Sprintf("%s job time, %s", app, v.name), "s", nan, st(vi).Stat("job_s:"+app), ""))
		}
	}
	// Each application's job time change against Fair under each relief
	// policy, paired per seed. Sec. IV-B gives one figure per application
	// (Fig. 5b) without saying for which relief policy: it follows "OPERA
	// increases the number of actually used vCores up to 240 (e.g., with
	// the AGGRESSIVE scheme)" with "As a result", so the AGGRESSIVE rows are
	// the headline ones; the other policies' rows are judged beside the same
	// figures.
	for _, app := range e.apps {
		if app == "pathSim" {
			continue
		}
		for vi := 1; vi < len(variants); vi++ {
			paper, note := nan, ""
			if e.id == "IV-B" {
				paper = ivbApp[app]
				if vi == 1 {
					note = "paper: one figure per application (Fig. 5b), relief policy not stated"
				}
			}
			r := row(exp, fmt.Sprintf("%s job time change, %s", app, variants[vi].name), "%", paper, change(st, vi, "job_s:"+app), note)
			if e.id == "IV-B" && variants[vi].name == "AGGRESSIVE" {
				r.Note = "headline: \"As a result\" of the 240 vCores \"with the AGGRESSIVE scheme\". " + aggressiveCause
				r = headline(r)
			}
			rows = append(rows, r)
		}
	}
	// Relative change of the mean MapReduce job time against Fair: the
	// paper's figures for IV-C and IV-E (PRESERVE, NEUTRAL, AGGRESSIVE,
	// respectively); for IV-B the earlier reading of Fig. 5b's three figures
	// as the three policies, kept beside the per-application one.
	for k, vi := range []int{1, 2, 3} {
		note := e.note
		if k > 0 {
			note = ""
		}
		r := row(exp, "MapReduce job time change, "+variants[vi].name, "%", e.mrChange[k], change(st, vi, "job_s:mr"), note)
		if e.id != "IV-B" {
			r = headline(r)
			switch {
			case vi == 1:
				r.Note = joinNote(r.Note, preserveCause)
			case vi == 2:
				r.Note = joinNote(r.Note, neutralCause)
			case vi == 3:
				r.Note = joinNote(r.Note, aggressiveShort)
			}
		}
		rows = append(rows, r)
	}
	if e.apps[0] == "pathSim" {
		for vi := 1; vi < len(variants); vi++ {
			note := ""
			if vi == 1 {
				note = "paper: Spark jobs \"do not benefit\", \"slightly worse\" (no number)"
			}
			rows = append(rows, row(exp, "pathSim job time change, "+variants[vi].name, "%", nan, change(st, vi, "job_s:pathSim"), note))
		}
	}
	// vCores actually used, on average (Fig. 5a, 8a, 10b).
	for vi, v := range variants {
		paper, note := nan, ""
		if e.id == "IV-B" && vi == 0 {
			paper, note = 164, "of 300 vCores; the calibration target of the workload's peak_sds (a baseline measurement, not a result)"
		}
		if e.id == "IV-B" && v.name == "AGGRESSIVE" {
			paper, note = 240, "paper: \"up to 240\""
		}
		rows = append(rows, row(exp, "vCores used, "+v.name, "vCores", paper, st(vi).Stat("vcores_used"), note))
	}
	// Reducer attempts the MapReduce AMs killed to make room for their
	// maps: under OPERA a job's maps run in opportunistic containers while
	// its reducers hold its guaranteed share, and when the monitor has
	// killed the last of them the AM preempts reducers that may have
	// shuffled for minutes.
	for vi, v := range variants {
		note := ""
		if vi == 0 {
			note = reducerPreemptNote
		}
		rows = append(rows, row(exp, "reducer attempts preempted by their AMs, "+v.name, "tasks", nan, st(vi).Stat("reducers_preempted"), note))
	}
	if e.id == "IV-B" {
		rows = append(rows, ivbRows(exp, st)...)
	}
	if e.id == "IV-C" {
		// Fig. 9(c)(d): one node's kills and wasted work; the cluster mean per node.
		for _, x := range []struct {
			vi            int
			kills, wasted float64
			note          string
		}{{2, 36, 318, "per node: cluster total / 20"}, {1, 12, 90, ""}} {
			k, w := st(x.vi).Stat("opera_monitor_kills"), st(x.vi).Stat("opera_wasted_s")
			rows = append(rows, row(exp, "killed tasks per node, "+variants[x.vi].name, "tasks", x.kills, scale(k, 1.0/20), x.note),
				row(exp, "wasted work per node, "+variants[x.vi].name, "s", x.wasted, scale(w, 1.0/20), ""))
		}
	}
	return rows
}

// sensitivityRows are the few rows of a sensitivity experiment.
func sensitivityRows(e experiment, exp string, st func(int) repro.Values) []repro.Row {
	if e.scenario != "opera-mr" {
		// IV-C and IV-E: the headline rows' metric, the mean MapReduce job
		// time change under each relief policy, and the kills.
		rows := []repro.Row{row(exp, "vCores used, Fair", "vCores", math.NaN(), st(0).Stat("vcores_used"), e.note)}
		// No paper figure in the column, so that these rows stay out of the
		// tally: the paper's runs used its own sizing, not this one.
		for k, vi := range []int{1, 2, 3} {
			rows = append(rows, row(exp, "MapReduce job time change, "+variants[vi].name, "%", math.NaN(), change(st, vi, "job_s:mr"),
				fmt.Sprintf("paper, at its Sec. IV-A sizing: %.1f %%", e.mrChange[k])))
		}
		return append(rows, row(exp, "killed tasks, NEUTRAL", "tasks", math.NaN(), st(2).Stat("opera_monitor_kills"), ""),
			row(exp, "killed tasks, PRESERVE", "tasks", math.NaN(), st(1).Stat("opera_monitor_kills"), ""))
	}
	rows := []repro.Row{row(exp, "vCores used, Fair", "vCores", 164, st(0).Stat("vcores_used"), e.note),
		row(exp, "vCores used, AGGRESSIVE", "vCores", 240, st(3).Stat("vcores_used"), "")}
	for _, app := range e.apps {
		for vi := 1; vi < len(variants); vi++ {
			rows = append(rows, row(exp, fmt.Sprintf("%s job time change, %s", app, variants[vi].name), "%", ivbApp[app], change(st, vi, "job_s:"+app), ""))
		}
	}
	return append(rows, row(exp, "killed tasks, NEUTRAL", "tasks", 632, st(2).Stat("opera_monitor_kills"), ""),
		row(exp, "killed tasks, PRESERVE", "tasks", 248, st(1).Stat("opera_monitor_kills"), ""))
}

// ivbRows are the Sec. IV-B figures beyond job times: map task times (Fig.
// 5c), the classifier (Table III) and kills (Fig. 9a, 9b, Sec. IV-D).
func ivbRows(exp string, st func(int) repro.Values) []repro.Row {
	var rows []repro.Row
	for k, vi := range []int{1, 2, 3} {
		note := ""
		if k == 0 {
			note = "paper: \"degraded only by 2.8%, 6.8%, and 8.2%\"; order read as PRESERVE/NEUTRAL/AGGRESSIVE"
		}
		rows = append(rows, row(exp, "map task time change, "+variants[vi].name, "%", []float64{2.8, 6.8, 8.2}[k], change(st, vi, "map_task_s"), note))
	}
	// Table III: the paper does not say which relief policy ran; PRESERVE,
	// OPERA's default here, is the headline, the others beside it.
	for vi := 1; vi < len(variants); vi++ {
		p := st(vi)
		name := variants[vi].name
		short := row(exp, "short tasks predicted short (Table III), "+name, "%", 87.0, scale(p.Stat("opera_short_accuracy"), 100), "")
		long := row(exp, "long tasks predicted long (Table III), "+name, "%", 98.1, scale(p.Stat("opera_long_accuracy"), 100), "")
		if vi == 1 {
			short.Note = "the paper does not say which relief policy ran: PRESERVE (OPERA's default here) is the headline"
			short, long = headline(short), headline(long)
		}
		rows = append(rows, short, long,
			row(exp, "long tasks (Table III), "+name, "tasks", 107, p.Stat("long_tasks"), "ran >= 60 s; paper counts 2,884 tasks (with AMs?), here 2,878 without AMs. Where more than the paper: here every reducer runs 60 s or more (Fair, seed 1: 302 of 302), where the paper's 107 long tasks leave about 200 of its 302 reducers short; with terasort's reduce work at 30 or 45 s in place of the assumed 90 s there are 161-177 (PRESERVE, seeds 1-2), the rest reducers started at slow start 0.05 that wait for the maps, and the headline tally stays 4 of 12 (measured, not adopted: the paper gives no task length)"),
			row(exp, "long tasks predicted short (Table III), "+name, "tasks", 2, p.Stat("opera_long_as_short"), ""))
	}
	for _, x := range []struct {
		vi            int
		kills, wasted float64
	}{{2, 632, 4575}, {1, 248, 2400}} {
		rows = append(rows, row(exp, "killed tasks, "+variants[x.vi].name, "tasks", x.kills, st(x.vi).Stat("opera_monitor_kills"), "Fig. 9(a)(b), whole cluster"),
			row(exp, "wasted work, "+variants[x.vi].name, "s", x.wasted, st(x.vi).Stat("opera_wasted_s"), ""))
	}
	rows = append(rows, headline(row(exp, "killed tasks, PRESERVE vs NEUTRAL", "%", repro.Change(632, 248),
		repro.PairedChange(st(2)["opera_monitor_kills"], st(1)["opera_monitor_kills"]), "Sec. IV-D: 632 -> 248. "+neutralCause)))
	return rows
}

// crossRows compare experiments: Sec. IV-E against IV-C under Fair.
func crossRows(at func(ei, vi int) repro.Values) []repro.Row {
	c, e := at(1, 0), at(2, 0) // IV-C and IV-E under Fair
	return []repro.Row{
		row("IV-E vs IV-C", "pathSim job time, Fair, IV-E minus IV-C", "s", 300,
			repro.PairedDiff(c["job_s:pathSim"], e["job_s:pathSim"]), "paper: \"increased by about 300 seconds\""),
		row("IV-E vs IV-C", "MapReduce job time change, Fair, IV-E against IV-C", "%", math.NaN(),
			repro.PairedChange(c["job_s:mr"], e["job_s:mr"]), "paper: longer under Fair with the sleeps (no number)"),
	}
}

func jobsOf(e experiment) int {
	if e.apps[0] == "pathSim" {
		return 8
	}
	return 6
}

func scale(s repro.Stat, k float64) repro.Stat {
	v := make([]float64, len(s.Values))
	for i, x := range s.Values {
		v[i] = x * k
	}
	return repro.Stat{Mean: s.Mean * k, SD: s.SD * k, N: s.N, SE: s.SE * k, Lo: s.Lo * k, Hi: s.Hi * k, Values: v}
}
