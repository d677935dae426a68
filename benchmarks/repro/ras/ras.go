// Package ras reproduces RAS (Polo et al., Middleware 2011) on the Gridmix
// workload of its Sec. 4: Experiment 1 (relaxed goals: the makespan of the
// Fair Scheduler with 1 to 8 map slots per TaskTracker against RAS, Fig. 3;
// RAS's task concurrency; Table 1's Exp. 1 completion times) and Experiment
// 2 (tight goals: Table 1's Exp. 2 completion times against the goals, and
// RAS's last completion against the best Fair setting, Sec. 4.3).
package ras

import (
	"fmt"
	"math"

	"yarngym/benchmarks/repro"
	"yarngym/env/sim"
	"yarngym/runner"
)

func init() {
	repro.Register(repro.Paper{Name: "ras", Title: "RAS (Polo et al.): Fig. 3, Table 1 (Exp. 1 and 2), Sec. 4.2-4.3", Run: Run})
}

// Jobs are Table 1's labels in workload order (env/workload "ras").
var Jobs = []string{"J1", "J2", "J3", "J4", "J5", "J6", "J7", "J8", "J9"}

// Table 1: completion times (absolute s) in Exp. 1 and Exp. 2 and the Exp. 2
// goals, in Jobs order.
var (
	Exp1Done = []float64{3113, 648, 1252, 608, 623, 3406, 4536, 3670, 4100}
	Exp2Done = []float64{3018, 896, 802, 550, 560, 2589, 4614, 3365, 4141}
	Exp2Goal = []float64{3000, 850, 1250, 1100, 950, 2600, 6000, 3400, 4250}
)

// Paper figures (Sec. 4.2-4.3).
const (
	FairBestSlots    = 4    // "the best static configuration uses 4 concurrent map tasks per TaskTracker"
	FairBestMakespan = 4781 // Sec. 4.3: "4,781s compared to 4,614s"
	RASExp1Makespan  = 4536 // Table 1: Exp. 1's last completion (J7)
	RASExp2Makespan  = 4614 // Sec. 4.3
	GainOverBest     = 5    // Sec. 4.2: "an improvement that varies between 5% and 100%"
	GainOverWorst    = 100
	RASTasksPerTT    = 3.4 // Sec. 4.2: "the average task concurrency level in RAS was 3.4 tasks per TaskTracker"
)

// MaxSlots is the largest Fair setting swept (Sec. 4.2: "from 1 to 8").
const MaxSlots = 8

// Options size a reproduction.
type Options struct {
	Slots []int    // Fair's map slots per TaskTracker
	Sets  []string // extra overrides for every run (model studies)
}

// DefaultOptions are what `yarngym repro ras` runs.
func DefaultOptions() Options {
	var s []int
	for n := 1; n <= MaxSlots; n++ {
		s = append(s, n)
	}
	return Options{Slots: s}
}

// Run runs the default reproduction.
func Run(ctx repro.Context) ([]repro.Row, error) { return RunWith(ctx, DefaultOptions()) }

// metrics reads a run: makespan, each job's completion (absolute s), goals
// met, and the mean tasks per TaskTracker over the makespan.
func metrics(r *runner.Result) map[string]float64 {
	s := r.Sim
	m := map[string]float64{"makespan": float64(r.Summary.MakespanMs) / 1000}
	met := 0.0
	for i, j := range s.Jobs {
		if i < len(Jobs) {
			m["done_"+Jobs[i]] = float64(j.FinishMs) / 1000
		}
		if j.State == sim.JobDone && j.Spec.GoalMs > 0 && j.FinishMs-j.Spec.SubmitMs <= j.Spec.GoalMs {
			met++
		}
	}
	m["goals_met"] = met
	busy := 0.0
	for _, t := range s.AllTasks() {
		if t.Kind != sim.KindAM && t.State == sim.TaskDone {
			busy += float64(t.FinishMs - t.StartMs)
		}
	}
	if r.Summary.MakespanMs > 0 {
		m["tasks_per_tt"] = busy / float64(r.Summary.MakespanMs) / float64(len(s.Nodes))
	}
	return m
}

