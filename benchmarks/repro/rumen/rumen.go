// Package rumen sets the replay of Apache Hadoop SLS's sample Rumen trace
// (the built-in scenario sls-2jobs: two TeraGen jobs of 96 maps recorded on
// a 4-node YARN cluster) beside what the trace recorded: each job's
// completion time, when its first map started and its last map ended, its
// mean map run time, and how many maps ran on the host they were recorded
// on. The "paper" column is the trace's recorded value: the jobs ran on a
// real cluster, so the rows say how close the model comes to it.
package rumen

import (
	"fmt"
	"math"

	"yarngym/benchmarks/repro"
	"yarngym/env/scenario"
	"yarngym/env/sim"
	"yarngym/env/workload"
	"yarngym/runner"
)

func init() {
	repro.Register(repro.Paper{Name: "rumen",
		Title: "Hadoop SLS sample Rumen trace (2 TeraGen jobs, 4 nodes): the replay beside the recorded times",
		Run:   Run})
}

// Scenario is the replay.
const Scenario = "sls-2jobs"

// Recorded reads the trace the scenario replays, as the loader parses it.
func Recorded() (*workload.RumenTrace, error) {
	sc, err := scenario.Load(Scenario, nil)
	if err != nil {
		return nil, err
	}
	o, ok := sc.Options.(*workload.RumenOptions)
	if !ok {
		return nil, fmt.Errorf("%s: not a rumen scenario", Scenario)
	}
	path := sc.TracePath()
	f, err := workload.OpenTrace(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return workload.ParseRumen(f, path, o)
}

// metrics reads, per job i (in submission order), its completion, its first
// map's start and last map's end (s after its submission), its mean map run
// time, and the share of its maps that ran on their hinted node.
func metrics(r *runner.Result) map[string]float64 {
	m := map[string]float64{}
	for i, j := range r.Sim.Jobs {
		if j.State != sim.JobDone {
			m[fmt.Sprintf("unfinished%d", i)] = 1
			continue
		}
		sub := j.Spec.SubmitMs
		m[fmt.Sprintf("completion%d", i)] = float64(j.FinishMs-sub) / 1000
		first, last := sim.Ms(math.MaxInt64), sim.Ms(0)
		var sum, cnt, onHost, hinted float64
		for _, st := range j.Stages {
			if st.Spec.Kind != sim.KindMap {
				continue
			}
			for k, t := range st.Tasks {
				// A job history's attempt starts with its process, when the
				// AM has picked the container up (RunMs), not at allocation.
				first, last = min(first, t.RunMs()), max(last, t.FinishMs)
				sum += float64(t.FinishMs - t.RunMs())
				cnt++
				if st.Spec.Hosts != nil && st.Spec.Hosts[k] >= 0 {
					hinted++
					if t.Locality == sim.NodeLocal { // its one replica is on the hinted node
						onHost++
					}
				}
			}
		}
		if cnt > 0 {
			m[fmt.Sprintf("first_map%d", i)] = float64(first-sub) / 1000
			m[fmt.Sprintf("last_map%d", i)] = float64(last-sub) / 1000
			m[fmt.Sprintf("map_s%d", i)] = sum / cnt / 1000
			m[fmt.Sprintf("commit%d", i)] = float64(j.FinishMs-last) / 1000
		}
		if hinted > 0 {
			m[fmt.Sprintf("on_host%d", i)] = 100 * onHost / hinted
		}
	}
	return m
}

// Run replays the trace over ctx.Seeds and sets each job's figures beside
// the recorded ones.
func Run(ctx repro.Context) ([]repro.Row, error) {
	tr, err := Recorded()
	if err != nil {
		return nil, err
	}
	vals, err := repro.Sweep(ctx, []repro.Run{{Scenario: Scenario}}, metrics)
	if err != nil {
		return nil, err
	}
	v := vals[0]
	var rows []repro.Row
	for i, j := range tr.Jobs {
		if _, bad := v[fmt.Sprintf("unfinished%d", i)]; bad {
			return nil, fmt.Errorf("%s: job %s did not finish", Scenario, j.ID)
		}
		exp := fmt.Sprintf("job %d (%s)", i+1, j.ID)
		first, last := sim.Ms(math.MaxInt64), sim.Ms(0)
		sum := 0.0
		for _, t := range j.Maps {
			first, last = min(first, t.StartMs), max(last, t.StartMs+t.DurMs)
			sum += float64(t.DurMs)
		}
		sec := func(ms sim.Ms) float64 { return float64(ms) / 1000 }
		r := repro.StatRow(exp, "completion (submission to finish)", "s", sec(j.FinishMs-j.SubmitMs), v.Stat(fmt.Sprintf("completion%d", i)),
			"recorded: the job's finishTime; simulated: its end, after its commit (replayed as recorded)")
		r.Headline = true
		rows = append(rows, r,
			repro.StatRow(exp, "first map start", "s", sec(first-j.SubmitMs), v.Stat(fmt.Sprintf("first_map%d", i)),
				"after submission: the scenario's AM start-up is this recorded figure (an input, not a result)"),
			repro.StatRow(exp, "last map end", "s", sec(last-j.SubmitMs), v.Stat(fmt.Sprintf("last_map%d", i)), "after submission"),
			repro.StatRow(exp, "mean map run time", "s", sum/float64(len(j.Maps))/1000, v.Stat(fmt.Sprintf("map_s%d", i)),
				"replayed durations, stretched only where the simulated node is overcommitted"),
			repro.StatRow(exp, "maps on their recorded host", "%", 100, v.Stat(fmt.Sprintf("on_host%d", i)), "host hints"),
			repro.StatRow(exp, "job commit after the last map", "s", sec(j.FinishMs-last), v.Stat(fmt.Sprintf("commit%d", i)),
				"an input: the recorded commit, its AM holding its container (sim.JobSpec.CommitMs)"))
	}
	return rows, nil
}
