#!/usr/bin/env bash
# Regenerates the simulated samples bundled with the app (deterministic:
# the same seed gives the same files). The corpus samples are copied as is.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p longpole-distbuild-sim
tmp=$(mktemp -d)
./target/release/distbuild-sim --nodes 3000 --hosts 20 --seed 2026 --shuffle-ms 40 \
  --log "$tmp/simulated-build.log" --graph "$tmp/simulated-build.graph.json"
gzip -9 -n -c "$tmp/simulated-build.log" > samples/simulated-build.log.gz
gzip -9 -n -c "$tmp/simulated-build.graph.json" > samples/simulated-build.graph.json.gz
cp tests/data/distbuild/example.log samples/distbuild-example.log
gzip -9 -n -c tests/data/ghc-eventlog/stop.hT.eventlog > samples/ghc-stop.hT.eventlog.gz
install -m 644 tests/data/ghc-eventlog/testlog.eventlog samples/ghc-testlog.eventlog
install -m 644 tests/data/monetdb-mal/compressed/trace.json.gz samples/monetdb-tpch-q01.json.gz
install -m 644 tests/data/monetdb-mal/distributed/supervisor.json samples/monetdb-supervisor.json
install -m 644 tests/data/monetdb-mal/distributed/worker1.json samples/monetdb-worker1.json
install -m 644 tests/data/evobench/generated-current-format/evobench.log.zstd samples/evobench-sum_of_fibs.log.zstd
gzip -9 -n -c tests/data/evobench/bench-v1-sum_of_fibs.log > samples/evobench-v1-sum_of_fibs.log.gz
install -m 644 tests/data/ninja-log/kati-v5.ninja_log samples/ninja-kati.ninja_log
install -m 644 tests/data/starrocks-profile/starrocks-3.5.2-profile1.txt samples/starrocks-profile1.txt
gzip -9 -n -c tests/data/chrome-trace/catapult/x_event_trace.json > samples/chrome-x_event_trace.json.gz
install -m 644 tests/data/chrome-trace/bazel/tiny.json.gz samples/bazel-tiny.json.gz
# longpole's own CLI built from nothing with --timings (several minutes).
CARGO_TARGET_DIR="$tmp/cargo-target" cargo build --release --offline -q --timings -p longpole-cli
cp "$tmp/cargo-target/cargo-timings/cargo-timing.html" samples/cargo-longpole.html
install -m 644 crates/core/tests/fixtures/dbt/build/run_results.json samples/dbt-build-run_results.json
gzip -9 -n -c crates/core/tests/fixtures/dbt/build/manifest.json > samples/dbt-build-manifest.json.gz
install -m 644 crates/core/tests/fixtures/spark/skewed-join.zstd samples/spark-skewed-join.zstd
rm -rf "$tmp"
