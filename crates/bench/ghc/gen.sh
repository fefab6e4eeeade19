#!/bin/sh
# Writes a real GHC eventlog, made by Debian's ghc (-O2 -threaded -eventlog
# -rtsopts) running a program on two capabilities with the eventlog on:
# - Workload.hs (the default): heap profiling by closure type too (-hT, a
#   census every 10 ms); ROUNDS 250 gives about 195 MB (1300: ~1 GB).
# - Threads.hs (--threads), the scheduler-heavy shape, the common
#   ThreadScope case (issue 38): THREADS short-lived threads, each running 60
#   steps marked with user events; 40000 give about 198 MB (10 M events),
#   50000 about 248 MB.
# The programs' scheduling varies, so each run gives a slightly different file.
# Usage: gen.sh OUT.eventlog [ROUNDS [THREADS]]
#        gen.sh --threads OUT.eventlog [THREADS]
set -eu
shape=workload
if [ "${1:-}" = --threads ]; then
  shape=threads
  shift
fi
out=${1:?usage: gen.sh [--threads] OUT.eventlog [ROUNDS [THREADS]]}
here=$(cd "$(dirname "$0")" && pwd)
build=${GHC_BUILD_DIR:-/tmp/longpole-ghc-build}
mkdir -p "$build"
case $shape in
  threads) src=Threads.hs args=${2:-40000} rts= ;;
  *) src=Workload.hs args="${2:-250} ${3:-200}" rts="-hT -i0.01" ;;
esac
ghc -v0 -O2 -threaded -eventlog -rtsopts -outputdir "$build/$shape-obj" "$here/$src" -o "$build/$shape"
case $out in /*) ;; *) out="$PWD/$out" ;; esac
# -hT also writes workload.hp (the heap profile) into the current directory.
(cd "$build" && ./"$shape" $args +RTS -N2 -l $rts "-ol$out" -RTS >/dev/null)
ls -l "$out"
