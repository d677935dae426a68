package sim_test

import (
	"testing"

	"yarngym/env/sim"
	"yarngym/internal/simtest"
	"yarngym/policies/base"
	"yarngym/policies/fifo"
)

func res(v, m int64) sim.Res { return sim.Res{VCores: v, MemMB: m} }

// flat returns a one-phase absolute profile: cpu cores, mem MB, io MB/s.
func flat(cpu, mem, io float64) *sim.Profile {
	return &sim.Profile{Name: "t", Absolute: true, Phases: []sim.Phase{{Name: "run", Frac: 1, CPU: cpu, Mem: mem, IOMBps: io}}}
}

// job is a job with one stage of tasks of equal duration and no AM.
func job(name string, submitS float64, n int, req sim.Res, durS float64, p *sim.Profile) sim.JobSpec {
	d := make([]sim.Ms, n)
	for i := range d {
		d[i] = sim.Ms(durS * 1000)
	}
	return sim.JobSpec{Name: name, SubmitMs: sim.Ms(submitS * 1000), Stages: []sim.StageSpec{{Name: "s", Kind: sim.KindGeneric, Req: req, Profile: p, DurationsMs: d}}}
}

func fifoPolicy(t testing.TB) *sim.Policy {
	p, err := fifo.New(base.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// run runs cfg with invariants checked after every event, keeping every
// task for the test to inspect (TestRetire runs without).
func run(t testing.TB, cfg sim.Config) *sim.Sim {
	t.Helper()
	if cfg.Policy == nil {
		cfg.Policy = fifoPolicy(t)
	}
	if cfg.Model.HeartbeatMs == 0 {
		cfg.Model.HeartbeatMs = 100
	}
	cfg.RecordTasks = true
	return simtest.Run(t, cfg, simtest.Unfinished(), simtest.KeepTasks())
}

// finishS returns each task's finish time in seconds, in task order.
func finishS(s *sim.Sim) []float64 {
	var out []float64
	for _, tk := range s.AllTasks() {
		if tk.Kind != sim.KindAM {
			out = append(out, float64(tk.FinishMs)/1000)
		}
	}
	return out
}
