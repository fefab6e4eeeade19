#!/usr/bin/env bash
# Coverage-guided fuzzing of longpole's readers with libFuzzer (cargo-fuzz):
#   scripts/fuzz.sh TARGET [SECONDS]   one target (fuzz/Cargo.toml lists them:
#                                      reader_* one per registered reader,
#                                      cargo_timings, dbt, spark, decompress,
#                                      ingest, formats, protocol)
#   scripts/fuzz.sh all [SECONDS]      every target in turn, then a table of
#                                      each one's executions and coverage
# Installs nightly Rust and cargo-fuzz if missing (idempotent), seeds the
# target's corpus from the fixtures of its format (compressed ones also
# decompressed), uses its dictionary (fuzz/dicts/), and runs it with a 2 GB
# memory limit and a 10 s per-input timeout. Crashes land in
# fuzz/artifacts/TARGET/. Not part of CI: nightly and cargo-fuzz alone take
# longer to install than CI can spare.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: scripts/fuzz.sh TARGET|all [SECONDS]}
seconds=${2:-600}
rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal
command -v cargo-fuzz > /dev/null || cargo install cargo-fuzz

if [ "$target" = all ]; then
  mkdir -p fuzz/logs
  targets=$(sed -n 's/^name = "\(.*\)"$/\1/p' fuzz/Cargo.toml | grep -v '^longpole-fuzz$')
  for t in $targets; do "$0" "$t" "$seconds" > "fuzz/logs/$t.log" 2>&1 || echo "$t: stopped with a finding, see fuzz/logs/$t.log"; done
  echo "| target | seconds | executions | coverage (edges) | features |"
  echo "|---|---|---|---|---|"
  for t in $targets; do
    log=fuzz/logs/$t.log
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
    ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
    echo "| $t | $seconds | ${execs:-?} | ${cov:-?} | ${ft:-?} |"
  done
  exit 0
fi

# The fixtures a target starts from.
case $target in
  reader_distbuild | reader_ya_graph | reader_ya_evlog) seeds="tests/data/distbuild crates/core/tests/fixtures/corpus-distbuild-graph.json samples/distbuild-example.log samples/simulated-build.graph.json.gz" ;;
  reader_ghc_eventlog) seeds="tests/data/ghc-eventlog samples/ghc-testlog.eventlog" ;;
  reader_monetdb_mal) seeds="tests/data/monetdb-mal" ;;
  reader_evobench) seeds="tests/data/evobench" ;;
  reader_ninja_*) seeds="tests/data/ninja-log crates/core/tests/fixtures/ninja" ;;
  reader_starrocks) seeds="tests/data/starrocks-profile" ;;
  reader_chrome_trace) seeds="tests/data/chrome-trace tests/data/speedscope-format" ;;
  cargo_timings) seeds="crates/core/tests/fixtures/cargo" ;;
  dbt) seeds="crates/core/tests/fixtures/dbt" ;;
  spark) seeds="crates/core/tests/fixtures/spark" ;;
  *) seeds="tests/data samples" ;;
esac
dict=fuzz/dicts/${target#reader_}.dict
corpus=fuzz/corpus/$target
mkdir -p "$corpus"
if [ -z "$(ls -A "$corpus")" ]; then
  case $target in
    protocol) python3 scripts/fuzz_protocol_seeds.py "$corpus" ;;
    *)
      # Files up to 1 MB (decompressed too, for a reader), each behind the
      # bytes the target reads first: a codec or reader pick, a chunk size.
      i=0
      while IFS= read -r -d '' f; do
        [ "$(stat -c %s "$f")" -le 1048576 ] || continue
        i=$((i + 1))
        case $target in
          formats) for pick in $(seq 0 13); do { printf "\\x$(printf %02x "$pick")\\x07\\x00"; cat "$f"; } > "$corpus/$i-$pick"; done ;;
          decompress) for pick in 0 1 2 3 4; do { printf "\\x$(printf %02x "$pick")\\x07\\x00"; cat "$f"; } > "$corpus/$i-$pick"; done ;;
          spark) { printf '\x00\x07\x00'; cat "$f"; } > "$corpus/$i" ;;
          *) { printf '\x07\x00'; cat "$f"; } > "$corpus/$i" ;;
        esac
        if [[ $target == reader_* ]]; then
          plain=""
          case $f in
            *.gz) plain=$( (gzip -dc "$f" 2>/dev/null || true) | head -c 1048576 | base64 -w0) ;;
            *.bz2) plain=$( (bzip2 -dc "$f" 2>/dev/null || true) | head -c 1048576 | base64 -w0) ;;
            *.zst | *.zstd) plain=$( (zstd -dc "$f" 2>/dev/null || true) | head -c 1048576 | base64 -w0) ;;
          esac
          [ -z "$plain" ] || { printf '\x07\x00'; printf %s "$plain" | base64 -d; } > "$corpus/$i-plain"
        fi
      done < <(find $seeds -type f ! -name README.md ! -name MANIFEST.tsv ! -name '*.snap' ! -name '*.reference' -print0)
      ;;
  esac
fi
extra=()
[ -f "$dict" ] && extra+=("-dict=../$dict")
cd fuzz
exec nice -n 10 cargo +nightly fuzz run "$target" "corpus/$target" -- \
  -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 "${extra[@]}"
