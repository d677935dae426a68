package env

import (
	"math"
	"slices"
	"testing"

	"yarngym/env/sim"
)

func index(t *testing.T, names []string, name string) int {
	t.Helper()
	i := slices.Index(names, name)
	if i < 0 {
		t.Fatalf("no feature %q in %v", name, names)
	}
	return i
}

// TestObservations checks the space and, every step, that the observation
// lies in it and that features match the simulator's state.
func TestObservations(t *testing.T) {
	cases := []struct {
		name string
		cfg  Config
		act  []float64
		kill bool // the scenario kills tasks and swaps
	}{
		{"quick", Config{Scenario: "quick", ControlIntervalS: 15}, nil, false},
		{"autoadmin tuner", Config{Scenario: "autoadmin-66", Policy: "fair", Controlled: []string{"max_am_share", "locality_delay"}}, []float64{0.2, 3}, false},
		{"autoadmin state", Config{Scenario: "autoadmin-66", Policy: "autoadmin", Controlled: []string{"rrp_floor"}, Bounds: map[string][2]float64{"rrp_floor": {0.2, 0.6}}}, []float64{0.5}, false},
		// The toy's jobs have no AM: Capacity's AM limit would activate one
		// at a time, and none would ever wait for a container.
		{"dress-fig1 capacity", Config{Scenario: "dress-fig1", Policy: "capacity", ControlIntervalS: 5, Sets: []string{"max_am_percent=-1"}}, nil, false},
		{"opera kills", Config{Scenario: "opera-spark", Policy: "opera", ControlIntervalS: 600, Reward: map[string]float64{"slowdown": 1, "kills": 1, "wasted": 1}}, nil, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := mustNew(t, c.cfg)
			sp, names := e.ObservationSpace(), e.FeatureNames()
			if len(sp.Shape) != 1 || sp.Shape[0] != len(names) || len(sp.Low) != len(names) || len(sp.High) != len(names) || e.ObsDim() != len(names) {
				t.Fatalf("shape %v, %d names, %d/%d bounds", sp.Shape, len(names), len(sp.Low), len(sp.High))
			}
			if _, _, err := e.Reset(1); err != nil {
				t.Fatal(err)
			}
			if want := numBase + len(e.Sim().Policy().State) + len(c.cfg.Controlled); len(names) != want {
				t.Fatalf("%d features, want %d (base, policy state, controlled)", len(names), want)
			}
			for _, v := range e.Sim().Policy().State {
				if !slices.Contains(names, "policy."+v.Name) {
					t.Fatalf("policy state %s is not observed: %v", v.Name, names)
				}
			}
			for i := range sp.Low {
				// Bounded and scale-free: nothing beyond a few units.
				if !(sp.Low[i] <= sp.High[i]) || sp.Low[i] < -logCap || sp.High[i] > logCap {
					t.Fatalf("feature %s: bounds [%v, %v]", names[i], sp.Low[i], sp.High[i])
				}
			}
			obs, _, err := e.Reset(5)
			if err != nil {
				t.Fatal(err)
			}
			if !sp.Contains(obs) {
				t.Fatalf("reset observation %v outside the space", obs)
			}
			capV := float64(e.Sim().Capacity().VCores)
			var killed, wasted, maxSwap, maxPending float64
			for k := 0; ; k++ {
				obs, _, term, trunc, info, err := e.Step(c.act)
				if err != nil {
					t.Fatal(err)
				}
				if len(obs) != len(names) || !sp.Contains(obs) {
					t.Fatalf("step %d: observation %v outside the space", k, obs)
				}
				s := e.Sim()
				n := e.led.n
				g, o, used, _ := s.Totals()
				check := func(name string, want float64) {
					t.Helper()
					if got := obs[index(t, names, name)]; got != float32(want) {
						t.Errorf("step %d: %s = %v, want %v", k, name, got, float32(want))
					}
				}
				check("vcores_guaranteed", float64(g.VCores)/capV)
				check("vcores_opportunistic", min(float64(o.VCores)/capV, shareCap))
				check("cpu_used", math.Max(0, used/capV))
				check("jobs_running_frac", float64(len(s.Active()))/n)
				check("jobs_waiting_frac", float64(len(s.Waiting()))/n)
				check("jobs_done_frac", float64(info.JobsCompleted)/n)
				check("time_frac", float64(s.Now())/float64(e.HorizonMs()))
				var pending float64
				for _, j := range s.Active() {
					r, _ := s.PendingDemand(j)
					pending += float64(r.VCores)
				}
				var catSum float64
				for _, nm := range []string{"pending_am_log", "pending_map_log", "pending_reduce_log", "pending_executor_log", "pending_other_log"} {
					catSum += math.Expm1(float64(obs[index(t, names, nm)]))
				}
				if math.Abs(catSum-pending/capV) > 1e-5*(1+pending/capV) {
					t.Errorf("step %d: pending categories sum to %v, PendingDemand gives %v", k, catSum, pending/capV)
				}
				maxPending = math.Max(maxPending, catSum)
				killedNow := -info.Kills * n
				if got, want := obs[index(t, names, "kills_log")], float32(math.Log1p(killedNow/float64(len(s.Nodes)))); math.Abs(float64(got-want)) > 1e-5 {
					t.Errorf("step %d: kills_log %v, want %v", k, got, want)
				}
				killed += killedNow
				wasted -= info.Wasted * n
				maxSwap = math.Max(maxSwap, float64(obs[index(t, names, "swap_frac")]))
				for i, p := range c.cfg.Controlled {
					prm := s.Policy().Params.Get(p)
					lo, hi := prm.Min, prm.Max
					if b, ok := c.cfg.Bounds[p]; ok {
						lo, hi = b[0], b[1]
					}
					check("param."+p, (*prm.Value-lo)/(hi-lo))
					if want := e.clip(i, c.act[i]); *prm.Value != want {
						t.Errorf("param %s = %v, want %v", p, *prm.Value, want)
					}
				}
				if term || trunc {
					sum := s.Summary()
					if math.Abs(killed-float64(sum.TasksKilled)) > 1e-6 || math.Abs(wasted-float64(sum.WastedMs)/1000) > 1e-6 {
						t.Errorf("kills add up to %v (run: %d), wasted to %v s (run: %v s)", killed, sum.TasksKilled, wasted, float64(sum.WastedMs)/1000)
					}
					if c.kill && (killed == 0 || maxSwap == 0) {
						t.Errorf("expected kills and swapping, got %v kills, max swap_frac %v", killed, maxSwap)
					}
					if maxPending == 0 {
						t.Error("no step saw pending demand")
					}
					break
				}
			}
		})
	}
}

