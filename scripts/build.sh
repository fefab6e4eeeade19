#!/usr/bin/env bash
# Builds the release bundle into dist/ with the tools scripts/setup.sh
# installed; downloads nothing (trunk runs offline and finds wasm-opt in
# node_modules/.bin).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"
trunk build --release --offline --skip-version-check
