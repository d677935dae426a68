package ikayak

import (
	"testing"

	"yarngym/env/sim"
	"yarngym/policies/base"
)

// TestYARNClientOneSparkApp: the YARN-client model runs one Spark
// application at a time, in submission order, while MapReduce jobs run
// alongside; the YARN-cluster model (Capacity) runs the Spark applications
// together. A held application is not in YARN (not admitted), so it
// counts nothing against the AM limit and asks for nothing.
// Reference: iKayak Sec. 5.1 ("YARN-client model hosts only one Spark
// application at one time").
func TestYARNClientOneSparkApp(t *testing.T) {
	nodes := []sim.NodeSpec{{Name: "a", Cap: res(16, 32768)}, {Name: "b", Cap: res(16, 32768)}}
	var jobs []sim.JobSpec
	for i, at := range []float64{0, 1, 2} {
		j := sparkSpec("spark", at, 2, 60, res(2, 2048))
		j.AM = res(1, 512)
		j.Name = string(rune('a' + i))
		jobs = append(jobs, j)
	}
	mr := mrSpec("mr", 3, 10, 30, 2, 20, res(1, 1024), 0.05)
	mr.AM = res(1, 1024)
	jobs = append(jobs, mr)
	for _, c := range []struct {
		policy  string
		maxRuns int
	}{{"yarn-client", 1}, {"capacity", 3}} {
		t.Run(c.policy, func(t *testing.T) {
			var p *sim.Policy
			var err error
			if c.policy == "yarn-client" {
				p, err = NewYARNClient(base.Spec{})
			} else {
				p, _, err = capacityBase(base.Spec{})
			}
			if err != nil {
				t.Fatal(err)
			}
			peak, peakActive := 0, 0
			s := run(t, sim.Config{Nodes: nodes, Jobs: jobs, Policy: p}, func(s *sim.Sim) {
				k, a := 0, 0
				for _, j := range s.Active() {
					if j.Spec.Framework == "spark" {
						a++
						if j.AM.State == sim.TaskRunning {
							k++
						}
					}
				}
				peak, peakActive = max(peak, k), max(peakActive, a)
			})
			if peak != c.maxRuns || peakActive != c.maxRuns {
				t.Fatalf("%d Spark applications ran at once, %d admitted at once, want %d", peak, peakActive, c.maxRuns)
			}
			a, b, cc, m := s.Jobs[0], s.Jobs[1], s.Jobs[2], s.Jobs[3]
			if c.policy == "yarn-client" {
				if !(a.FinishMs <= b.AM.FirstStartMs && b.FinishMs <= cc.AM.FirstStartMs) {
					t.Fatalf("Spark applications overlap or ran out of order: %d/%d, %d/%d", a.FinishMs, b.AM.FirstStartMs, b.FinishMs, cc.AM.FirstStartMs)
				}
				if m.FinishMs > cc.FinishMs {
					t.Fatalf("the MapReduce job (done %d ms) waited behind the Spark queue (last done %d ms)", m.FinishMs, cc.FinishMs)
				}
			}
		})
	}
}
