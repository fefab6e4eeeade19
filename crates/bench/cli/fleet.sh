#!/bin/sh
# `longpole export --to parquet` of many runs: 10,000 simulated distbuild
# builds (200 nodes on 20 hosts, a log and its graph.json each; and the
# first 1,000 of them alone, to show memory does not grow with the number
# of runs), and 1,000 inputs of the other formats (the corpus's readable
# files of every other format, cycled). Prints wall time, runs/s, MB/s and
# peak RSS (/usr/bin/time -f '%e %M'), the Parquet's size against the
# logs', and DuckDB's time for the cookbook's queries over the 10,000 runs,
# as exported and compacted.
# The inputs are made once into target/bench-data/fleet/.
# Usage: crates/bench/cli/fleet.sh
set -eu
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
cargo build --release -q -p longpole-cli -p longpole-distbuild-sim
longpole=target/release/longpole
data=target/bench-data/fleet
if [ ! -f "$data/distbuild.done" ]; then
  echo "making 10,000 simulated builds in $data/distbuild (once)"
  mkdir -p "$data/distbuild"
  i=0
  while [ "$i" -lt 10000 ]; do
    d=$(printf '%s/distbuild/%02d/b%05d' "$data" $((i / 1000)) "$i")
    mkdir -p "$d"
    target/release/distbuild-sim --nodes 200 --hosts 20 --seed "$i" --cache-hits 0.2 --failures 0.01 \
      --log "$d/run.log" --graph "$d/graph.json" 2>/dev/null
    i=$((i + 1))
  done
  touch "$data/distbuild.done"
fi
if [ ! -f "$data/others.done" ]; then
  echo "making 1,000 inputs of the other formats in $data/others (once)"
  mkdir -p "$data/others"
  # Every corpus file longpole reads, but distbuild logs and MAL traces
  # (a MAL folder's traces are one run): each in a folder of its own.
  find tests/data -type f ! -path '*/distbuild/*' ! -path '*/monetdb-mal/*' | sort > "$data/candidates"
  : > "$data/readable"
  while read -r f; do
    "$longpole" analyze "$f" >/dev/null 2>&1 && echo "$f" >> "$data/readable"
  done < "$data/candidates"
  n=$(wc -l < "$data/readable")
  i=0
  while [ "$i" -lt 1000 ]; do
    f=$(sed -n "$((i % n + 1))p" "$data/readable")
    mkdir -p "$data/others/$i"
    cp "$f" "$data/others/$i/"
    i=$((i + 1))
  done
  touch "$data/others.done"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
measure() { # NAME RUNS INPUT...
  name=$1 runs=$2
  shift 2
  rm -rf "$tmp/out"
  /usr/bin/time -o "$tmp/time" -f '%e %M' "$longpole" export "$@" --to parquet --output "$tmp/out" 2>/dev/null
  set -- $(cat "$tmp/time") $(du -sb "$@" | awk '{ s += $1 } END { print s }') $(du -sb "$tmp/out" | cut -f1)
  awk -v n="$name" -v r="$runs" -v t="$1" -v m="$2" -v inb="$3" -v out="$4" 'BEGIN {
    printf "%-34s %6d runs %7.2f s %7.0f runs/s %6.1f MB/s  peak RSS %4.0f MB  logs %6.0f MB  parquet %5.0f MB (%.0f%%)\n",
      n, r, t, r / t, inb / 1e6 / t, m / 1024, inb / 1e6, out / 1e6, 100 * out / inb
  }'
}
echo "$(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
measure "distbuild, first 1,000" 1000 "$data/distbuild/00"
measure "distbuild, 10,000" 10000 "$data/distbuild"
cp -r "$tmp/out" "$tmp/fleet"
measure "other formats, 1,000 inputs" 1000 "$data/others"
target/venv-tools/bin/python crates/bench/cli/fleet_queries.py "$tmp/fleet" "$tmp/compact"
