package ikayak

import (
	"testing"

	"yarngym/env/sim"
	"yarngym/internal/simtest"
)

func res(v, m int64) sim.Res { return sim.Res{VCores: v, MemMB: m} }

func durs(n int, s float64) []sim.Ms {
	d := make([]sim.Ms, n)
	for i := range d {
		d[i] = sim.Ms(s * 1000)
	}
	return d
}

// mrSpec is a MapReduce job without an AM: maps then reducers.
func mrSpec(name string, submitS float64, maps int, mapS float64, reduces int, redS float64, req sim.Res, slowStart float64) sim.JobSpec {
	j := sim.JobSpec{Name: name, App: name, Framework: "mapreduce", SubmitMs: sim.Ms(submitS * 1000),
		Stages: []sim.StageSpec{{Name: "map", Kind: sim.KindMap, Req: req, Profile: sim.MapProfile, DurationsMs: durs(maps, mapS)}}}
	if reduces > 0 {
		j.Stages = append(j.Stages, sim.StageSpec{Name: "reduce", Kind: sim.KindReduce, Req: req, Profile: sim.ReduceProfile,
			SlowStart: slowStart, DurationsMs: durs(reduces, redS)})
	}
	return j
}

// sparkSpec is a Spark job without an AM.
func sparkSpec(name string, submitS float64, executors int, s float64, req sim.Res) sim.JobSpec {
	return sim.JobSpec{Name: name, App: name, Framework: "spark", SubmitMs: sim.Ms(submitS * 1000),
		Stages: []sim.StageSpec{{Name: "executors", Kind: sim.KindExecutor, Req: req, Profile: sim.ExecutorProfile, DurationsMs: durs(executors, s)}}}
}

// run runs cfg with the invariants checked (and watch called) after every
// event, and requires every job to complete.
func run(t *testing.T, cfg sim.Config, watch func(*sim.Sim)) *sim.Sim {
	t.Helper()
	if cfg.Model.HeartbeatMs == 0 {
		cfg.Model.HeartbeatMs = 1000
	}
	cfg.KeepTasks = true // the tests read ended jobs' tasks
	cfg.AfterEvent = simtest.Invariants(t, func(s *sim.Sim) {
		if watch != nil {
			watch(s)
		}
	})
	s, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if sum := s.Run(); sum.JobsCompleted != len(cfg.Jobs) {
		t.Fatalf("%d of %d jobs completed: %+v", sum.JobsCompleted, len(cfg.Jobs), sum)
	}
	return s
}
