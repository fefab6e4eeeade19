#!/usr/bin/env bash
# Builds the release bundle into dist/ with the tools scripts/setup.sh
# installed, downloading nothing (trunk runs offline and finds wasm-opt in
# node_modules/.bin); then the docs site into dist/docs/; then the service
# worker for that bundle. With --cli, then builds the release CLI, which
# embeds dist/ (longpole serve, longpole open); without it, any later build
# of the CLI embeds it (CI's debug build does), so CI makes no second
# release build.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"
# The SQL tab's engine (DuckDB-wasm from node_modules), which index.html copies.
node scripts/build-sql-engine.mjs target/web/sql
trunk build --release --offline --skip-version-check
# The docs site, beside the app (each format's page embeds its sample).
mdbook build docs --dest-dir ../dist/docs
# The service worker's list of the bundle's files and their SHA-256
# (the offline copy's integrity checks and version): dist/sw.js.
node scripts/shell-manifest.mjs dist
if [ "${1:-}" = "--cli" ]; then
  cargo build --release -p longpole-cli
  echo "target/release/longpole carries the app (longpole serve, longpole open)"
else
  echo "dist/ is built; a CLI built from now on carries it (./scripts/build.sh --cli: the release CLI)"
fi
