// Package scenario reads yarngym's scenario files (TOML): the cluster, the
// model constants, the policy with its parameters and queues, the workload
// (explicit jobs, a built-in generator, or a trace) and run settings. Built-in
// scenarios are embedded from builtin/.
//
// Errors name the file, the key and the reason, and a scenario that fails to
// load or build never yields a half-configured run.
package scenario
