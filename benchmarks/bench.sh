#!/usr/bin/env bash
# make bench: the engine's figures on this tree, each benchmark alone in its
# process on one core (so its peak memory is its own), then the SWIM FB-2009
# day, scale-50k and decima-tpch beside an earlier commit's, built and run
# here (benchmarks/compare.sh: machines differ, so the ratios are what
# means something).
#
#   benchmarks/bench.sh [BASE]
#
# BASE defaults to aa3544a, main before issue 28's engine work. The
# 1,000,000-job run (BenchmarkMillionJobs: the FB-2009 day 170 times, one
# after another, on its 600 nodes) reports its peak memory; with the
# comparison the whole takes about 15 minutes.
set -euo pipefail
base=${1:-aa3544a}
root=$(git rev-parse --show-toplevel)
cd "$root"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Built as the yarngym binary is: with its profile-guided optimisation.
pgo=-pgo=off
if [ -f cmd/yarngym/default.pgo ]; then pgo=-pgo=$root/cmd/yarngym/default.pgo; fi
go test -c "$pgo" -o "$work/bench.test" ./benchmarks
go test -c "$pgo" -o "$work/env.test" ./env
pin=()
if command -v taskset >/dev/null 2>&1; then pin=(taskset -c 0); fi
echo "# this tree ($(git rev-parse --short HEAD)$(git diff --quiet || echo ', uncommitted changes')), one benchmark per process, one core"
for n in $("$work/bench.test" -test.list '^Benchmark' | grep '^Benchmark'); do
  (cd benchmarks && GOMAXPROCS=1 "${pin[@]}" "$work/bench.test" -test.run '^$' -test.bench "^$n\$" -test.benchtime 1x) | grep '^Benchmark' || true
done
for n in $("$work/env.test" -test.list '^Benchmark' | grep '^Benchmark'); do
  (cd env && GOMAXPROCS=1 "${pin[@]}" "$work/env.test" -test.run '^$' -test.bench "^$n\$" -test.benchtime 1x) | grep '^Benchmark' || true
done
echo
benchmarks/compare.sh "$base" '^Benchmark(SWIMDay|Scale50k|TPCH)$' 1
