package registry

import "testing"

func TestNearest(t *testing.T) {
	cands := []string{"vcores", "mem_mb", "count", "seed", "seeds", "max_am_share"}
	for word, want := range map[string]string{"vcore": "vcores", "VCores": "vcores", "mem-mb": "mem_mb", "mem": "mem_mb",
		"sed": "seed", "seedz": "seed", "max_am_shar": "max_am_share", "colour": "", "x": "", "": "", "seed": "seeds", "cuont": "count"} {
		if got := Nearest(word, cands); got != want {
			t.Errorf("Nearest(%q) = %q, want %q", word, got, want)
		}
	}
}
