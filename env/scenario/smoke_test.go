package scenario

import (
	"testing"

	"yarngym/env/sim"
)

func TestSmokeAll(t *testing.T) {
	for _, name := range Builtins() {
		sc, err := Load(name, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		cfg, err := sc.Build(1, "")
		if err != nil {
			t.Fatal(err)
		}
		s, err := sim.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		sum := s.Run()
		t.Logf("%s: %+v", name, sum)
	}
}
