#!/usr/bin/env bash
# Builds the release bundle into dist/ with the tools scripts/setup.sh
# installed, downloading nothing (trunk runs offline and finds wasm-opt in
# node_modules/.bin); then the docs site into dist/docs/; then the service
# worker for that bundle.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"
trunk build --release --offline --skip-version-check
# The docs site, beside the app (each format's page embeds its sample).
mdbook build docs --dest-dir ../dist/docs
# The service worker's list of the bundle's files and their SHA-256
# (the offline copy's integrity checks and version): dist/sw.js.
node scripts/shell-manifest.mjs dist
