package learn

import (
	"strings"
	"testing"

	"yarngym/env/task"
)

func TestParsePPOConfig(t *testing.T) {
	if c, err := ParsePPOConfig(""); err != nil || c != DefaultPPOConfig() {
		t.Fatalf("empty: %+v, %v; want the defaults", c, err)
	}
	c, err := ParsePPOConfig("lr=1e-3, anneal_lr=true,epochs=4,minibatch=32")
	want := DefaultPPOConfig()
	want.LR, want.AnnealLR, want.Epochs, want.Minibatch = 1e-3, true, 4, 32
	if err != nil || c != want {
		t.Fatalf("got %+v, %v; want %+v", c, err, want)
	}
	for in, why := range map[string]string{
		"lrr=1":          `unknown key "lrr"`,
		"lr":             "want KEY=VALUE",
		"epochs=2.5":     "not an integer",
		"anneal_lr=yes":  "not true or false",
		"minibatch=9999": "outside [1, envs x rollout",
		"gamma=1.5":      "must be in [0, 1]",
		"lr=0":           "must be positive",
	} {
		if _, err := ParsePPOConfig(in); err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("%q: %v, want %q", in, err, why)
		}
	}
}

// TestPPODiagnostics: each curve point carries its update's diagnostics
// (approximate KL not negative, clipped share in [0, 1]); with anneal_lr
// the learning rate falls linearly from LR, and the model file records it.
func TestPPODiagnostics(t *testing.T) {
	tk, err := task.Lookup("AutoAdmin66-Fair-v0")
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultPPOConfig()
	cfg.AnnealLR = true
	n := cfg.Envs * cfg.Rollout
	res, err := Train("ppo", tk, Options{Budget: 4 * n, Seed: 2, PPO: &cfg})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Curve) == 0 {
		t.Fatal("no curve point")
	}
	for _, p := range res.Curve {
		if p.Diag == nil {
			t.Fatalf("point at %v has no diagnostics", p.X)
		}
		d := *p.Diag
		if d.ApproxKL < 0 || d.ClipFrac < 0 || d.ClipFrac > 1 {
			t.Errorf("point at %v: %+v out of range", p.X, d)
		}
		iter := int(p.X)/n - 1
		if want := cfg.LR * (1 - float64(iter)/4); d.LR != want {
			t.Errorf("point at %v (update %d): learning rate %v, want %v", p.X, iter, d.LR, want)
		}
	}
	if res.Model.Hyper["anneal_lr"] != 1 {
		t.Errorf("model hyper-parameters %v do not record anneal_lr", res.Model.Hyper)
	}
	if _, ok := DefaultPPOConfig().hyper()["anneal_lr"]; ok {
		t.Error("the default configuration records anneal_lr: default models would change bytes")
	}
}
