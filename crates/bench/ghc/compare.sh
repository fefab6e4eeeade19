#!/bin/sh
# Whole processes side by side in one run, on one GHC eventlog:
#   longpole analyze (target/release/longpole), the ghc-events counter
#   (Count.hs, Debian's ghc and libghc-ghc-events-dev) and wc -l (I/O floor).
# Each is run RUNS times, interleaved; prints median and spread (min-max) of
# wall time and peak RSS (/usr/bin/time -f '%e %M'), the ratios, and the row
# docs/numbers.md gives (peak RSS also as a share of the file's size).
# Inputs: gen.sh (a heap-profiled workload) and gen.sh --threads (the
# scheduler-heavy shape, issue 38).
# Usage: [LONGPOLE=BINARY] compare.sh EVENTLOG [RUNS]   (default: target/release/longpole)
set -eu
log=${1:?usage: compare.sh EVENTLOG [RUNS]}
runs=${2:-5}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
build=${GHC_BUILD_DIR:-/tmp/longpole-ghc-build}
mkdir -p "$build"
ghc -v0 -O2 -outputdir "$build/count-obj" "$here/Count.hs" -o "$build/count"
longpole=${LONGPOLE:-$root/target/release/longpole}
[ -x "$longpole" ] || (cd "$root" && cargo build --release -q -p longpole-cli)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
i=0
while [ "$i" -lt "$runs" ]; do
  /usr/bin/time -a -o "$tmp/longpole" -f '%e %M' "$longpole" analyze "$log" >/dev/null
  /usr/bin/time -a -o "$tmp/ghc-events" -f '%e %M' "$build/count" "$log" >/dev/null
  /usr/bin/time -a -o "$tmp/wc" -f '%e %M' wc -l "$log" >/dev/null
  i=$((i + 1))
done
. "$root/crates/bench/timing.sh"
size=$(stat -c %s "$log" 2>/dev/null || wc -c <"$log")
echo "eventlog: $log ($((size / 1000000)) MB), $runs runs each, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
header 12 tool
for t in longpole ghc-events wc; do row 12 "$t" "$tmp/$t"; done
lp=$(median "$tmp/longpole")
ge=$(median "$tmp/ghc-events")
wcm=$(median "$tmp/wc")
awk -v lp="$lp" -v ge="$ge" -v wc="$wcm" 'BEGIN {
  printf "ghc-events / longpole (median wall): %.2fx\n", ge / lp
  if (wc > 0) printf "longpole / wc -l (median wall): %.1fx\n", lp / wc }'
set -- $(summ 1 "$tmp/longpole") $(summ 2 "$tmp/longpole") $(summ 1 "$tmp/ghc-events")
awk -v mb="$((size / 1000000))" -v l="$1" -v lmin="$2" -v lmax="$3" -v rss="$4" -v g="$7" -v gmin="$8" -v gmax="$9" \
  -v size="$size" -v runs="$runs" 'BEGIN {
  printf "| %d MB | ghc-events %.2f s (%.2f-%.2f) | longpole %.2f s (%.2f-%.2f) | %.2fx | %d MB, %.2fx the file | %d runs |\n",
    mb, g, gmin, gmax, l, lmin, lmax, g / l, rss / 1024, rss * 1024 / size, runs }'
