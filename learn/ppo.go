package learn

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"yarngym/env"
	"yarngym/env/sim"
	"yarngym/env/task"
	"yarngym/internal/cputime"
)

// PPOConfig is PPO's hyper-parameters, cleanrl's knobs
// (ppo_continuous_action.py; Huang et al., "The 37 Implementation Details
// of Proximal Policy Optimization", 2022). DefaultPPOConfig is cleanrl's
// with a smaller rollout, since an episode here is tens of steps and a step
// runs a simulated minute of the cluster.
type PPOConfig struct {
	Envs        int     // environments stepped together by env.Batch
	Rollout     int     // steps per environment per rollout
	Gamma       float64 // discount; episodes end at the task's horizon
	Lambda      float64 // GAE lambda
	Epochs      int     // passes over each rollout
	Minibatch   int     // samples per gradient step
	Clip        float64 // the surrogate's clipping epsilon
	EntCoef     float64 // entropy bonus
	VfCoef      float64 // value loss weight
	LR          float64 // Adam's learning rate
	AnnealLR    bool    // decay the learning rate linearly to 0 over the budget (cleanrl's anneal_lr)
	MaxGradNorm float64 // global gradient-norm clip
	Hidden      int     // units in each of the two tanh hidden layers
	InitLogStd  float64 // initial log std of the Gaussian over [-1, 1] actions
	ObsClip     float64 // normalised observations are clipped to +-ObsClip
}

// DefaultPPOConfig is the configuration the committed models were trained
// with.
func DefaultPPOConfig() PPOConfig {
	return PPOConfig{Envs: 8, Rollout: 32, Gamma: 0.99, Lambda: 0.95, Epochs: 10, Minibatch: 64, Clip: 0.2,
		EntCoef: 0.0, VfCoef: 0.5, LR: 3e-4, MaxGradNorm: 0.5, Hidden: 64, InitLogStd: -0.5, ObsClip: 10}
}

// check refuses a configuration PPO cannot run.
func (c PPOConfig) check() error {
	switch {
	case c.Envs < 1 || c.Rollout < 1 || c.Epochs < 1 || c.Hidden < 1:
		return fmt.Errorf("ppo: envs, rollout, epochs and hidden must be at least 1 (%d, %d, %d, %d)", c.Envs, c.Rollout, c.Epochs, c.Hidden)
	case c.Minibatch < 1 || c.Minibatch > c.Envs*c.Rollout:
		return fmt.Errorf("ppo: minibatch %d outside [1, envs x rollout = %d]", c.Minibatch, c.Envs*c.Rollout)
	case !(c.Gamma >= 0 && c.Gamma <= 1) || !(c.Lambda >= 0 && c.Lambda <= 1):
		return fmt.Errorf("ppo: gamma %v and lambda %v must be in [0, 1]", c.Gamma, c.Lambda)
	case !(c.Clip > 0) || !(c.LR > 0) || !(c.MaxGradNorm > 0) || !(c.ObsClip > 0) || c.EntCoef < 0 || c.VfCoef < 0:
		return fmt.Errorf("ppo: clip, lr, max_grad_norm and obs_clip must be positive, ent_coef and vf_coef not negative")
	}
	return nil
}

// Diagnostics are one PPO update's health figures, as cleanrl logs them:
// the approximate KL divergence between the policy before and after the
// update (mean over its minibatches of (r - 1) - log r, Schulman's k3
// estimator), the share of samples whose probability ratio r was clipped,
// the explained variance of the value function on the rollout's returns,
// and the learning rate used.
type Diagnostics struct {
	ApproxKL     float64 `json:"approx_kl"`
	ClipFrac     float64 `json:"clip_frac"`
	ExplainedVar float64 `json:"explained_var"`
	LR           float64 `json:"lr"`
}