// RunWith runs a reproduction sized by o.
func RunWith(ctx repro.Context, o Options) ([]repro.Row, error) {
	var runs []repro.Run
	for _, n := range o.Slots {
		sets := append([]string{fmt.Sprintf("cluster.nodes.0.vcores=%d", n)}, o.Sets...)
		runs = append(runs, repro.Run{Scenario: "ras", Sets: sets})
	}
	exp1 := len(runs)
	runs = append(runs, repro.Run{Scenario: "ras-adaptive", Sets: o.Sets})
	exp2 := len(runs)
	runs = append(runs, repro.Run{Scenario: "ras-adaptive", Sets: append([]string{"workload.options.goals=tight"}, o.Sets...)})
	// Sensitivity: s_req without the reduce phase (the map phase alone
	// must end by the goal), the earlier reading of Sec. 3.2.
	exp2MapOnly := len(runs)
	runs = append(runs, repro.Run{Scenario: "ras-adaptive", Sets: append([]string{"workload.options.goals=tight", "reduce_tail=0"}, o.Sets...)})
	vals, err := repro.Sweep(ctx, runs, metrics)
	if err != nil {
		return nil, err
	}
	st := make([]map[string]repro.Stat, len(vals))
	for i, v := range vals {
		st[i] = map[string]repro.Stat{}
		for k := range v {
			st[i][k] = v.Stat(k)
		}
	}
	var rows []repro.Row
	row := func(exp, metric, unit string, paper float64, s repro.Stat, note string) {
		rows = append(rows, repro.StatRow(exp, metric, unit, paper, s, note))
	}
	headline := func() { rows[len(rows)-1].Headline = true }
	nan := math.NaN()

	// Experiment 1, Fig. 3: Fair's makespan per map-slot setting, and RAS.
	best, worst := -1, -1
	for i, n := range o.Slots {
		paper, note := nan, "Fig. 3 (no values printed; y-axis from 4,000 s)"
		if n == FairBestSlots {
			paper, note = FairBestMakespan, "Sec. 4.3: Fair's best setting"
		}
		row("exp1", fmt.Sprintf("Fair makespan, %d map slots/TT", n), "s", paper, st[i]["makespan"], note)
		if best < 0 || st[i]["makespan"].Mean < st[best]["makespan"].Mean {
			best = i
		}
		if worst < 0 || st[i]["makespan"].Mean > st[worst]["makespan"].Mean {
			worst = i
		}
	}
	ras1 := st[exp1]
	row("exp1", "RAS makespan", "s", RASExp1Makespan, ras1["makespan"], "Table 1: the paper's last completion is J7; here it is the last job to finish, whichever it is")
	if best >= 0 {
		rows = append(rows, repro.Row{Experiment: "exp1", Metric: "best Fair setting", Unit: "map slots/TT", Paper: FairBestSlots,
			Simulated: float64(o.Slots[best]), Note: "lowest mean makespan over the swept settings"})
		row("exp1", "RAS gain over best Fair", "%", GainOverBest, gain(vals[best]["makespan"], vals[exp1]["makespan"]),
			"(Fair - RAS) / RAS per seed, against the setting best on average; negative: RAS slower. Cause (d): a 5 % gap between two makespans each within 2-6 % of the paper's, and the gap follows the memory-overcommit model the paper does not give: 4-slot Fair is 4,098 s at swap_exponent 1 (gain -0.2 %) and 4,691 s at the calibrated 2.25 (gain 10 %), RAS moving little (4,106 / 4,255 s)")
		headline()
		row("exp1", "RAS gain over worst Fair", "%", GainOverWorst, gain(vals[worst]["makespan"], vals[exp1]["makespan"]),
			fmt.Sprintf("worst: %d map slots/TT. Cause (d): at 1 slot Fair is bound by the map work, 212,203 map-s / 20 slots = 10,610 s, from Table 1's lengths in isolation taken at 2 map slots (assumed); 100 %% needs <= 2 x 4,536 s. Taking them at 1 slot (ref_slots=1) halves the work but RAS then ends at 3,930 s with J7 at 2,208 s (paper 4,536; measured at swap_exponent 1): no reading gives both. Fig. 3 prints no values", o.Slots[worst]))
		headline()
	}
	row("exp1", "RAS tasks per TaskTracker", "tasks", RASTasksPerTT, ras1["tasks_per_tt"], "maps and reducers running, mean over the makespan")
	for i, n := range o.Slots {
		if n == FairBestSlots {
			row("exp1", "Fair tasks per TaskTracker, 4 map slots", "tasks", nan, st[i]["tasks_per_tt"], "Sec. 4.2: RAS runs fewer tasks than Fair")
		}
	}
	for k, name := range Jobs {
		row("exp1", "RAS completion "+name, "s", Exp1Done[k], ras1["done_"+name], "Table 1, Exp. 1 (absolute time)"+exp1Cause[name])
	}

	// Experiment 2, Sec. 4.3 and Table 1: tight goals.
	ras2 := st[exp2]
	row("exp2", "RAS makespan", "s", RASExp2Makespan, ras2["makespan"], "Sec. 4.3")
	if best >= 0 {
		row("exp2", "best Fair makespan", "s", FairBestMakespan, st[best]["makespan"], fmt.Sprintf("%d map slots/TT (goals do not steer Fair)", o.Slots[best]))
		d := repro.PairedDiff(vals[exp2]["makespan"], vals[best]["makespan"])
		row("exp2", "best Fair minus RAS", "s", FairBestMakespan-RASExp2Makespan, d,
			"Sec. 4.3: RAS ahead by 167 s; per seed. Cause (d), as for the Exp. 1 gain: a gap of 3.5 % between two makespans, Fair's within 2 % of the paper's and RAS's within 15 %, "+
				"and the gap follows the memory-overcommit model the paper does not give: at swap_exponent 1 it is 174.9 +- 30.6 s (s.e., seeds 1-10: "+
				"Fair 4 slots 4,098 s, RAS 3,923 s), at the calibrated 2.25 the figure here: Fair swaps (36,000-40,000 node-s a run, seeds 1-3), RAS, which plans memory (Eq. 6), "+
				"little (1,436 node-s in Exp. 2, 7,477 in Exp. 1, means of seeds 1-10). This gap and the Exp. 1 gain move together: at exponents 1, 1.5, 2 and "+
				"2.25 (Fair's best still 4 slots) the gain is -0.2, 4.4, 7.9 and 10.3 % and the gap 175, 422, 630 and 761 s (seeds 1-10), so where the gain is "+
				"the paper's 5 % the gap is ~450 s: no exponent gives both of the paper's figures. "+
				"The last job, J7, ends ~400 s before the paper's 4,614 s (its goal is 6,000 s), and before its own Exp. 1 end (4,217 s), where the "+
				"paper's J7 ends 78 s after it: the tight goals end J3-J5 at their goals, 700-1,200 s before their Exp. 1 ends (the J3, J4 rows), and "+
				"the Exp. 1 run, with J1's reduce phase later, swaps five times as long")
		headline()
		row("exp2 s_req maps only", "best Fair minus RAS", "s", FairBestMakespan-RASExp2Makespan, repro.PairedDiff(vals[exp2MapOnly]["makespan"], vals[best]["makespan"]),
			"sensitivity, reduce_tail = 0: the maps alone must end by the goal, so Sort J1 (64 % of its length after its last map) ends last, far past its 3,000 s goal")
	}
	row("exp2", "RAS goals met", "jobs", paperGoalsMet(), ras2["goals_met"],
		"of 9 (paper: J1 and J2 miss by 18 s and 46 s). Cause (b/c): the Select jobs J3-J5 end at their goals here (see their rows), 250-640 s after the paper's: max-min utility (Eq. 4) gives a job at utility 0 nothing more while J1 is below its goal, and the paper's estimator ([6], not given) must have asked for more")
	headline()
	row("exp2 s_req maps only", "RAS goals met", "jobs", paperGoalsMet(), st[exp2MapOnly]["goals_met"], "sensitivity, reduce_tail = 0")
	for i, n := range o.Slots {
		if n == FairBestSlots {
			row("exp2", "Fair goals met, 4 map slots", "jobs", nan, st[i]["goals_met"], "of 9, Table 1 goals")
		}
	}
	for k, name := range Jobs {
		row("exp2", "RAS completion "+name, "s", Exp2Done[k], ras2["done_"+name], fmt.Sprintf("Table 1, Exp. 2; goal %.0f s", Exp2Goal[k]))
	}
	return rows, nil
}

