package learn

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"yarngym/env"
	"yarngym/env/task"

	"yarngym/internal/atomicfile"
)

// ModelVersion is the model file's layout version; files of another
// version are refused.
const ModelVersion = 1

// Model kinds.
const (
	KindStatic = "static" // one action throughout (the black-box tuners)
	KindPolicy = "policy" // an MLP policy over the observation (PPO)
)

// Model is a trained controller of a task's parameters, saved as JSON
// (model.json): it names its task, and carries either a static action or a
// policy network with the observation normaliser it was trained with. A
// Model acts wherever the task's environment runs: task.Evaluate (as an
// Agent), `yarngym evaluate`, and scenarios that name it as their
// controller.
type Model struct {
	Version int    `json:"version"`
	Task    string `json:"task"`
	Algo    string `json:"algo"`
	Seed    uint64 `json:"seed"`
	Kind    string `json:"kind"`
	// Params are the controlled parameters, Low and High their action
	// ranges (the policy acts in [-1, 1] per parameter, mapped linearly).
	Params []string  `json:"params"`
	Low    []float64 `json:"low"`
	High   []float64 `json:"high"`
	// Action is a static model's action, in the parameters' units.
	Action []float64 `json:"action,omitempty"`
	// Policy is a policy model's network; Norm its observation normaliser.
	Policy *Net     `json:"policy,omitempty"`
	Norm   *ObsNorm `json:"obs_norm,omitempty"`
	// TrainReturn is the model's mean return on the train seeds it was
	// chosen or last measured on.
	TrainReturn task.Stat `json:"train_return"`
	// Budget, Evals and EnvSteps record the training spent.
	Budget   int   `json:"budget"`
	Evals    int   `json:"evals"`
	EnvSteps int64 `json:"env_steps"`
	// Hyper holds a learner's hyper-parameters, by name.
	Hyper map[string]float64 `json:"hyper,omitempty"`
}

// Validate checks the model's shape and its fit to its task.
func (m *Model) Validate() error {
	bad := func(format string, a ...any) error { return fmt.Errorf("model: "+format, a...) }
	if m.Version != ModelVersion {
		return bad("version %d, this build reads version %d", m.Version, ModelVersion)
	}
	t, err := task.Lookup(m.Task)
	if err != nil {
		return bad("%v", err)
	}
	d := len(m.Params)
	if d == 0 || len(m.Low) != d || len(m.High) != d || fmt.Sprint(m.Params) != fmt.Sprint(t.Env.Controlled) {
		return bad("params %v (low %v, high %v) are not task %s's %v", m.Params, m.Low, m.High, t.ID, t.Env.Controlled)
	}
	switch m.Kind {
	case KindStatic:
		if len(m.Action) != d {
			return bad("static action %v, want %d values", m.Action, d)
		}
	case KindPolicy:
		e, err := env.New(t.Env)
		if err != nil {
			return err
		}
		if m.Policy == nil || m.Norm == nil {
			return bad("a policy model needs its network and observation normaliser")
		}
		if err := m.Policy.check(e.ObsDim(), d); err != nil {
			return bad("%v", err)
		}
		if len(m.Norm.Mean) != e.ObsDim() || len(m.Norm.Var) != e.ObsDim() {
			return bad("observation normaliser of %d features, the task observes %d", len(m.Norm.Mean), e.ObsDim())
		}
	default:
		return bad("kind %q, want %q or %q", m.Kind, KindStatic, KindPolicy)
	}
	return nil
}

// Save writes the model as dir/model.json.
func (m *Model) Save(dir string) (string, error) {
	data, err := json.MarshalIndent(m, "", " ")
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(dir, "model.json")
	return path, atomicfile.Write(path, append(data, '\n'))
}

// LoadModel reads a model file, or dir/model.json when path is a folder.
func LoadModel(path string) (*Model, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, "model.json")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var m Model
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &m, nil
}

// Act writes the model's action (the parameters' own units) for
// observation obs: a static model's action, or the policy's mean action
// (deterministic), clipped to the box.
func (m *Model) Act(obs []float32, action []float64) {
	if m.Kind == KindStatic {
		copy(action, m.Action)
		return
	}
	x := make([]float64, len(obs))
	m.Norm.Apply(obs, x)
	mean := m.Policy.Mean(x)
	for i, u := range mean {
		u = min(max(u, -1), 1)
		action[i] = m.Low[i] + (m.High[i]-m.Low[i])*(u+1)/2
	}
}

