#!/usr/bin/env bash
# Builds the release bundle into dist/ with the tools scripts/setup.sh
# installed; downloads nothing (trunk runs offline and finds wasm-opt in
# node_modules/.bin), then writes the service worker for that bundle.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"
trunk build --release --offline --skip-version-check
# The service worker's list of the bundle's files and their SHA-256
# (the offline copy's integrity checks and version): dist/sw.js.
node scripts/shell-manifest.mjs dist