// TestStateScaling checks the policy state features against their declared
// ranges: AutoAdmin's R_R is a share of the cluster's vCores.
func TestStateScaling(t *testing.T) {
	e := mustNew(t, Config{Scenario: "autoadmin-66", Policy: "autoadmin", ControlIntervalS: 30})
	names := e.FeatureNames()
	if _, _, err := e.Reset(1); err != nil {
		t.Fatal(err)
	}
	i := index(t, names, "policy.rrp_reserved_vcores")
	seen := false
	for !e.Done() {
		obs, _, _, _, _, err := e.Step(nil)
		if err != nil {
			t.Fatal(err)
		}
		var rr float64
		for _, v := range e.Sim().Policy().State {
			if v.Name == "rrp_reserved_vcores" {
				rr = v.Get()
			}
		}
		if want := float32(rr / float64(e.Sim().Capacity().VCores)); obs[i] != want {
			t.Fatalf("rrp_reserved_vcores %v observed as %v, want %v", rr, obs[i], want)
		}
		seen = seen || rr > 0
	}
	if !seen {
		t.Fatal("R_R was never positive")
	}
	sc := newStateScale(sim.StateVar{Min: 0, Max: 100, Log: true, Per: sim.PerNode}, 1, 1, 4)
	if got := sc.scale(400); math.Abs(got-1) > 1e-12 {
		t.Errorf("log scale at Max: %v, want 1", got)
	}
	if got := sc.scale(0); got != 0 {
		t.Errorf("log scale at 0: %v", got)
	}
}