// exp1Cause is the measured cause of an Exp. 1 completion row that misses
// Table 1 (seed 1 traces and 10-seed means of ras-adaptive).
var exp1Cause = map[string]string{
	"J1": ". Cause (b/d): its maps end at ~2,330 s (507-583 of 1,440 left at 1,100 s; Sec. 4.2: \"very few remaining\"), then its 20 reducers take 1,770-2,130 s (alone: 1,650 s; J1 alone 2,554 s, Table 1 2,500). Each new job takes the free map slots until its first map ends (4 Combine maps/node fill the CPU, disk 42 % planned) and max-min then shares maps by s_pend; by 1,100 s J1-J5's maps need ~1,100 s of the whole cluster's disk at Table 2's shares, so the paper's timeline needs ~100 % disk use",
	"J2": ". Cause (d): before its first map ends (~128 s) J2 needs every pending map and takes 78 slots, its whole map phase in one wave (paper: 548 s, longer than its 500 s alone). The estimator's behaviour before a job's first task ends is in [6], not given; Fig. 5's reading (s_req <= 1 at once, utility > 0 after one task) measures J2 2,957 s, J3 1,869, J4 2,365, J5 1,666",
	"J3": ". Cause (d): after its first maps, max-min (Eq. 4) with lax goals shares map slots by s_pend: J3 runs 3-4 maps from 300 s to its end (seed-1 trace); 1,869 s under Fig. 5's reading (see J2)",
	"J4": ". Cause (d): Table 1 has J4 (25 GB) faster alone (280 s) than J3 (10 GB, 400 s) against Sec. 3.6's one map length per application, and ending 258 s after submission with J1 and J3 running: ~68 Select maps at once (400 x 44 s / 258 s, 68 % of the disk). Under Eq. 2/4 with lax goals J4 gets its s_pend share: ~10 maps from 450 s to 2,000 s; per-instance lengths (J4 maps 27 s) 2,171 s, Fig. 5's reading 2,365 s",
}

// gain is (fair - ras) / ras in percent, the paper's "improvement", seed
// by seed.
func gain(fair, ras []float64) repro.Stat {
	per := make([]float64, len(ras))
	for i := range ras {
		per[i] = (fair[i] - ras[i]) / ras[i] * 100
	}
	return repro.Summarize(per)
}

func paperGoalsMet() float64 {
	k := 0.0
	for i := range Exp2Done {
		if Exp2Done[i] <= Exp2Goal[i] {
			k++
		}
	}
	return k
}
