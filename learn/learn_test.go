package learn

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"yarngym/env/sim"
	"yarngym/env/task"
)

func mustTask(t testing.TB, id string) task.Task {
	t.Helper()
	tk, err := task.Lookup(id)
	if err != nil {
		t.Fatal(err)
	}
	return tk
}

func TestObjectiveMapping(t *testing.T) {
	obj := &Objective{Low: []float64{0, 0.5, 10}, High: []float64{1, 2, 20}, Integer: []bool{false, false, true}}
	for _, c := range []struct{ u, want []float64 }{
		{[]float64{-1, -1, -1}, []float64{0, 0.5, 10}},
		{[]float64{1, 1, 1}, []float64{1, 2, 20}},
		{[]float64{0, 0, 0.05}, []float64{0.5, 1.25, 15}}, // 15.25 rounds to 15
		{[]float64{3, -7, math.NaN()}, []float64{1, 0.5, 15}},
	} {
		if got := obj.FromUnit(c.u); !slices.Equal(got, c.want) {
			t.Errorf("FromUnit(%v) = %v, want %v", c.u, got, c.want)
		}
	}
	if got := obj.ToUnit([]float64{0.25, 2, 15}); !slices.Equal(got, []float64{-0.5, 1, 0}) {
		t.Errorf("ToUnit = %v", got)
	}
	for _, c := range []struct{ in, want float64 }{{0.3, 0.3}, {1, 1}, {1.5, 0.5}, {3, -1}, {-1.25, -0.75}, {5.5, 0.5}, {-3, 1}} {
		if got := reflect([]float64{c.in})[0]; math.Abs(got-c.want) > 1e-12 {
			t.Errorf("reflect(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

// TestBlackBox: each black-box tuner spends at most its budget, scores
// every candidate on the same train seeds (never a test seed), keeps its
// best, and gives the same model for the same seed whatever the workers.
func TestBlackBox(t *testing.T) {
	tk := mustTask(t, "AutoAdmin66-Fair-v0")
	for _, algo := range []string{"grid", "random", "cmaes", "bo"} {
		var models [][]byte
		for _, w := range []int{1, 3} {
			res, err := Train(algo, tk, Options{Budget: 9, Seed: 4, Workers: w, TrainSeeds: 4})
			if err != nil {
				t.Fatal(err)
			}
			m := res.Model
			if res.Evals < 1 || res.Evals > 9 || m.Evals != res.Evals || len(res.Curve) != res.Evals || res.EnvSteps == 0 {
				t.Fatalf("%s: %d evaluations (model %d, curve %d, %d env steps) for a budget of 9", algo, res.Evals, m.Evals, len(res.Curve), res.EnvSteps)
			}
			if last := res.Curve[len(res.Curve)-1]; last.Best != m.TrainReturn.Mean || m.TrainReturn.N != 4 {
				t.Errorf("%s: the model's train return %v is not the best of the curve %v", algo, m.TrainReturn, last)
			}
			for _, p := range res.Curve {
				if p.Return > m.TrainReturn.Mean {
					t.Errorf("%s: a candidate scored %v, above the kept model's %v", algo, p.Return, m.TrainReturn.Mean)
				}
			}
			if err := m.Validate(); err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			path, err := m.Save(dir)
			if err != nil {
				t.Fatal(err)
			}
			data, _ := os.ReadFile(path)
			models = append(models, data)
		}
		if !bytes.Equal(models[0], models[1]) {
			t.Errorf("%s: one and three workers gave different model files", algo)
		}
	}
	// The grid's best on a 9-point grid of [-1, 1] (max_am_share) is one of
	// its points, and the grid ignores the seed.
	res, err := Train("grid", tk, Options{Budget: 9, Seed: 99, TrainSeeds: 4})
	if err != nil {
		t.Fatal(err)
	}
	if a := res.Model.Action[0]; math.Mod(a*4, 1) != 0 {
		t.Errorf("grid chose %v, not a point of the 9-point grid", a)
	}
}

func TestObjectiveUsesTrainSeeds(t *testing.T) {
	tk := mustTask(t, "AutoAdmin-v0")
	obj, err := NewObjective(tk, 5, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range obj.Seeds {
		if s >= tk.Test.First && s < tk.Test.First+uint64(tk.Test.Count) {
			t.Fatalf("train seed %d is a test seed", s)
		}
	}
	if !slices.Equal(obj.Seeds, tk.Train.List()[:5]) {
		t.Errorf("seeds %v", obj.Seeds)
	}
	if _, err := NewObjective(tk, tk.Train.Count+1, 0); err == nil {
		t.Error("more train seeds than the task has: no error")
	}
}

// TestPPOSameSeedSameModel: PPO's model file is the same, byte for byte,
// for the same seed whatever the number of workers, and differs for another
// seed; it loads back and acts.
func TestPPOSameSeedSameModel(t *testing.T) {
	tk := mustTask(t, "AutoAdmin66-Fair-v0")
	train := func(seed uint64, workers int) []byte {
		c := DefaultPPOConfig()
		res, err := Train("ppo", tk, Options{Budget: 2 * c.Envs * c.Rollout, Seed: seed, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		if res.EnvSteps != int64(2*c.Envs*c.Rollout) || res.GradSteps != 2*c.Epochs*(c.Envs*c.Rollout/c.Minibatch) {
			t.Fatalf("%d env steps and %d gradient steps", res.EnvSteps, res.GradSteps)
		}
		path, err := res.Model.Save(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		m, err := LoadModel(filepath.Dir(path))
		if err != nil {
			t.Fatal(err)
		}
		eps, err := Evaluate(m, tk, workers)
		if err != nil || len(eps) != tk.Test.Count {
			t.Fatalf("evaluating the loaded model: %v", err)
		}
		return data
	}
	a, b, c := train(7, 1), train(7, 3), train(8, 2)
	if !bytes.Equal(a, b) {
		t.Error("the same seed gave different model files with 1 and 3 workers")
	}
	if bytes.Equal(a, c) {
		t.Error("seeds 7 and 8 gave the same model file")
	}
}

// TestNetMatchesGraph: the plain-Go forward pass that acts (Net.Mean) is
// the gorgonia graph's actor mean, on a minibatch of random inputs.
func TestNetMatchesGraph(t *testing.T) {
	rng := sim.NewRand(3)
	p := newPPONet(5, 2, rng, DefaultPPOConfig())
	M := DefaultPPOConfig().Minibatch
	x := make([]float64, M*5)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	for _, in := range []struct {
		n  *G.Node
		sh tensor.Shape
		v  []float64
	}{{p.x, tensor.Shape{M, 5}, x}, {p.a, tensor.Shape{M, 2}, make([]float64, M*2)},
		{p.oldLogP, tensor.Shape{M}, make([]float64, M)}, {p.adv, tensor.Shape{M}, make([]float64, M)}, {p.ret, tensor.Shape{M}, make([]float64, M)}} {
		if err := G.Let(in.n, tensor.New(tensor.WithShape(in.sh...), tensor.WithBacking(in.v))); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.vm.RunAll(); err != nil {
		t.Fatal(err)
	}
	mu := p.mu.Value().Data().([]float64)
	actor, _ := p.snapshot()
	for r := range M {
		got := actor.Mean(x[r*5 : (r+1)*5])
		for j := range 2 {
			if math.Abs(got[j]-mu[r*2+j]) > 1e-12 {
				t.Fatalf("row %d: Go %v, gorgonia %v", r, got, mu[r*2:r*2+2])
			}
		}
	}
}

func TestObsNorm(t *testing.T) {
	n := NewObsNorm(2, 5)
	rows := [][]float32{{1, 10}, {3, 10}, {5, 10}}
	n.Update(rows[:2])
	n.Update(rows[2:])
	if math.Abs(n.Mean[0]-3) > 1e-3 || math.Abs(n.Var[0]-8.0/3) > 1e-3 || math.Abs(n.Mean[1]-10) > 1e-3 {
		t.Errorf("mean %v var %v", n.Mean, n.Var)
	}
	out := make([]float64, 2)
	n.Apply([]float32{3, 1000}, out)
	if math.Abs(out[0]) > 1e-3 || out[1] != 5 {
		t.Errorf("normalised %v, want [0 5] (clipped)", out)
	}
}

func TestModelValidate(t *testing.T) {
	good := &Model{Version: ModelVersion, Task: "AutoAdmin-v0", Algo: "cmaes", Kind: KindStatic, Params: []string{"rrp_scale"},
		Low: []float64{0}, High: []float64{2}, Action: []float64{1.5}}
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		change func(m *Model)
		want   string
	}{
		{"version", func(m *Model) { m.Version = 9 }, "version 9"},
		{"task", func(m *Model) { m.Task = "Nope-v0" }, "Nope-v0"},
		{"params", func(m *Model) { m.Params = []string{"rho"} }, "rho"},
		{"action", func(m *Model) { m.Action = nil }, "static action"},
		{"kind", func(m *Model) { m.Kind = "magic" }, "magic"},
		{"policy without a network", func(m *Model) { m.Kind = KindPolicy }, "network"},
	}
	for _, c := range cases {
		m := *good
		c.change(&m)
		if err := m.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	action := make([]float64, 1)
	good.Act(nil, action)
	if action[0] != 1.5 {
		t.Errorf("a static model acts %v", action)
	}
}
