#!/usr/bin/env bash
# The README's second command, and all that .ci/run does: set up, build the
# bundle, then run every test: the workspace's cargo tests, the wasm tests
# in headless Chromium, the fleet tables read by DuckDB (tests/fleet/), real
# dbt runs (tests/dbt/), real Spark applications where Java is (tests/spark/), and
# the end-to-end tests against the built bundle.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
./scripts/build.sh
echo "== cargo test (workspace)"
cargo test --workspace --quiet
echo "== the fuzz targets compile (fuzz/ is a workspace of its own; scripts/fuzz.sh runs them)"
cargo check --quiet --manifest-path fuzz/Cargo.toml --bins
echo "== fleet tables (Parquet) queried with DuckDB"
cargo build --quiet -p longpole-cli -p longpole-distbuild-sim
target/venv-tools/bin/python tests/fleet/duckdb_test.py target/debug
echo "== dbt runs (dbt-duckdb) read against dbt's own figures"
target/venv-tools/bin/python tests/dbt/dbt_test.py target/debug
echo "== Spark applications (PySpark, where Java is) read against the History Server's figures"
target/venv-tools/bin/python tests/spark/spark_test.py target/debug --quick
echo "== wasm-bindgen tests in headless Chromium"
cargo test --target wasm32-unknown-unknown --test web
echo "== end-to-end tests against dist/"
node --test --test-concurrency=1 tests/e2e/