// PPO is proximal policy optimisation (Schulman et al., "Proximal Policy
// Optimization Algorithms", 2017) with a clipped surrogate, generalised
// advantage estimation (Schulman et al., 2016), a value loss and an
// entropy bonus, for a Gaussian policy over the task's actions normalised
// to [-1, 1] (a sample is clipped to the box before it acts, its log
// probability taken unclipped, as cleanrl does), with a separate MLP critic,
// running observation normalisation and reward scaling by the running
// standard deviation of the discounted return. The networks are gorgonia
// graphs trained with Adam.
//
// Environments run on the task's train seeds in order, cfg.Envs at once in
// an env.Batch (an ended one is reset with the next seed), so nothing here
// ever sees a test seed. Initial weights and every sample come from the
// run's seeded generator: the same seed gives the same model, bit for bit,
// whatever o.Workers. The budget is environment steps.
func PPO(t task.Task, o Options) (*Result, error) {
	cfg := DefaultPPOConfig()
	if o.PPO != nil {
		cfg = *o.PPO
	}
	if err := cfg.check(); err != nil {
		return nil, err
	}
	ppoEnvs, ppoRollout, ppoGamma, ppoLambda, ppoEpochs, ppoMinibatch := cfg.Envs, cfg.Rollout, cfg.Gamma, cfg.Lambda, cfg.Epochs, cfg.Minibatch
	rng := sim.NewRand(sim.DeriveSeed(o.Seed, sim.HashString("learn.ppo")))

	// The environments.
	b, err := env.NewBatch(t.EnvFor(task.SplitTrain), ppoEnvs, o.Workers) // train seeds only: the train split's workload
	if err != nil {
		return nil, err
	}
	defer b.Close()
	od, ad := b.ObsDim(), b.ActDim()
	low, high, _ := b.Env(0).ActionBounds()
	nextSeed := 0
	seeds := make([]uint64, ppoEnvs)
	for i := range seeds {
		seeds[i] = t.Train.First + uint64(nextSeed%t.Train.Count)
		nextSeed++
	}
	obs := make([]float32, ppoEnvs*od)
	if err := b.Reset(seeds, nil, obs); err != nil {
		return nil, err
	}

	// The networks: actor (mean of the Gaussian, and its log std) and
	// critic, as gorgonia graphs over one minibatch.
	net := newPPONet(od, ad, rng, cfg)
	norm := NewObsNorm(od, cfg.ObsClip)
	retNorm := NewObsNorm(1, math.Inf(1)) // running variance of discounted returns
	discRet := make([]float64, ppoEnvs)

	// Rollout buffers (step-major: sample k = step*ppoEnvs + env).
	n := ppoRollout * ppoEnvs
	bufObs := make([]float64, n*od)
	bufAct := make([]float64, n*ad)
	bufLogP := make([]float64, n)
	bufVal := make([]float64, n)
	bufRew := make([]float64, n)
	bufDone := make([]bool, n)
	adv := make([]float64, n)
	ret := make([]float64, n)

	act := make([]float64, ppoEnvs*ad)
	rew := make([]float64, ppoEnvs)
	term, trunc := make([]bool, ppoEnvs), make([]bool, ppoEnvs)
	ended := make([]bool, ppoEnvs)
	epRet := make([]float64, ppoEnvs)
	x := make([]float64, od)
	res := &Result{XUnit: "env steps"}
	best := math.Inf(-1)
	iters := max(1, o.Budget/n)

	for iter := range iters {
		actor, critic := net.snapshot()
		var finished []float64

		// 1. Roll out ppoRollout steps in every environment.
		for step := range ppoRollout {
			rows := make([][]float32, ppoEnvs)
			for i := range ppoEnvs {
				rows[i] = obs[i*od : (i+1)*od]
			}
			norm.Update(rows)
			for i := range ppoEnvs {
				k := step*ppoEnvs + i
				norm.Apply(rows[i], x)
				copy(bufObs[k*od:(k+1)*od], x)
				mu := actor.Mean(x)
				var logp float64
				for j := range ad {
					std := math.Exp(actor.LogStd[j])
					a := mu[j] + std*rng.NormFloat64()
					bufAct[k*ad+j] = a
					z := (a - mu[j]) / std
					logp += -0.5*z*z - actor.LogStd[j] - 0.5*math.Log(2*math.Pi)
					u := min(max(a, -1), 1) // the sample acts clipped to the box
					act[i*ad+j] = low[j] + (high[j]-low[j])*(u+1)/2
				}
				bufLogP[k] = logp
				bufVal[k] = critic.Mean(x)[0]
			}
			c0 := cputime.Seconds() // the benchmark's split of the CPU time (Result.EnvCPU), not the model's
			if err := b.StepSome(nil, act, obs, rew, term, trunc); err != nil {
				return nil, err
			}
			res.EnvCPU += cputime.Seconds() - c0
			res.EnvSteps += int64(ppoEnvs)
			for i := range ppoEnvs {
				k := step*ppoEnvs + i
				epRet[i] += rew[i]
				// Reward scaling: divide by the running std of the discounted return.
				discRet[i] = discRet[i]*ppoGamma + rew[i]
				retNorm.Update([][]float32{{float32(discRet[i])}})
				bufRew[k] = rew[i] / math.Sqrt(retNorm.Var[0]+1e-8)
				bufDone[k] = term[i] || trunc[i]
				ended[i] = bufDone[k]
				if ended[i] {
					finished = append(finished, epRet[i])
					epRet[i], discRet[i] = 0, 0
					seeds[i] = t.Train.First + uint64(nextSeed%t.Train.Count)
					nextSeed++
				}
			}
			c0 = cputime.Seconds()
			if err := b.Reset(seeds, ended, obs); err != nil {
				return nil, err
			}
			res.EnvCPU += cputime.Seconds() - c0
		}

		// 2. Generalised advantage estimates, bootstrapped from the value of
		// the observation after the rollout (an episode's end, at the
		// task's horizon or before, is terminal: nothing is charged after).
		lastVal := make([]float64, ppoEnvs)
		for i := range ppoEnvs {
			norm.Apply(obs[i*od:(i+1)*od], x)
			lastVal[i] = critic.Mean(x)[0]
		}
		for i := range ppoEnvs {
			gae := 0.0
			for step := ppoRollout - 1; step >= 0; step-- {
				k := step*ppoEnvs + i
				nextVal := lastVal[i]
				if step < ppoRollout-1 {
					nextVal = bufVal[k+ppoEnvs]
				}
				if bufDone[k] {
					nextVal, gae = 0, 0
				}
				delta := bufRew[k] + ppoGamma*nextVal - bufVal[k]
				gae = delta + ppoGamma*ppoLambda*gae
				adv[k] = gae
				ret[k] = gae + bufVal[k]
			}
		}

		// 3. Optimise the clipped surrogate, the value loss and the
		// entropy bonus for ppoEpochs over shuffled minibatches.
		perm := make([]int, n)
		for i := range perm {
			perm[i] = i
		}
		diag := Diagnostics{LR: cfg.LR, ExplainedVar: explainedVariance(bufVal, ret)}
		if cfg.AnnealLR {
			diag.LR = cfg.LR * (1 - float64(iter)/float64(iters))
			net.solver.eta = diag.LR
		}
		var kl, clipped float64
		var batches int
		c0 := cputime.Seconds()
		for range ppoEpochs {
			for i := n - 1; i > 0; i-- { // Fisher-Yates from the run's generator
				j := rng.IntN(i + 1)
				perm[i], perm[j] = perm[j], perm[i]
			}
			for start := 0; start+ppoMinibatch <= n; start += ppoMinibatch {
				idx := perm[start : start+ppoMinibatch]
				bkl, bclip, err := net.train(idx, bufObs, bufAct, bufLogP, adv, ret)
				if err != nil {
					return nil, fmt.Errorf("ppo: iteration %d: %w", iter, err)
				}
				kl, clipped, batches = kl+bkl, clipped+bclip, batches+1
				res.GradSteps++
			}
		}
		res.UpdateCPU += cputime.Seconds() - c0

		// 4. The learning curve: the mean return of the episodes that
		// finished in this rollout (stochastic actions, train seeds), and
		// the update's diagnostics.
		if len(finished) > 0 {
			st := task.NewStat(finished)
			best = max(best, st.Mean)
			diag.ApproxKL, diag.ClipFrac = kl/float64(batches), clipped/float64(batches)
			p := Point{X: float64(res.EnvSteps), Return: st.Mean, Best: best, Diag: &diag}
			res.Curve = append(res.Curve, p)
			if o.Progress != nil {
				o.Progress(p)
			}
		}
		res.Model = net.model(t, o, low, high, norm, res, cfg)
		if o.Checkpoint != nil {
			if err := o.Checkpoint(res.Model); err != nil {
				return nil, err
			}
		}
	}
	if len(res.Curve) > 0 {
		last := res.Curve[len(res.Curve)-1]
		res.Model.TrainReturn = task.Stat{Mean: last.Return}
	}
	return res, nil
}

