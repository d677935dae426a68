#!/usr/bin/env bash
# Whether this tree's runs give the same bytes as an earlier commit's: every
# built-in scenario under its own policy and the three stock schedulers,
# seeds 1 and 2, through `yarngym run --out`, with the summary printed, the
# messages, the exit status and every file written (summary.json, jobs.csv, tasks.csv)
# compared byte for byte. An engine change that is not meant to change the
# model must leave every run identical; one that is meant to must say which
# runs moved and why.
#
#   benchmarks/identical.sh BASE [SCENARIO...]
#   make identical BASE=<commit>
#
# scale-50k runs one of its 17 day copies (--set workload.options.repeat=1,
# Fair only): its whole run takes minutes and repeats the same day.
set -euo pipefail
base=${1:?usage: benchmarks/identical.sh BASE [SCENARIO...]}
shift
. "$(dirname "$0")/basetree.sh" "$base"
echo "building yarngym at $base and at this tree" >&2
(cd "$work/base" && go build -o "$work/base.bin" ./cmd/yarngym)
go build -o "$work/head.bin" ./cmd/yarngym
if [ $# -gt 0 ]; then
  scenarios=("$@")
else
  mapfile -t scenarios < <("$work/head.bin" scenarios | awk 'NR > 1 && NF == 0 { exit } NR > 1 { print $1 }')
fi
runs=0
differ=0
failed=0
for sc in "${scenarios[@]}"; do
  own=$("$work/head.bin" scenarios "$sc" | awk '/^\[policy\]/ { p = 1; next } p && /^name *=/ { gsub(/[" ]/, "", $0); sub(/^name=/, "", $0); print; exit }')
  policies=("$own" fifo fair capacity)
  extra=()
  if [ "$sc" = scale-50k ]; then
    policies=(fair)
    extra=(--set workload.options.repeat=1)
  fi
  seen=" "
  for pol in "${policies[@]}"; do
    case "$seen" in *" $pol "*) continue ;; esac
    seen="$seen$pol "
    for seed in 1 2; do
      for side in base head; do
        out="$work/$side/$sc-$pol-$seed"
        mkdir -p "$out"
        set +e
        "$work/$side.bin" run "$sc" --policy "$pol" --seed "$seed" "${extra[@]}" --out "$out/files" >"$out/stdout" 2>"$out/stderr"
        echo "exit $?" >"$out/status"
        # stderr names the output folder, which differs by side
        sed -i "s|$work/$side/|OUT/|g" "$out/stderr"
        set -e
      done
      runs=$((runs + 1))
      if [ "$(cat "$work/head/$sc-$pol-$seed/status")" != "exit 0" ]; then
        failed=$((failed + 1))
        echo "exit status not 0 (on this tree): $sc under $pol, seed $seed: $(head -c 300 "$work/head/$sc-$pol-$seed/stderr")" >&2
      fi
      if ! diff -r "$work/base/$sc-$pol-$seed" "$work/head/$sc-$pol-$seed" >/dev/null; then
        differ=$((differ + 1))
        echo "DIFFERS: $sc under $pol, seed $seed" >&2
        diff -rq "$work/base/$sc-$pol-$seed" "$work/head/$sc-$pol-$seed" >&2 || true
      fi
    done
  done
done
echo "# $base (base) against $(git rev-parse --short HEAD)$(git diff --quiet || echo ' with uncommitted changes') (head): $runs runs ($failed of them not exit 0 on this tree), $differ differ"
[ "$differ" -eq 0 ]
