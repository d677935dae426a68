package policies_test

import (
	"math"
	"testing"

	"yarngym/env/sim"
	"yarngym/internal/simtest"
	"yarngym/policies"
	"yarngym/policies/base"
)

func res(v, m int64) sim.Res { return sim.Res{VCores: v, MemMB: m} }

var flat = &sim.Profile{Name: "t", Absolute: true, Phases: []sim.Phase{{Name: "run", Frac: 1, CPU: 0.5, Mem: 10}}}

func job(name, queue string, submitS float64, n int, req sim.Res, durS float64) sim.JobSpec {
	d := make([]sim.Ms, n)
	for i := range d {
		d[i] = sim.Ms(durS * 1000)
	}
	return sim.JobSpec{Name: name, Queue: queue, SubmitMs: sim.Ms(submitS * 1000),
		Stages: []sim.StageSpec{{Name: "s", Kind: sim.KindGeneric, Req: req, Profile: flat, DurationsMs: d}}}
}

func newPolicy(t *testing.T, name string, sp base.Spec, params map[string]float64) *sim.Policy {
	t.Helper()
	p, err := policies.New(name, sp)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range params {
		if err := p.Params.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// runWatch runs with invariants checked and watch called after every event.
func runWatch(t *testing.T, cfg sim.Config, watch func(*sim.Sim)) *sim.Sim {
	t.Helper()
	if cfg.Model.HeartbeatMs == 0 {
		cfg.Model.HeartbeatMs = 100
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

// TestFairShares: Fair splits a contended cluster between two jobs of one
// queue equally, and between queues by weight.
func TestFairShares(t *testing.T) {
	cases := []struct {
		name   string
		queues []base.Queue
		qa, qb string
		want   float64 // a's share of the containers while both run
	}{
		{"one queue, equal jobs", nil, "", "", 0.5},
		{"weights 3:1", []base.Queue{{Name: "a", Weight: 3}, {Name: "b", Weight: 1}}, "a", "b", 0.75},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			nodes := []sim.NodeSpec{{Name: "n0", Cap: res(8, 8192)}, {Name: "n1", Cap: res(8, 8192)}}
			jobs := []sim.JobSpec{job("a", c.qa, 0, 400, res(1, 512), 5), job("b", c.qb, 0.05, 400, res(1, 512), 5)}
			shares, ok := meanShares(t, sim.Config{Nodes: nodes, Jobs: jobs, Policy: newPolicy(t, "fair", base.Spec{Queues: c.queues}, nil)}, 16)
			if !ok {
				t.Fatal("never saw both jobs running on a full cluster")
			}
			if got := shares[0]; math.Abs(got-c.want) > 0.04 {
				t.Fatalf("job a held %.3f of the containers, want %.2f", got, c.want)
			}
		})
	}
}

// meanShares runs cfg and returns each job's mean share of the running
// containers over the instants between 20 and 100 s when they hold all
// full of them (the cluster's slots), and whether there was one.
func meanShares(t *testing.T, cfg sim.Config, full int) ([]float64, bool) {
	t.Helper()
	sum := make([]float64, len(cfg.Jobs))
	samples := 0
	runWatch(t, cfg, func(s *sim.Sim) {
		n := 0
		for _, j := range s.Jobs {
			n += j.Running
		}
		if s.Now() <= 20000 || s.Now() >= 100000 || n != full {
			return
		}
		for i, j := range s.Jobs {
			sum[i] += float64(j.Running) / float64(full)
		}
		samples++
	})
	for i := range sum {
		sum[i] /= float64(max(samples, 1))
	}
	return sum, samples > 0
}

// TestFairMaxAMShare: the AMs of a queue hold at most maxAMShare of its fair
// share in memory and of the cluster's unallocated vCores (the queue's fair
// share has none: FSLeafQueue.computeMaxAMResource), so on a 10-vCore node
// whose AMs and tasks take vCores as they start, 0.5 lets 4 AMs run at once
// (a fifth would need ceil(0.5 x 10 - 4 - its job's task) >= 5), 0.25 two
// (switched off they can take every vCore and deadlock: terasort-burst).
func TestFairMaxAMShare(t *testing.T) {
	for _, c := range []struct {
		share   float64
		maxAMs  int
		wantAll bool
	}{{0.5, 4, true}, {0.25, 2, true}} {
		worst := 0
		var jobs []sim.JobSpec
		for i := 0; i < 12; i++ {
			j := job("j", "", 0, 2, res(1, 256), 5)
			j.AM = res(1, 256)
			jobs = append(jobs, j)
		}
		runWatch(t, sim.Config{Nodes: []sim.NodeSpec{{Name: "n", Cap: res(10, 10240)}}, Jobs: jobs,
			Policy: newPolicy(t, "fair", base.Spec{}, map[string]float64{"max_am_share": c.share})},
			func(s *sim.Sim) {
				n := 0
				for _, j := range s.Jobs {
					if j.AM.State == sim.TaskRunning {
						n++
					}
				}
				worst = max(worst, n)
			})
		if worst != c.maxAMs {
			t.Fatalf("max_am_share %v: up to %d AMs ran at once, want %d", c.share, worst, c.maxAMs)
		}
	}
}

// TestCapacityGuarantees: queues get their capacity when both are busy; a
// queue alone grows beyond its capacity only as far as its one user's limit
// lets it (user-limit-factor 1: the capacity plus one container; 2: up to
// its max-capacity, never past it).
func TestCapacityGuarantees(t *testing.T) {
	for _, c := range []struct {
		factor float64
		bMax   int
	}{{1, 5}, {2, 8}, {4, 8}} {
		capacityGuarantees(t, c.factor, c.bMax)
	}
}

func capacityGuarantees(t *testing.T, factor float64, want int) {
	queues := []base.Queue{{Name: "a", Capacity: 0.75, MaxCapacity: 1}, {Name: "b", Capacity: 0.25, MaxCapacity: 0.5}}
	nodes := []sim.NodeSpec{{Name: "n0", Cap: res(8, 8192)}, {Name: "n1", Cap: res(8, 8192)}}
	// Both busy from 0 s; a alone from 200 s on (b's job is short), b alone later.
	// Containers of 1 GB: memory, which the CapacityScheduler compares,
	// allows 8 per node, as the vCores do.
	jobs := []sim.JobSpec{job("a", "a", 0, 300, res(1, 1024), 5), job("b", "b", 0, 200, res(1, 1024), 5), job("b-alone", "b", 200, 200, res(1, 1024), 5)}
	var share float64
	var samples, bMax int
	runWatch(t, sim.Config{Nodes: nodes, Jobs: jobs, Policy: newPolicy(t, "capacity", base.Spec{Queues: queues},
		map[string]float64{"locality_delay": 0, "user_limit_factor": factor})},
		func(s *sim.Sim) {
			a, b := s.Jobs[0], s.Jobs[1]
			if a.Running+b.Running == 16 && s.HasPending(a) && s.HasPending(b) {
				share += float64(a.Running) / 16
				samples++
			}
			if s.Jobs[0].State == sim.JobDone {
				bMax = max(bMax, s.Jobs[2].Running)
			}
		})
	if samples == 0 {
		t.Fatal("never saw both queues busy")
	}
	if got := share / float64(samples); math.Abs(got-0.75) > 0.07 {
		t.Fatalf("user-limit-factor %v: queue a held %.3f of the cluster while both were busy, want 0.75", factor, got)
	}
	if bMax != want {
		t.Fatalf("user-limit-factor %v: queue b alone ran %d containers, want %d", factor, bMax, want)
	}
}

// TestFIFOStrictVersusBackfill on DRESS Fig. 1: strict first-come-first-serve
// gives waits 0, 9, 28, 27 s; YARN's FifoScheduler (backfill) lets job 3 in
// beside job 1 and job 4 in at 10 s, starving job 2 until 20 s (waits 0, 19,
// 0, 7 s). Reference: DRESS Sec. I.
func TestFIFOStrictVersusBackfill(t *testing.T) {
	jobs := []sim.JobSpec{job("1", "", 0, 1, res(3, 3000), 10), job("2", "", 1, 1, res(4, 4000), 20), job("3", "", 2, 1, res(3, 3000), 10), job("4", "", 3, 1, res(3, 3000), 10)}
	for _, c := range []struct {
		backfill float64
		waits    []sim.Ms
	}{{0, []sim.Ms{0, 9000, 28000, 27000}}, {1, []sim.Ms{0, 19000, 0, 7000}}} {
		// The paper's schedule frees a container when its job ends.
		s := runWatch(t, sim.Config{Nodes: []sim.NodeSpec{{Name: "n", Cap: res(6, 6000)}}, Jobs: jobs, Model: sim.Model{ImmediateRelease: true},
			Policy: newPolicy(t, "fifo", base.Spec{}, map[string]float64{"backfill": c.backfill})}, nil)
		for i, j := range s.Jobs {
			if w := j.StartMs - j.Spec.SubmitMs; w != c.waits[i] {
				t.Fatalf("backfill %v: job %d waited %d ms, want %d", c.backfill, i+1, w, c.waits[i])
			}
		}
	}
}

// TestDelaySchedulingRaisesLocality: waiting for node-local maps (the
// FairScheduler's locality threshold) runs more maps node-local than taking
// any node. The gain is moderate (measured 0.16 -> 0.25): as in
// FSAppAttempt, an allocation does not reset the job's opportunity count,
// so a job that waited once takes rack-local nodes until a node-local
// container brings its level back.
func TestDelaySchedulingRaisesLocality(t *testing.T) {
	// Few maps per job against many nodes: a node offered to the job at the
	// head of the line rarely holds one of its blocks.
	var nodes []sim.NodeSpec
	for i := 0; i < 24; i++ {
		nodes = append(nodes, sim.NodeSpec{Name: "n", Rack: i / 6, Cap: res(1, 4096)})
	}
	mk := func() []sim.JobSpec {
		var jobs []sim.JobSpec
		for i := 0; i < 8; i++ {
			j := job("m", "", float64(i), 12, res(1, 512), 8)
			j.Stages[0].Kind = sim.KindMap
			j.Stages[0].BlockReplicas = 1
			jobs = append(jobs, j)
		}
		return jobs
	}
	local := func(delay float64) float64 {
		cfg := sim.Config{Nodes: nodes, Jobs: mk(), Seed: 7, RecordTasks: true,
			Policy: newPolicy(t, "fair", base.Spec{}, map[string]float64{"locality_delay": delay})}
		s := runWatch(t, cfg, nil)
		n, l := 0, 0
		for _, r := range s.TaskRecords() {
			if r.Kind == sim.KindMap {
				n++
				if r.Locality == sim.NodeLocal {
					l++
				}
			}
		}
		return float64(l) / float64(n)
	}
	without, with := local(0), local(24)
	t.Logf("node-local maps: %.2f without delay, %.2f with", without, with)
	if with < 1.4*without {
		t.Fatalf("node-local share %.2f with delay scheduling vs %.2f without: want at least 1.4 times", with, without)
	}
}

// TestRegistry: every policy builds, its parameter names are unique and its
// defaults lie in their ranges; unknown names are refused.
func TestRegistry(t *testing.T) {
	all := policies.All()
	if len(all) < 3 {
		t.Fatalf("%d policies registered", len(all))
	}
	for i, in := range all {
		if i > 0 && all[i-1].Name >= in.Name {
			t.Fatalf("All() not sorted: %s before %s", all[i-1].Name, in.Name)
		}
		p, err := policies.New(in.Name, base.Spec{})
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, q := range p.Params.List() {
			if seen[q.Name] {
				t.Fatalf("%s: parameter %s declared twice", in.Name, q.Name)
			}
			seen[q.Name] = true
			if q.Default < q.Min || q.Default > q.Max || *q.Value != q.Default || q.Doc == "" || q.Ref == "" {
				t.Fatalf("%s: parameter %+v: default outside range, not applied, or undocumented", in.Name, q)
			}
		}
	}
	if _, err := policies.New("nope", base.Spec{}); err == nil {
		t.Fatal("unknown policy accepted")
	}
}
