package runner

// Running a scenario builds its policy by name (env/policy's registry);
// this import registers every policy yarngym ships, so that whatever runs
// scenarios through this package (the command, the C ABI, the benchmarks)
// has them all. The layers below it import none.
import _ "yarngym/policies"