// ppoNet holds the actor and critic graphs over one minibatch, their
// learnables and the Adam solver.
type ppoNet struct {
	cfg     PPOConfig
	od, ad  int
	g       *G.ExprGraph
	vm      G.VM
	solver  *adam
	learn   G.Nodes
	x, a    *G.Node // inputs: normalised observations, actions
	oldLogP *G.Node
	adv     *G.Node
	ret     *G.Node
	// The inputs' values, made once: train copies each minibatch into them.
	inX, inA, inLogP, inAdv, inRet []float64
	inputs                         []ppoInput
	loss                           *G.Node
	ratio                          G.Value // the probability ratios of the last minibatch (G.Read)
	mu                             *G.Node // the actor's mean, for learn_test.go TestNetMatchesGraph

	aw, ab []*G.Node // actor layers
	cw, cb []*G.Node // critic layers
	logStd *G.Node
}

// newPPONet builds the graphs with weights drawn from rng: orthogonal-like
// scaled Gaussian initialisation (std sqrt(2 / fan_in) for hidden layers,
// 0.01 for the actor's output and 1 / sqrt(fan_in) for the critic's, as
// cleanrl's layer_init gains), zero biases.
func newPPONet(od, ad int, rng *sim.Rand, cfg PPOConfig) *ppoNet {
	p := &ppoNet{cfg: cfg, od: od, ad: ad, g: G.NewGraph()}
	g, M, ppoHidden := p.g, cfg.Minibatch, cfg.Hidden
	mat := func(name string, r, c int, std float64) *G.Node {
		w := make([]float64, r*c)
		for i := range w {
			w[i] = std * rng.NormFloat64()
		}
		return G.NewMatrix(g, tensor.Float64, G.WithShape(r, c), G.WithName(name),
			G.WithValue(tensor.New(tensor.WithShape(r, c), tensor.WithBacking(w))))
	}
	sizes := []int{od, ppoHidden, ppoHidden}
	layers := func(prefix string, out int, outStd float64) (ws, bs []*G.Node) {
		for l := range 3 {
			in, o, std := sizes[l], ppoHidden, math.Sqrt(2/float64(sizes[l]))
			if l == 2 {
				o, std = out, outStd
			}
			ws = append(ws, mat(fmt.Sprintf("%s_w%d", prefix, l), in, o, std))
			bs = append(bs, mat(fmt.Sprintf("%s_b%d", prefix, l), 1, o, 0))
		}
		return ws, bs
	}
	p.aw, p.ab = layers("actor", ad, 0.01)
	p.cw, p.cb = layers("critic", 1, 1/math.Sqrt(float64(ppoHidden)))
	ls := make([]float64, ad)
	for i := range ls {
		ls[i] = cfg.InitLogStd
	}
	p.logStd = G.NewMatrix(g, tensor.Float64, G.WithShape(1, ad), G.WithName("log_std"),
		G.WithValue(tensor.New(tensor.WithShape(1, ad), tensor.WithBacking(ls))))

	p.x = G.NewMatrix(g, tensor.Float64, G.WithShape(M, od), G.WithName("x"))
	p.a = G.NewMatrix(g, tensor.Float64, G.WithShape(M, ad), G.WithName("a"))
	p.oldLogP = G.NewVector(g, tensor.Float64, G.WithShape(M), G.WithName("old_logp"))
	p.adv = G.NewVector(g, tensor.Float64, G.WithShape(M), G.WithName("adv"))
	p.ret = G.NewVector(g, tensor.Float64, G.WithShape(M), G.WithName("ret"))

	mlp := func(ws, bs []*G.Node) *G.Node {
		h := p.x
		for l := range ws {
			h = G.Must(G.BroadcastAdd(G.Must(G.Mul(h, ws[l])), bs[l], nil, []byte{0}))
			if l < len(ws)-1 {
				h = G.Must(G.Tanh(h))
			}
		}
		return h
	}
	p.mu = mlp(p.aw, p.ab)                                       // M x ad
	value := G.Must(G.Reshape(mlp(p.cw, p.cb), tensor.Shape{M})) // M

	// log pi(a|s) = sum_j -0.5 z_j^2 - log std_j - 0.5 log 2 pi, z = (a - mu) / std.
	z := G.Must(G.BroadcastHadamardProd(G.Must(G.Sub(p.a, p.mu)), G.Must(G.Exp(G.Must(G.Neg(p.logStd)))), nil, []byte{0}))
	half := G.NewConstant(0.5)
	logp := G.Must(G.Neg(G.Must(G.Sum(G.Must(G.HadamardProd(half, G.Must(G.Square(z)))), 1))))
	logp = G.Must(G.Sub(logp, G.Must(G.Add(G.Must(G.Sum(p.logStd)), G.NewConstant(0.5*float64(ad)*math.Log(2*math.Pi))))))

	// The clipped surrogate: -mean(min(r A, clip(r, 1-eps, 1+eps) A)).
	ratio := G.Must(G.Exp(G.Must(G.Sub(logp, p.oldLogP))))
	readRatio := G.Read(ratio, &p.ratio)
	lo := G.NewConstant(tensor.New(tensor.WithShape(M), tensor.WithBacking(fill(M, 1-cfg.Clip))))
	hi := G.NewConstant(tensor.New(tensor.WithShape(M), tensor.WithBacking(fill(M, 1+cfg.Clip))))
	clipped := G.Must(G.MaxBetween(G.Must(G.MinBetween(ratio, hi)), lo))
	surr := G.Must(G.MinBetween(G.Must(G.HadamardProd(ratio, p.adv)), G.Must(G.HadamardProd(clipped, p.adv))))
	pgLoss := G.Must(G.Neg(G.Must(G.Mean(surr))))
	// The value loss: 0.5 mean((V - R)^2).
	vLoss := G.Must(G.HadamardProd(half, G.Must(G.Mean(G.Must(G.Square(G.Must(G.Sub(value, p.ret))))))))
	// The Gaussian's entropy: sum_j log std_j + 0.5 log(2 pi e).
	entropy := G.Must(G.Add(G.Must(G.Sum(p.logStd)), G.NewConstant(0.5*float64(ad)*math.Log(2*math.Pi*math.E))))
	p.loss = G.Must(G.Add(pgLoss, G.Must(G.Sub(G.Must(G.HadamardProd(G.NewConstant(cfg.VfCoef), vLoss)),
		G.Must(G.HadamardProd(G.NewConstant(cfg.EntCoef), entropy))))))

	p.learn = append(append(append(append(G.Nodes{}, p.aw...), p.ab...), append(p.cw, p.cb...)...), p.logStd)
	grads, err := G.Grad(p.loss, p.learn...)
	if err != nil {
		panic(fmt.Sprintf("ppo: building the gradient: %v", err)) // a bug in the graph above
	}
	// The machine runs only what the loss, the ratios read and the
	// learnables' gradients need: G.Grad also derives the loss with respect
	// to the observations (two 64 x 64 by 64 x od products per step), which
	// nothing reads.
	p.vm = G.NewTapeMachine(g.ExactSubgraphRoots(append(G.Nodes{p.loss, readRatio}, grads...)...), G.BindDualValues(p.learn...))
	p.solver = newAdam(cfg.LR, p.learn)
	p.inX, p.inA = make([]float64, M*od), make([]float64, M*ad)
	p.inLogP, p.inAdv, p.inRet = make([]float64, M), make([]float64, M), make([]float64, M)
	for _, in := range []struct {
		n    *G.Node
		data []float64
		sh   tensor.Shape
	}{{p.x, p.inX, tensor.Shape{M, od}}, {p.a, p.inA, tensor.Shape{M, ad}}, {p.oldLogP, p.inLogP, tensor.Shape{M}}, {p.adv, p.inAdv, tensor.Shape{M}}, {p.ret, p.inRet, tensor.Shape{M}}} {
		p.inputs = append(p.inputs, ppoInput{in.n, tensor.New(tensor.WithShape(in.sh...), tensor.WithBacking(in.data))})
	}
	return p
}

