package learn

import (
	"testing"

	"yarngym/env/sim"
)

// BenchmarkPPO measures PPO's training throughput on AutoAdmin-v0, the
// task of the README's comparison with SB3 (one op: one iteration of Envs x
// Rollout steps and Epochs epochs, DefaultPPOConfig): environment steps and gradient steps per second of
// the whole, and each over the CPU time of its own part (env-only: stepping
// and resetting the environments; update-only: the gradient steps).
func BenchmarkPPO(b *testing.B) {
	tk := mustTask(b, "AutoAdmin-v0")
	b.ResetTimer()
	c := DefaultPPOConfig()
	res, err := Train("ppo", tk, Options{Budget: b.N * c.Envs * c.Rollout, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(res.EnvSteps)/sec, "env-steps/s")
	b.ReportMetric(float64(res.GradSteps)/sec, "grad-steps/s")
	b.ReportMetric(float64(res.EnvSteps)/res.EnvCPU, "env-only-steps/CPU-s")
	b.ReportMetric(float64(res.GradSteps)/res.UpdateCPU, "update-only-grad-steps/CPU-s")
}

// BenchmarkPPOUpdate measures PPO's update alone: one op is one rollout's
// Epochs passes of minibatch gradient steps (DefaultPPOConfig: 10 x 4) on a
// synthetic rollout of AutoAdmin66-Fair-v0's shape (25 observations, 1
// action), no environment.
func BenchmarkPPOUpdate(b *testing.B) {
	c := DefaultPPOConfig()
	od, ad, n := 25, 1, c.Envs*c.Rollout
	rng := sim.NewRand(1)
	net := newPPONet(od, ad, rng, c)
	obs, act := make([]float64, n*od), make([]float64, n*ad)
	logp, adv, ret := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range obs {
		obs[i] = rng.NormFloat64()
	}
	for i := range act {
		act[i] = rng.NormFloat64() * 0.6
	}
	for i := range n {
		logp[i], adv[i], ret[i] = -0.5*act[i*ad]*act[i*ad], rng.NormFloat64(), rng.NormFloat64()
	}
	perm := make([]int, n)
	b.ResetTimer()
	steps := 0
	for range b.N {
		for range c.Epochs {
			for i := range perm {
				perm[i] = i
			}
			for i := n - 1; i > 0; i-- {
				j := rng.IntN(i + 1)
				perm[i], perm[j] = perm[j], perm[i]
			}
			for start := 0; start+c.Minibatch <= n; start += c.Minibatch {
				if _, _, err := net.train(perm[start:start+c.Minibatch], obs, act, logp, adv, ret); err != nil {
					b.Fatal(err)
				}
				steps++
			}
		}
	}
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "grad-steps/s")
}
