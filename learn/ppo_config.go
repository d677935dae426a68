package learn

import (
	"fmt"
	rf "reflect"
	"strconv"
	"strings"
)

// ppoKeys names PPOConfig's fields as --ppo and model files spell them.
var ppoKeys = []struct{ key, field string }{
	{"envs", "Envs"}, {"rollout", "Rollout"}, {"gamma", "Gamma"}, {"lambda", "Lambda"}, {"epochs", "Epochs"},
	{"minibatch", "Minibatch"}, {"clip", "Clip"}, {"ent_coef", "EntCoef"}, {"vf_coef", "VfCoef"}, {"lr", "LR"},
	{"anneal_lr", "AnnealLR"}, {"max_grad_norm", "MaxGradNorm"}, {"hidden", "Hidden"}, {"init_log_std", "InitLogStd"},
	{"obs_clip", "ObsClip"},
}

// PPOConfigKeys lists the keys ParsePPOConfig takes.
func PPOConfigKeys() string {
	var k []string
	for _, e := range ppoKeys {
		k = append(k, e.key)
	}
	return strings.Join(k, ", ")
}

// ParsePPOConfig reads "KEY=VALUE,..." over DefaultPPOConfig ("" gives the
// defaults); anneal_lr takes true/false or 1/0. The result is checked.
func ParsePPOConfig(s string) (PPOConfig, error) {
	c := DefaultPPOConfig()
	v := rf.ValueOf(&c).Elem()
	for _, kv := range strings.Split(s, ",") {
		if kv = strings.TrimSpace(kv); kv == "" {
			continue
		}
		key, val, ok := strings.Cut(kv, "=")
		if !ok {
			return c, fmt.Errorf("%q: want KEY=VALUE", kv)
		}
		field := ""
		for _, e := range ppoKeys {
			if e.key == strings.TrimSpace(key) {
				field = e.field
			}
		}
		if field == "" {
			return c, fmt.Errorf("unknown key %q (keys: %s)", key, PPOConfigKeys())
		}
		f := v.FieldByName(field)
		val = strings.TrimSpace(val)
		switch f.Kind() {
		case rf.Int:
			n, err := strconv.Atoi(val)
			if err != nil {
				return c, fmt.Errorf("%s: %q is not an integer", key, val)
			}
			f.SetInt(int64(n))
		case rf.Float64:
			x, err := strconv.ParseFloat(val, 64)
			if err != nil {
				return c, fmt.Errorf("%s: %q is not a number", key, val)
			}
			f.SetFloat(x)
		case rf.Bool:
			b, err := strconv.ParseBool(val)
			if err != nil {
				return c, fmt.Errorf("%s: %q is not true or false", key, val)
			}
			f.SetBool(b)
		}
	}
	return c, c.check()
}
