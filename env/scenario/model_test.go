package scenario_test

import (
	"testing"

	"yarngym/env/scenario"
	"yarngym/env/sim"
)

// TestDiskThrashExponentKey: model.disk_thrash_exponent absent takes the
// model's default (a hard disk), an explicit 0 is ideal sharing (not the
// default), and a positive value is used as given, in the file or by --set.
// Reference: sim.Model.DiskThrashExponent (RAS Sec. 4.2; the default is an
// assumption of the model).
func TestDiskThrashExponentKey(t *testing.T) {
	cases := []struct {
		name  string
		model string
		sets  []string
		want  float64 // resolved by the engine
	}{
		{"absent: the default", "", nil, sim.DefaultDiskThrashExponent},
		{"explicit 0: ideal sharing", "[model]\ndisk_thrash_exponent = 0\n", nil, 0},
		{"explicit 0.0: ideal sharing", "[model]\ndisk_thrash_exponent = 0.0\n", nil, 0},
		{"explicit 0.7", "[model]\ndisk_thrash_exponent = 0.7\n", nil, 0.7},
		{"integer 1", "[model]\ndisk_thrash_exponent = 1\n", nil, 1},
		{"--set 0 overrides the default", "", []string{"model.disk_thrash_exponent=0"}, 0},
		{"--set 0.25 overrides the file's 0", "[model]\ndisk_thrash_exponent = 0\n", []string{"model.disk_thrash_exponent=0.25"}, 0.25},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sc, err := scenario.Parse([]byte(good+c.model), "case.toml", ".", c.sets)
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			cfg, err := sc.Build(1, "")
			if err != nil {
				t.Fatal(err)
			}
			s, err := sim.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if got := s.Model().DiskThrashExponent; got != c.want {
				t.Fatalf("disk thrash exponent %v, want %v (sim.Model field %v)", got, c.want, cfg.Model.DiskThrashExponent)
			}
		})
	}
}
