package policies_test

import (
	"math"
	"strings"
	"testing"

	"yarngym/env/sim"
	"yarngym/policies"
	"yarngym/policies/base"
)

// queueHeld is what queue q's jobs hold (guaranteed), and how many of its
// jobs are runnable (admitted, or ended but not yet removed).
func queueHeld(s *sim.Sim, q string) (held sim.Res, runnable int) {
	for _, jobs := range [2][]*sim.Job{s.Active(), s.Finishing()} {
		for _, j := range jobs {
			if base.QueueOf(j) == q {
				held = held.Add(j.Alloc.Sub(j.OppAlloc))
				runnable++
			}
		}
	}
	return held, runnable
}

// TestFairMaxRunningApps: a queue with maxRunningApps 2 never has more than
// two runnable jobs, reaches two, and its waiting jobs do not hold back
// another queue's.
func TestFairMaxRunningApps(t *testing.T) {
	var jobs []sim.JobSpec
	for i := 0; i < 6; i++ {
		jobs = append(jobs, job("a", "a", 0, 4, res(1, 1024), 5))
	}
	for i := 0; i < 4; i++ {
		jobs = append(jobs, job("b", "b", 0.1, 4, res(1, 1024), 5))
	}
	sp := base.Spec{Queues: []base.Queue{{Name: "a", MaxRunningApps: 2}, {Name: "b"}}}
	most, bWaited := 0, false
	runWatch(t, sim.Config{Nodes: []sim.NodeSpec{{Name: "n0", Cap: res(16, 32768)}, {Name: "n1", Cap: res(16, 32768)}}, Jobs: jobs,
		Policy: newPolicy(t, "fair", sp, nil)},
		func(s *sim.Sim) {
			_, n := queueHeld(s, "a")
			if n > 2 {
				t.Fatalf("t=%d: queue a has %d runnable jobs, maxRunningApps 2", s.Now(), n)
			}
			most = max(most, n)
			for _, j := range s.Waiting() {
				if base.QueueOf(j) == "b" {
					bWaited = true
				}
			}
		})
	if most != 2 {
		t.Errorf("queue a had at most %d runnable jobs, want the cap, 2", most)
	}
	if bWaited {
		t.Error("a job of queue b waited: queue a's cap held it back")
	}
}

// TestFairMaxResources: a queue never holds more than its max share in
// memory or in vCores (a request that would take it over is passed over),
// and it does reach it.
func TestFairMaxResources(t *testing.T) {
	jobs := []sim.JobSpec{job("a", "a", 0, 40, res(1, 1024), 5), job("b", "b", 0.05, 40, res(1, 1024), 5)}
	for _, c := range []struct {
		name string
		q    base.Queue
		want sim.Res // the most queue a may hold
	}{
		{"memory", base.Queue{Name: "a", MaxMemMB: 4096}, res(4, 4096)},
		{"vcores", base.Queue{Name: "a", MaxVCores: 3}, res(3, 3072)},
	} {
		t.Run(c.name, func(t *testing.T) {
			var most sim.Res
			runWatch(t, sim.Config{Nodes: []sim.NodeSpec{{Name: "n0", Cap: res(8, 16384)}, {Name: "n1", Cap: res(8, 16384)}}, Jobs: jobs,
				Policy: newPolicy(t, "fair", base.Spec{Queues: []base.Queue{c.q, {Name: "b"}}}, nil)},
				func(s *sim.Sim) {
					held, _ := queueHeld(s, "a")
					if !held.Fits(c.want) {
						t.Fatalf("t=%d: queue a holds %+v, over its max share %+v", s.Now(), held, c.want)
					}
					most = sim.Res{VCores: max(most.VCores, held.VCores), MemMB: max(most.MemMB, held.MemMB)}
				})
			if most != c.want {
				t.Errorf("queue a held at most %+v, want its max share %+v", most, c.want)
			}
		})
	}
}

// TestFairMinShare: a queue's min share raises its fair share above what
// its weight gives and it is served first while below it: queue a (weight
// 1, min share half the memory) holds half the containers beside queue b
// (weight 3), not a quarter.
func TestFairMinShare(t *testing.T) {
	for _, c := range []struct {
		name  string
		minMB int64
		want  float64
	}{{"no min share", 0, 0.25}, {"min share half the memory", 8192, 0.5}} {
		t.Run(c.name, func(t *testing.T) {
			sp := base.Spec{Queues: []base.Queue{{Name: "a", Weight: 1, MinMemMB: c.minMB}, {Name: "b", Weight: 3}}}
			nodes := []sim.NodeSpec{{Name: "n0", Cap: res(8, 8192)}, {Name: "n1", Cap: res(8, 8192)}}
			jobs := []sim.JobSpec{job("a", "a", 0, 400, res(1, 1024), 5), job("b", "b", 0.05, 400, res(1, 1024), 5)}
			shares, ok := meanShares(t, sim.Config{Nodes: nodes, Jobs: jobs, Policy: newPolicy(t, "fair", sp, nil)}, 16)
			if !ok {
				t.Fatal("never saw both queues running on a full cluster")
			}
			if got := shares[0]; math.Abs(got-c.want) > 0.04 {
				t.Fatalf("queue a held %.3f of the containers, want %.2f", got, c.want)
			}
		})
	}
}

