#!/usr/bin/env bash
# Coverage-guided fuzzing of longpole's readers with libFuzzer (cargo-fuzz):
#   scripts/fuzz.sh TARGET [SECONDS]     TARGET: ingest, formats, protocol, cargo_timings, dbt or spark
# Installs nightly Rust and cargo-fuzz if missing (idempotent), seeds the
# target's corpus from tests/data and the samples, then runs it with
# a 2 GB memory limit and a 10 s per-input timeout. Crashes land in
# fuzz/artifacts/TARGET/. Not part of CI: nightly and cargo-fuzz alone take
# longer to install than CI can spare.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: scripts/fuzz.sh TARGET [SECONDS]}
seconds=${2:-600}
rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal
command -v cargo-fuzz > /dev/null || cargo install cargo-fuzz
corpus=fuzz/corpus/$target
mkdir -p "$corpus"
if [ -z "$(ls -A "$corpus")" ]; then
  case $target in
    protocol) python3 scripts/fuzz_protocol_seeds.py "$corpus" ;;
    *)
      # Corpus files up to 1 MB, each behind the bytes the target reads first
      # (a reader index for `formats`, a chunk size for both).
      i=0
      while IFS= read -r -d '' f; do
        [ "$(stat -c %s "$f")" -le 1048576 ] || continue
        i=$((i + 1))
        if [ "$target" = formats ]; then
          for pick in 0 1 2 3 4 5 6 7 8; do
            { printf "\\x$(printf %02x $pick)\\x07\\x00"; cat "$f"; } > "$corpus/$i-$pick"
          done
        else
          { printf '\x07\x00'; cat "$f"; } > "$corpus/$i"
        fi
      done < <(find tests/data samples -type f ! -name README.md ! -name MANIFEST.tsv -print0)
      ;;
  esac
fi
cd fuzz
exec nice -n 10 cargo +nightly fuzz run "$target" "corpus/$target" -- \
  -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1
