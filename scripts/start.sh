#!/usr/bin/env bash
# The README's first command: set up, build, and serve on http://127.0.0.1:8080.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
./scripts/build.sh
exec node scripts/serve.mjs --port "${PORT:-8080}"
