#!/usr/bin/env bash
# The engine's benchmarks on this tree beside the same benchmarks of an
# earlier commit, both built and run here in one session, alternating, each
# benchmark alone in its process on one core (GOMAXPROCS=1, pinned to CPU 0
# where taskset exists): machines differ, so only the ratios mean something.
# benchstat (golang.org/x/perf, a tool of go.mod) prints each metric side by
# side: tasks/cpu-s and cpu-s/run for the CPU per task, peak-rss-MB for the
# memory (this tree's side only where the earlier commit lacks the metric),
# and events/run, equal on both sides where the model did not change.
# Each side's benchmarks are built as its yarngym binary is: with profile-
# guided optimisation from its cmd/yarngym/default.pgo where it has one
# (go build uses it by itself; go test must be told).
#
#   benchmarks/compare.sh BASE [REGEX] [COUNT]
#   make bench-compare BASE=4a6deb9
#
# BASE is any commit; REGEX picks benchmarks of package benchmarks (default
# the SWIM FB-2009 day, scale-50k and decima-tpch); COUNT runs each that many
# times per side (default 3).
set -euo pipefail
base=${1:?usage: benchmarks/compare.sh BASE [REGEX] [COUNT]}
regex=${2:-'^Benchmark(SWIMDay|Scale50k|TPCH)$'}
count=${3:-3}
. "$(dirname "$0")/basetree.sh" "$base"
echo "building the benchmarks of $base and of this tree" >&2
pgo() { if [ -f "$1/cmd/yarngym/default.pgo" ]; then echo "-pgo=$1/cmd/yarngym/default.pgo"; else echo "-pgo=off"; fi; }
(cd "$work/base" && go test -c "$(pgo "$work/base")" -o "$work/base.test" ./benchmarks)
go test -c "$(pgo "$root")" -o "$work/head.test" ./benchmarks
# keep passes on a benchmark line's name, iterations and the metrics that
# matter here.
keep() {
  awk '{ out = $1 " " $2; for (i = 3; i < NF; i += 2) if ($(i+1) ~ /^(tasks\/cpu-s|cpu-s\/run|peak-rss-MB|events\/run)$/) out = out " " $i " " $(i+1); print out }'
}
pin=()
if command -v taskset >/dev/null 2>&1; then pin=(taskset -c 0); fi
names=$("$work/head.test" -test.list "$regex" | grep '^Benchmark' || true)
if [ -z "$names" ]; then
  echo "no benchmark of package benchmarks matches $regex" >&2
  exit 2
fi
: >"$work/base.txt"
: >"$work/head.txt"
for i in $(seq "$count"); do
  for n in $names; do
    for side in base head; do
      echo "run $i/$count: $n ($side)" >&2
      (cd benchmarks && GOMAXPROCS=1 "${pin[@]}" "$work/$side.test" -test.run '^$' -test.bench "^$n\$" -test.benchtime 1x) |
        grep '^Benchmark' | keep >>"$work/$side.txt"
    done
  done
done
echo "# $base (base) against $(git rev-parse --short HEAD)$(git diff --quiet || echo ' with uncommitted changes') (head)"
go tool benchstat base="$work/base.txt" head="$work/head.txt"
