#!/bin/sh
# Whole `longpole analyze` processes on the same files at 1 thread and at
# every core (--threads), interleaved, with `wc -l` on the same files as the
# I/O floor. Prints median and spread (min-max) of wall time and peak RSS
# (/usr/bin/time -f '%e %M') and the speed-up.
# Usage: crates/bench/cli/threads.sh [RUNS] FILE...
set -eu
runs=5
case ${1:-} in (*[!0-9]*|'') ;; (*) runs=$1; shift ;; esac
[ $# -gt 0 ] || { echo "usage: threads.sh [RUNS] FILE..." >&2; exit 2; }
root=$(cd "$(dirname "$0")/../../.." && pwd)
longpole="$root/target/release/longpole"
(cd "$root" && cargo build --release -q -p longpole-cli)
cores=$(nproc)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
i=0
while [ "$i" -lt "$runs" ]; do
  /usr/bin/time -a -o "$tmp/t1" -f '%e %M' "$longpole" analyze --threads 1 "$@" >/dev/null
  /usr/bin/time -a -o "$tmp/tn" -f '%e %M' "$longpole" analyze --threads "$cores" "$@" >/dev/null
  /usr/bin/time -a -o "$tmp/wc" -f '%e %M' wc -l "$@" >/dev/null
  i=$((i + 1))
done
. "$root/crates/bench/timing.sh"
bytes=$(cat "$@" | wc -c)
echo "inputs: $* ($((bytes / 1000000)) MB), $runs runs each, $cores cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
header 22 run
row 22 "longpole, 1 thread" "$tmp/t1"
row 22 "longpole, $cores threads" "$tmp/tn"
row 22 "wc -l" "$tmp/wc"
a=$(median "$tmp/t1")
b=$(median "$tmp/tn")
w=$(median "$tmp/wc")
awk -v a="$a" -v b="$b" -v w="$w" -v c="$cores" 'BEGIN {
  printf "speed-up at %d threads (median wall): %.2fx; longpole at %d threads / wc -l: %.1fx\n", c, a / b, c, b / (w > 0 ? w : 0.01)
}'
