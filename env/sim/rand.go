package sim

import "math"

// Rand is a small, fast, explicitly seeded generator (SplitMix64). It
// implements math/rand/v2's Source interface (Uint64), so gonum distributions
// can draw from it. The zero value is a valid generator with seed 0.
type Rand struct{ state uint64 }

// NewRand returns a generator seeded with seed.
func NewRand(seed uint64) *Rand { return &Rand{state: seed} }

// Uint64 returns the next 64 random bits.
func (r *Rand) Uint64() uint64 {
	r.state += 0x9e3779b97f4a7c15
	return mix64(r.state)
}

// Float64 returns a uniform draw in [0, 1).
func (r *Rand) Float64() float64 { return float64(r.Uint64()>>11) * 0x1p-53 }

// IntN returns a uniform draw in [0, n); n must be positive.
func (r *Rand) IntN(n int) int { return int(r.Uint64() % uint64(n)) }

// NormFloat64 returns a standard normal draw (Box-Muller, one value per call).
func (r *Rand) NormFloat64() float64 {
	u1 := r.Float64()
	if u1 < 1e-300 {
		u1 = 1e-300
	}
	u2 := r.Float64()
	return math.Sqrt(-2*math.Log(u1)) * math.Cos(2*math.Pi*u2)
}

// normSkip moves r past one NormFloat64 draw (two Uint64s) without making
// it: SplitMix64's state moves by a constant per draw.
func (r *Rand) normSkip() {
	r.state += 0x9e3779b97f4a7c15
	r.state += 0x9e3779b97f4a7c15
}

func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// DeriveSeed mixes a seed with labels into an independent seed, so that each
// purpose (workload, placement, a task's usage noise) draws from its own
// stream and adding draws to one stream never shifts another.
func DeriveSeed(seed uint64, labels ...uint64) uint64 {
	h := mix64(seed ^ 0x6a09e667f3bcc909)
	for _, l := range labels {
		h = mix64(h ^ (l + 0x9e3779b97f4a7c15))
	}
	return h
}

// HashString turns a name into a label for DeriveSeed (FNV-1a).
func HashString(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}