// ppoInput is an input node and the value train gives it.
type ppoInput struct {
	n *G.Node
	v *tensor.Dense
}

// adam is Adam (Kingma and Ba, "Adam: A Method for Stochastic
// Optimization", ICLR 2015; beta1 0.9, beta2 0.999, epsilon 1e-8) on the
// learnables' values and gradients in place. It replaces gorgonia's
// AdamSolver (v0.9.18, solvers.go), whose Step made four copies of every
// parameter per step (a third of the update's allocations), with the same
// floating-point operations in the same order, each rounded as there (the
// float64 conversions keep the compiler from fusing a multiply and an add),
// so the weights, and the model file, are the same bit for bit.
type adam struct {
	eta, beta1, beta2, eps float64 // variables, not constants: 1 - beta1 is rounded as gorgonia rounds it
	iter                   int
	m, v                   [][]float64 // the moments, one slice per learnable
}

// newAdam starts Adam at learning rate eta with zero moments for learn.
func newAdam(eta float64, learn G.Nodes) *adam {
	s := &adam{eta: eta, beta1: 0.9, beta2: 0.999, eps: 1e-8}
	for _, n := range learn {
		s.m = append(s.m, make([]float64, n.Shape().TotalSize()))
		s.v = append(s.v, make([]float64, n.Shape().TotalSize()))
	}
	return s
}

