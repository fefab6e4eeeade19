#!/bin/sh
# Writes a real GHC eventlog: Workload.hs built by Debian's ghc with
# -threaded -eventlog -rtsopts and run on two capabilities with the
# eventlog (-l) and heap profiling by closure type (-hT, a census every 10 ms).
# Usage: gen.sh OUT.eventlog [ROUNDS [THREADS]]
#   ROUNDS 250 gives about 195 MB; the size grows with ROUNDS (1300: ~1 GB).
set -eu
out=${1:?usage: gen.sh OUT.eventlog [ROUNDS [THREADS]]}
rounds=${2:-250}
threads=${3:-200}
here=$(cd "$(dirname "$0")" && pwd)
build=${GHC_BUILD_DIR:-/tmp/longpole-ghc-build}
mkdir -p "$build"
ghc -v0 -O2 -threaded -eventlog -rtsopts -outputdir "$build/workload-obj" \
  "$here/Workload.hs" -o "$build/workload"
case $out in /*) ;; *) out="$PWD/$out" ;; esac
# -hT also writes workload.hp (the heap profile) into the current directory.
(cd "$build" && ./workload "$rounds" "$threads" +RTS -N2 -l -hT -i0.01 "-ol$out" -RTS >/dev/null)
ls -l "$out"
