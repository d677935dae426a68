// Package workload builds the jobs a scenario runs: generators for each
// paper's experiments and loaders for real traces. Every generator takes
// typed options (decoded from a scenario's [workload.options] table, with the
// paper's setup as defaults) and a seeded generator, and returns job specs;
// the same options and seed give the same jobs.
//
// Where a paper does not state a number the generator needs (task durations,
// AM sizes, submission spacing), the default is chosen and documented in the
// generator's options, and marked "assumed".
package workload
