package env

// An environment runs its scenario's policy, built by name from
// base.Policies; this import registers every policy yarngym ships, so that
// a Go program using this package has them all (env/sim and scenario
// loading, below the policies, import none).
import _ "yarngym/policies"
