#!/bin/sh
# `longpole compare` of two runs of one simulated build against `longpole
# analyze` of one of them, as whole processes, interleaved: the issue's
# target is that comparing two logs with their graphs takes at most 2.5x
# the time of analysing one. The two runs come from distbuild-sim
# (`--rerun`: the same graph and work, another schedule and jitter, one
# node slowed). Prints median and spread of wall time and peak RSS and the
# ratio, for the text report (which makes only the rows it shows) and for
# `--format json` (every key's row).
# Usage: crates/bench/cli/compare.sh [RUNS] NODES
set -eu
runs=3
case ${1:-} in (*[!0-9]*|'') ;; (*) runs=$1; shift ;; esac
[ $# -eq 1 ] || { echo "usage: compare.sh [RUNS] NODES" >&2; exit 2; }
nodes=$1
root=$(cd "$(dirname "$0")/../../.." && pwd)
(cd "$root" && cargo build --release -q -p longpole-cli -p longpole-distbuild-sim)
longpole="$root/target/release/longpole"
sim="$root/target/release/distbuild-sim"
data="$root/target/bench-data"
mkdir -p "$data"
a="$data/compare-$nodes-a" b="$data/compare-$nodes-b"
hosts=$((nodes / 50 + 1))
[ -f "$a.log" ] || "$sim" --nodes "$nodes" --hosts "$hosts" --slots 8 --rerun 1 --jitter 0.02 --log "$a.log" --graph "$a.json"
[ -f "$b.log" ] || "$sim" --nodes "$nodes" --hosts "$hosts" --slots 8 --rerun 2 --jitter 0.02 --slow 7:3 --log "$b.log" --graph "$b.json"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
i=0
while [ "$i" -lt "$runs" ]; do
  /usr/bin/time -a -o "$tmp/one" -f '%e %M' "$longpole" analyze "$a.log" "$a.json" >/dev/null
  /usr/bin/time -a -o "$tmp/two" -f '%e %M' "$longpole" compare "$a.log" "$a.json" --vs "$b.log" "$b.json" >/dev/null
  /usr/bin/time -a -o "$tmp/json" -f '%e %M' "$longpole" compare --format json "$a.log" "$a.json" --vs "$b.log" "$b.json" >/dev/null
  i=$((i + 1))
done
. "$root/crates/bench/timing.sh"
bytes=$(cat "$a.log" "$a.json" | wc -c)
echo "one run: $a.log and its graph ($((bytes / 1000000)) MB), $runs runs each, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
header 24 run
row 24 "analyze A" "$tmp/one"
row 24 "compare A --vs B" "$tmp/two"
row 24 "the same, --format json" "$tmp/json"
awk -v a="$(median "$tmp/one")" -v b="$(median "$tmp/two")" -v j="$(median "$tmp/json")" 'BEGIN { d = a > 0 ? a : 0.01; printf "compare / analyze (median wall): %.2fx; as JSON %.2fx\n", b / d, j / d }'
