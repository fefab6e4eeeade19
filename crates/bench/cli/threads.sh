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
# median, min and max of column $1 of file $2
summ() { cut -d' ' -f"$1" "$2" | sort -n | awk '{v[NR]=$1} END {printf "%s %s %s", v[int((NR+1)/2)], v[1], v[NR]}'; }
bytes=$(cat "$@" | wc -c)
echo "inputs: $* ($((bytes / 1000000)) MB), $runs runs each, $cores cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-22s %-28s %s\n' run 'wall s: median (min-max)' 'peak RSS MB: median (min-max)'
for t in t1 tn wc; do
  case $t in (t1) name="longpole, 1 thread" ;; (tn) name="longpole, $cores threads" ;; (*) name="wc -l" ;; esac
  set -- $(summ 1 "$tmp/$t") $(summ 2 "$tmp/$t")
  printf '%-22s %-28s %s\n' "$name" "$1 ($2-$3)" "$(($4 / 1024)) ($(($5 / 1024))-$(($6 / 1024)))"
done
a=$(summ 1 "$tmp/t1" | cut -d' ' -f1)
b=$(summ 1 "$tmp/tn" | cut -d' ' -f1)
w=$(summ 1 "$tmp/wc" | cut -d' ' -f1)
awk -v a="$a" -v b="$b" -v w="$w" -v c="$cores" 'BEGIN {
  printf "speed-up at %d threads (median wall): %.2fx; longpole at %d threads / wc -l: %.1fx\n", c, a / b, c, b / (w > 0 ? w : 0.01)
}'