// step moves each weight w[i] along its gradient g[i] and zeroes the gradient.
func (s *adam) step(w, g [][]float64) {
	s.iter++
	c1 := 1 / (1 - math.Pow(s.beta1, float64(s.iter)))
	c2 := 1 / (1 - math.Pow(s.beta2, float64(s.iter)))
	omb1, omb2, negEta := 1-s.beta1, 1-s.beta2, -s.eta
	for i := range w {
		m, v, wi, gi := s.m[i], s.v[i], w[i], g[i]
		for j, gj := range gi {
			m[j] = float64(gj*omb1) + float64(m[j]*s.beta1)             // m = beta1 m + (1 - beta1) g
			v[j] = float64(float64(gj*gj)*omb2) + float64(v[j]*s.beta2) // v = beta2 v + (1 - beta2) g^2
			mHat, vHat := float64(m[j]*c1), float64(v[j]*c2)
			wi[j] += float64(mHat*negEta) / (math.Sqrt(vHat) + s.eps) // w -= eta mHat / (sqrt(vHat) + eps)
			gi[j] = 0
		}
	}
}

func fill(n int, v float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// train takes one Adam step on the minibatch of samples idx and returns
// the minibatch's approximate KL divergence and clipped share (Diagnostics).
func (p *ppoNet) train(idx []int, obs, act, oldLogP, adv, ret []float64) (kl, clipFrac float64, err error) {
	M, od, ad := len(idx), p.od, p.ad
	xb, ab, lb, vb, rb := p.inX, p.inA, p.inLogP, p.inAdv, p.inRet
	for r, k := range idx {
		copy(xb[r*od:(r+1)*od], obs[k*od:(k+1)*od])
		copy(ab[r*ad:(r+1)*ad], act[k*ad:(k+1)*ad])
		lb[r], vb[r], rb[r] = oldLogP[k], adv[k], ret[k]
	}
	// Advantages normalised per minibatch (cleanrl's norm_adv).
	st := task.NewStat(vb)
	sd := st.SE * math.Sqrt(float64(M))
	for i := range vb {
		vb[i] = (vb[i] - st.Mean) / (sd + 1e-8)
	}
	for _, in := range p.inputs {
		if err := G.Let(in.n, in.v); err != nil {
			return 0, 0, err
		}
	}
	defer p.vm.Reset()
	if err := p.vm.RunAll(); err != nil {
		return 0, 0, err
	}
	for _, r := range p.ratio.Data().([]float64) {
		kl += (r - 1) - math.Log(r)
		if math.Abs(r-1) > p.cfg.Clip {
			clipFrac++
		}
	}
	kl, clipFrac = kl/float64(M), clipFrac/float64(M)
	// Clip the gradients' global norm.
	var sq float64
	weights, grads := make([][]float64, len(p.learn)), make([][]float64, len(p.learn))
	for i, n := range p.learn {
		gv, err := n.Grad()
		if err != nil {
			return 0, 0, err
		}
		weights[i], grads[i] = n.Value().Data().([]float64), gv.Data().([]float64)
		for _, v := range grads[i] {
			sq += v * v
		}
	}
	if norm := math.Sqrt(sq); norm > p.cfg.MaxGradNorm {
		for _, gr := range grads {
			for j := range gr {
				gr[j] *= p.cfg.MaxGradNorm / norm
			}
		}
	}
	p.solver.step(weights, grads)
	return kl, clipFrac, nil
}

// snapshot copies the current weights into plain-Go networks for acting.
func (p *ppoNet) snapshot() (actor, critic *Net) {
	val := func(n *G.Node) []float64 { return append([]float64(nil), n.Value().Data().([]float64)...) }
	mk := func(ws, bs []*G.Node, out int) *Net {
		nt := &Net{Sizes: []int{p.od, p.cfg.Hidden, p.cfg.Hidden, out}}
		for l := range ws {
			nt.W = append(nt.W, val(ws[l]))
			nt.B = append(nt.B, val(bs[l]))
		}
		return nt
	}
	actor = mk(p.aw, p.ab, p.ad)
	actor.LogStd = val(p.logStd)
	return actor, mk(p.cw, p.cb, 1)
}

// model saves the actor as a policy Model.
func (p *ppoNet) model(t task.Task, o Options, low, high []float64, norm *ObsNorm, res *Result, c PPOConfig) *Model {
	actor, _ := p.snapshot()
	nc := *norm
	nc.Mean = append([]float64(nil), norm.Mean...)
	nc.Var = append([]float64(nil), norm.Var...)
	return &Model{Version: ModelVersion, Task: t.ID, Algo: "ppo", Seed: o.Seed, Kind: KindPolicy, Params: t.Env.Controlled,
		Low: low, High: high, Policy: actor, Norm: &nc, Budget: o.Budget, EnvSteps: res.EnvSteps,
		Hyper: c.hyper()}
}

// hyper is the configuration as the model file records it (anneal_lr and
// obs_clip only when they differ from the defaults, so that a model trained
// at the defaults is the same file as before they could be set).
func (c PPOConfig) hyper() map[string]float64 {
	h := map[string]float64{"envs": float64(c.Envs), "rollout": float64(c.Rollout), "gamma": c.Gamma, "lambda": c.Lambda,
		"epochs": float64(c.Epochs), "minibatch": float64(c.Minibatch), "clip": c.Clip, "ent_coef": c.EntCoef, "vf_coef": c.VfCoef,
		"lr": c.LR, "max_grad_norm": c.MaxGradNorm, "hidden": float64(c.Hidden), "init_log_std": c.InitLogStd}
	if c.AnnealLR {
		h["anneal_lr"] = 1
	}
	if c.ObsClip != DefaultPPOConfig().ObsClip {
		h["obs_clip"] = c.ObsClip
	}
	return h
}

// explainedVariance is 1 - Var(ret - val) / Var(ret) over a rollout: how
// much of the returns' variance the value function accounts for (1 at
// best; 0 or below: no better than a constant). NaN when the returns do
// not vary.
func explainedVariance(val, ret []float64) float64 {
	diff := make([]float64, len(ret))
	for i := range ret {
		diff[i] = ret[i] - val[i]
	}
	vr := stat.Variance(ret, nil)
	if vr == 0 {
		return math.NaN()
	}
	return 1 - stat.Variance(diff, nil)/vr
}
