#!/bin/sh
# Compares two longpole builds' `analyze` output, text and JSON (stdout,
# stderr and exit code), on every file of the test data (tests/data): a restructure
# must leave them byte-identical.
# Usage: crates/bench/cli/same_output.sh OLD_LONGPOLE NEW_LONGPOLE [CORPUS_DIR]
set -u
old=${1:?usage: same_output.sh OLD NEW [CORPUS]}
new=${2:?usage: same_output.sh OLD NEW [CORPUS]}
root=$(cd "$(dirname "$0")/../../.." && pwd)
corpus=${3:-$root/tests/data}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
runs=0 differ=0
find "$corpus" -type f | sort > "$tmp/files"
while read -r f; do
  for fmt in text json; do
    "$old" analyze --format "$fmt" "$f" >"$tmp/o1" 2>"$tmp/e1"; r1=$?
    "$new" analyze --format "$fmt" "$f" >"$tmp/o2" 2>"$tmp/e2"; r2=$?
    runs=$((runs + 1))
    if [ "$r1" != "$r2" ] || ! cmp -s "$tmp/o1" "$tmp/o2" || ! cmp -s "$tmp/e1" "$tmp/e2"; then
      differ=$((differ + 1))
      echo "differs: --format $fmt $f"
    fi
  done
done < "$tmp/files"
echo "$runs runs, $differ differ"
[ "$differ" -eq 0 ]