// Agent returns the model as a task.Agent (deterministic actions).
func (m *Model) Agent() task.Agent { return modelAgent{m} }

type modelAgent struct{ m *Model }

func (modelAgent) Begin(int, uint64)                            {}
func (a modelAgent) Act(_ int, obs []float32, action []float64) { a.m.Act(obs, action) }

// Net is a multilayer perceptron: tanh hidden layers and a linear output,
// weights row-major (W[l] is Sizes[l] x Sizes[l+1]: out = tanh(in W + B)).
// For a policy the output is the Gaussian's mean over the normalised
// actions and LogStd its state-independent log standard deviations.
type Net struct {
	Sizes  []int       `json:"sizes"`
	W      [][]float64 `json:"w"`
	B      [][]float64 `json:"b"`
	LogStd []float64   `json:"log_std,omitempty"`
}

func (n *Net) check(in, out int) error {
	L := len(n.Sizes) - 1
	if L < 1 || n.Sizes[0] != in || n.Sizes[L] != out || len(n.W) != L || len(n.B) != L {
		return fmt.Errorf("network sizes %v, want %d inputs and %d outputs", n.Sizes, in, out)
	}
	for l := range L {
		if len(n.W[l]) != n.Sizes[l]*n.Sizes[l+1] || len(n.B[l]) != n.Sizes[l+1] {
			return fmt.Errorf("layer %d: %d weights and %d biases for %d x %d", l, len(n.W[l]), len(n.B[l]), n.Sizes[l], n.Sizes[l+1])
		}
	}
	if n.LogStd != nil && len(n.LogStd) != out {
		return fmt.Errorf("%d log standard deviations for %d outputs", len(n.LogStd), out)
	}
	return nil
}

// Mean is the network's output for x (the forward pass, in plain Go; the
// gorgonia graph of ppo.go computes the same: learn_test.go TestNetMatchesGraph).
func (n *Net) Mean(x []float64) []float64 {
	h := x
	L := len(n.Sizes) - 1
	for l := range L {
		in, out := n.Sizes[l], n.Sizes[l+1]
		next := make([]float64, out)
		copy(next, n.B[l])
		w := n.W[l]
		for i := range in {
			xi := h[i]
			row := w[i*out : (i+1)*out]
			for j := range out {
				next[j] += xi * row[j]
			}
		}
		if l < L-1 {
			for j := range next {
				next[j] = math.Tanh(next[j])
			}
		}
		h = next
	}
	return h
}

// ObsNorm is a running normaliser of observations (the mean and variance
// of every feature seen in training, Welford/Chan), applied as
// clip((x - mean) / sqrt(var + 1e-8), -Clip, Clip).
type ObsNorm struct {
	Mean  []float64 `json:"mean"`
	Var   []float64 `json:"var"`
	Count float64   `json:"count"`
	Clip  float64   `json:"clip"`
}

// NewObsNorm starts a normaliser of d features.
func NewObsNorm(d int, clip float64) *ObsNorm {
	n := &ObsNorm{Mean: make([]float64, d), Var: make([]float64, d), Count: 1e-4, Clip: clip}
	for i := range n.Var {
		n.Var[i] = 1
	}
	return n
}

// Update folds a batch of observations (rows of d) into the statistics
// (Chan et al.'s parallel update, as gymnasium's RunningMeanStd).
func (n *ObsNorm) Update(rows [][]float32) {
	if len(rows) == 0 {
		return
	}
	d := len(n.Mean)
	k := float64(len(rows))
	for i := range d {
		var m float64
		for _, r := range rows {
			m += float64(r[i])
		}
		m /= k
		var v float64
		for _, r := range rows {
			dv := float64(r[i]) - m
			v += dv * dv
		}
		v /= k
		delta := m - n.Mean[i]
		tot := n.Count + k
		n.Mean[i] += delta * k / tot
		n.Var[i] = (n.Var[i]*n.Count + v*k + delta*delta*n.Count*k/tot) / tot
	}
	n.Count += k
}

// Apply writes the normalised obs into out.
func (n *ObsNorm) Apply(obs []float32, out []float64) {
	for i, v := range obs {
		z := (float64(v) - n.Mean[i]) / math.Sqrt(n.Var[i]+1e-8)
		out[i] = min(max(z, -n.Clip), n.Clip)
	}
}
