package sim_test

import (
	"testing"

	"yarngym/env/sim"
)

// execJob is a job without an AM whose one stage is executors: at most
// execs containers, each running the stage's partitions one after another
// (StageSpec.PartitionExecutors); durs are the partitions' lengths in ms.
func execJob(execs int, durs ...sim.Ms) sim.JobSpec {
	return sim.JobSpec{Name: "spark", Stages: []sim.StageSpec{{Name: "parts", Kind: sim.KindExecutor, Req: res(1, 100),
		Profile: flat(0.5, 10, 0), DurationsMs: durs, MaxRunning: execs, PartitionExecutors: true}}}
}

type span struct {
	idx, attempt int
	from, to     sim.Ms
	out          sim.Outcome
	seq          int64 // the container's LaunchSeq, 0: not checked
}

// TestExecutorsRunPartitions: two executors run five partitions (3, 5, 1,
// 6, 2 s) on an idle node, without an AM (node heartbeats every second,
// FIFO assigns all that fits). By hand: both executors start at 0 with
// partitions 0 and 1; executor A (container 1) ends partition 0 at 3 s and
// runs 2 (3-4 s), then 3 (4-10 s); executor B (container 2) ends 1 at 5 s
// and runs 4 (5-7 s), then idles, holding its container, until partition 3
// ends at 10 s: the job ends then. The scripted kills: (a) partition 3's
// executor killed at the 6 s heartbeat, while B runs partition 4: the
// partition is pending again and its job asks for one executor (one held
// of two), given at once: container 3 runs it from scratch, 6-12 s; B
// idles from 7 s. (b) killed at 9 s, B idle since 7 s: B runs it at once,
// 9-15 s, and no container is asked for (B holds one of two, no partition
// waits).
func TestExecutorsRunPartitions(t *testing.T) {
	for _, tc := range []struct {
		name       string
		killAtMs   sim.Ms // 0: no kill
		preempt    bool   // Preempt instead of Kill
		want       []span // in the order they end
		finish     sim.Ms
		containers int64 // containers launched
	}{
		{"no kill", 0, false, []span{
			{0, 0, 0, 3000, sim.Finished, 1}, {2, 0, 3000, 4000, sim.Finished, 1}, {1, 0, 0, 5000, sim.Finished, 2},
			{4, 0, 5000, 7000, sim.Finished, 2}, {3, 0, 4000, 10000, sim.Finished, 1}}, 10000, 2},
		{"kill, no idle executor", 6000, false, []span{
			{0, 0, 0, 3000, sim.Finished, 1}, {2, 0, 3000, 4000, sim.Finished, 1}, {1, 0, 0, 5000, sim.Finished, 2},
			{3, 0, 4000, 6000, sim.Killed, 1}, {4, 0, 5000, 7000, sim.Finished, 2}, {3, 1, 6000, 12000, sim.Finished, 3}}, 12000, 3},
		{"kill, an idle executor takes it", 9000, false, []span{
			{0, 0, 0, 3000, sim.Finished, 1}, {2, 0, 3000, 4000, sim.Finished, 1}, {1, 0, 0, 5000, sim.Finished, 2},
			{4, 0, 5000, 7000, sim.Finished, 2}, {3, 0, 4000, 9000, sim.Killed, 1}, {3, 1, 9000, 15000, sim.Finished, 2}}, 15000, 2},
		// Preempted (the node frees the container two heartbeats later, the
		// job at once): as (a), the node has room for the replacement.
		{"preempt, no idle executor", 6000, true, []span{
			{0, 0, 0, 3000, sim.Finished, 1}, {2, 0, 3000, 4000, sim.Finished, 1}, {1, 0, 0, 5000, sim.Finished, 2},
			{3, 0, 4000, 6000, sim.Killed, 1}, {4, 0, 5000, 7000, sim.Finished, 2}, {3, 1, 6000, 12000, sim.Finished, 3}}, 12000, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			seqs := map[int]int64{} // task index -> its container's LaunchSeq, as it runs
			var pol *sim.Policy
			if tc.killAtMs > 0 {
				pol = withMonitor(t, &scripted{atMs: tc.killAtMs, fn: func(h sim.Handle, n *sim.Node) {
					for _, tk := range n.Containers {
						if tk.Index == 3 {
							kill := h.Kill
							if tc.preempt {
								kill = h.Preempt
							}
							if err := kill(tk); err != nil {
								t.Fatal(err)
							}
							return
						}
					}
					t.Fatal("partition 3 is not running")
				}})
			}
			most := 0
			s := run(t, sim.Config{Nodes: []sim.NodeSpec{{Name: "n", Cap: res(4, 1000)}}, Policy: pol,
				Jobs: []sim.JobSpec{execJob(2, 3000, 5000, 1000, 6000, 2000)}, Model: sim.Model{HeartbeatMs: 1000},
				AfterEvent: func(s *sim.Sim) {
					j := s.Jobs[0]
					if j.Stages == nil {
						return
					}
					if h := j.Stages[0].Held(); h > most {
						most = h
					}
					if v := j.Alloc.VCores; v > 2 {
						t.Fatalf("at %d ms the job holds %d vCores, at most 2 executors", s.Now(), v)
					}
					for _, tk := range j.Stages[0].Tasks {
						if tk.State == sim.TaskRunning {
							seqs[tk.Index] = tk.LaunchSeq
						}
					}
				}})
			recs := s.TaskRecords() // in the order they ended
			if len(recs) != len(tc.want) {
				t.Fatalf("%d attempts recorded, want %d: %+v", len(recs), len(tc.want), recs)
			}
			for i, w := range tc.want {
				r := recs[i]
				if r.Index != w.idx || int(r.Attempt) != w.attempt || r.StartMs != w.from || r.EndMs != w.to || r.Outcome != w.out {
					t.Errorf("attempt %d: partition %d.%d %d-%d ms %v, want %d.%d %d-%d ms %v", i, r.Index, r.Attempt, r.StartMs, r.EndMs, r.Outcome,
						w.idx, w.attempt, w.from, w.to, w.out)
				}
			}
			for _, w := range tc.want {
				if w.out == sim.Finished && seqs[w.idx] != w.seq {
					t.Errorf("partition %d ran in container %d, want %d", w.idx, seqs[w.idx], w.seq)
				}
			}
			if f := s.Jobs[0].FinishMs; f != tc.finish {
				t.Errorf("job done at %d ms, want %d", f, tc.finish)
			}
			if most != 2 {
				t.Errorf("the stage held at most %d containers, want 2", most)
			}
			if got := s.Stats().Launched; got != tc.containers {
				t.Errorf("%d containers launched, want %d", got, tc.containers)
			}
		})
	}
}