// TestCapacityRefusesFairLimits: the capacity policy refuses the
// FairScheduler's queue limits rather than ignoring them.
func TestCapacityRefusesFairLimits(t *testing.T) {
	for _, q := range []base.Queue{
		{Name: "a", Capacity: 1, MaxRunningApps: 2},
		{Name: "a", Capacity: 1, MaxMemMB: 1024},
		{Name: "a", Capacity: 1, MinVCores: 1},
	} {
		if _, err := policies.New("capacity", base.Spec{Queues: []base.Queue{q}}); err == nil || !strings.Contains(err.Error(), "FairScheduler settings") {
			t.Errorf("%+v: got %v, want a refusal naming the FairScheduler settings", q, err)
		}
	}
	if _, err := policies.New("capacity", base.Spec{Queues: []base.Queue{{Name: "a", Capacity: 1}}}); err != nil {
		t.Errorf("a plain capacity queue refused: %v", err)
	}
}

// TestFairHierarchy: a parent queue's share is split among its children
// (p.a and p.b, weight 1 each, under p of weight 1, beside c of weight 2
// hold 1/6, 1/6 and 2/3 of the cluster, where three flat queues would hold
// 1/4, 1/4 and 1/2), and a parent's maxRunningApps and maxResources bound
// its children together.
func TestFairHierarchy(t *testing.T) {
	nodes := []sim.NodeSpec{{Name: "n0", Cap: res(12, 12288)}, {Name: "n1", Cap: res(12, 12288)}}
	t.Run("shares", func(t *testing.T) {
		sp := base.Spec{Queues: []base.Queue{{Name: "p", Weight: 1}, {Name: "p.a", Weight: 1}, {Name: "p.b", Weight: 1}, {Name: "c", Weight: 2}}}
		jobs := []sim.JobSpec{job("a", "p.a", 0, 600, res(1, 1024), 5), job("b", "p.b", 0.05, 600, res(1, 1024), 5), job("c", "c", 0.1, 600, res(1, 1024), 5)}
		shares, ok := meanShares(t, sim.Config{Nodes: nodes, Jobs: jobs, Policy: newPolicy(t, "fair", sp, nil)}, 24)
		if !ok {
			t.Fatal("never saw the three queues on a full cluster")
		}
		for i, want := range []float64{1.0 / 6, 1.0 / 6, 2.0 / 3} {
			if got := shares[i]; math.Abs(got-want) > 0.04 {
				t.Errorf("queue %d held %.3f of the containers, want %.3f", i, got, want)
			}
		}
	})
	t.Run("parent limits", func(t *testing.T) {
		sp := base.Spec{Queues: []base.Queue{{Name: "p", MaxRunningApps: 3, MaxMemMB: 6144}, {Name: "p.a"}, {Name: "p.b"}, {Name: "c"}}}
		var jobs []sim.JobSpec
		for i := 0; i < 4; i++ {
			jobs = append(jobs, job("a", "p.a", 0, 6, res(1, 1024), 5), job("b", "p.b", 0, 6, res(1, 1024), 5))
		}
		jobs = append(jobs, job("c", "c", 0.1, 40, res(1, 1024), 5))
		mostRunnable, mostMB := 0, int64(0)
		runWatch(t, sim.Config{Nodes: nodes, Jobs: jobs, Policy: newPolicy(t, "fair", sp, nil)}, func(s *sim.Sim) {
			ha, na := queueHeld(s, "p.a")
			hb, nb := queueHeld(s, "p.b")
			if na+nb > 3 || ha.MemMB+hb.MemMB > 6144 {
				t.Fatalf("t=%d: queue p's children have %d runnable jobs holding %d MB; p allows 3 and 6144 MB", s.Now(), na+nb, ha.MemMB+hb.MemMB)
			}
			mostRunnable, mostMB = max(mostRunnable, na+nb), max(mostMB, ha.MemMB+hb.MemMB)
		})
		if mostRunnable != 3 || mostMB != 6144 {
			t.Errorf("queue p reached %d runnable jobs and %d MB, want its limits 3 and 6144", mostRunnable, mostMB)
		}
	})
	t.Run("names", func(t *testing.T) {
		if _, err := policies.New("fair", base.Spec{Queues: []base.Queue{{Name: "p..a"}}}); err == nil {
			t.Error("a queue path with an empty level was accepted")
		}
	})
}
