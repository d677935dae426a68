// Package all registers every paper's reproduction with package repro.
package all

import _ "yarngym/benchmarks/repro/dress"
import _ "yarngym/benchmarks/repro/autoadmin"
import _ "yarngym/benchmarks/repro/opera"
import _ "yarngym/benchmarks/repro/ikayak"
import _ "yarngym/benchmarks/repro/ras"
import _ "yarngym/benchmarks/repro/rumen"
