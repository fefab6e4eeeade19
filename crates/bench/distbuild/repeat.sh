#!/bin/sh
# Writes a distbuild log N times over, each copy's times shifted by the
# log's span (its last time less its first) times its index: the 10 GB input of docs/native.md (a
# 1 GB log from distbuild-sim, ten times). The same tasks run again, one
# build after another, on the same hosts; nothing else changes.
#
# Usage: repeat.sh LOG N OUT
#   e.g. target/release/distbuild-sim --nodes 750000 --hosts 1000 --slots 8
#        --seed 7 --log /tmp/d1g.log --graph /tmp/d1g.graph.json, then
#        repeat.sh /tmp/d1g.log 10 /tmp/d10g.log
set -eu
log=$1 n=$2 out=$3
# The span of the times (each line starts with its time, in ms since
# 1970: %.0f, as awk's %d stops at 2^31).
wall=$(awk 'match($0, /^[0-9]+/) { t = substr($0, 1, RLENGTH) + 0; if (n++ == 0 || t < lo) lo = t; if (t > hi) hi = t } END { printf "%.0f", hi - lo + 1 }' "$log")
: > "$out"
k=0
while [ "$k" -lt "$n" ]; do
  awk -v off="$((k * wall))" 'match($0, /^[0-9]+/) { printf "%.0f%s\n", substr($0, 1, RLENGTH) + off, substr($0, RLENGTH + 1); next } { print }' "$log" >> "$out"
  k=$((k + 1))
done
