package base

// ByJobID returns s lengthened with zero values, where needed, so that
// s[id] exists: the policies keep per-job state in slices indexed by job ID
// (a run's IDs count up from 0), cheaper on their hot paths than maps.
func ByJobID[T any](s []T, id int32) []T {
	if n := int(id) + 1; n > len(s) {
		s = append(s, make([]T, n-len(s))...)
	}
	return s
}
