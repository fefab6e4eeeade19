#!/usr/bin/env bash
# Installs what building and testing longpole needs, skipping whatever is
# already there at the right version. Safe to run again and again.
#
# A fresh machine needs rustup stable, Node/npm and Debian's apt; everything
# else comes from here: the wasm32 target, trunk, mdbook, wasm-bindgen-cli (the exact
# version in Cargo.lock), Debian's chromium and chromium-driver, Debian's
# ninja-build, cmake and meson (the real ninja builds of the tests), Debian's
# ghc (the real Haskell program of the tests), and the npm packages
# (binaryen's wasm-opt, playwright-core). Nothing downloads a browser.
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14
MDBOOK_VERSION=0.4.52
say() { printf '\033[1msetup:\033[0m %s\n' "$*"; }

# Installs Debian packages, reading apt's package lists once per run.
APT_UPDATED=""
apt_install() {
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  if [ -z "$APT_UPDATED" ]; then
    $sudo apt-get update -qq
    APT_UPDATED=1
  fi
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@"
}

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

if [ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]; then
  say "installing trunk $TRUNK_VERSION (takes a few minutes)"
  cargo install --locked "trunk@$TRUNK_VERSION"
fi

# The docs site (docs/book.toml), built into dist/docs/ with the app.
if [ "$(mdbook --version 2>/dev/null)" != "mdbook v$MDBOOK_VERSION" ]; then
  say "installing mdbook $MDBOOK_VERSION (takes a few minutes)"
  # Only the builder and its search: no server or watcher (the app serves the site).
  cargo install --locked --no-default-features --features search "mdbook@$MDBOOK_VERSION"
fi

# wasm-bindgen-cli must match the wasm-bindgen crate exactly.
WBG_VERSION=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WBG_VERSION" ]; then
  say "installing wasm-bindgen-cli $WBG_VERSION"
  # Not --locked: its lockfile pins a crate version the registry no longer has.
  cargo install wasm-bindgen-cli --version "$WBG_VERSION"
fi

if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  say "installing Debian's chromium and chromium-driver"
  apt_install chromium chromium-driver
fi

# The tests build real CMake and Meson projects with ninja (crates/cli/tests/ninja_real.rs).
if ! command -v ninja >/dev/null || ! command -v cmake >/dev/null || ! command -v meson >/dev/null; then
  say "installing Debian's ninja-build, cmake and meson"
  apt_install ninja-build cmake meson
fi

# The tests build and run a real Haskell program (crates/cli/tests/ghc_real.rs).
if ! command -v ghc >/dev/null; then
  say "installing Debian's ghc"
  apt_install ghc
fi

if ! node -e 'const l=require("./package-lock.json").packages;for(const[p,v]of Object.entries(l)){if(!p)continue;if(require("./"+p+"/package.json").version!==v.version)process.exit(1)}' 2>/dev/null; then
  say "installing the npm packages (wasm-opt, playwright-core)"
  npm ci --no-audit --no-fund --loglevel=error
fi

# The fleet tables' test (tests/fleet/duckdb_test.py) queries the Parquet
# export with DuckDB from PyPI, in a virtual environment of its own under
# target/.
DUCKDB_VERSION=2.0.1
PYSPARK_VERSION=4.3.0
VENV=target/venv-tools
if [ ! -x "$VENV/bin/pip" ]; then
  say "creating the Python tools' virtual environment ($VENV)"
  if ! python3 -m venv --clear "$VENV"; then
    # Debian keeps venv's pip bootstrap in its own package.
    say "installing Debian's python3-venv"
    apt_install python3-venv
    python3 -m venv --clear "$VENV"
  fi
fi
if [ "$("$VENV/bin/python" -c 'import duckdb; print(duckdb.__version__)' 2>/dev/null)" != "$DUCKDB_VERSION" ]; then
  say "installing duckdb $DUCKDB_VERSION into $VENV"
  "$VENV/bin/pip" install --quiet "duckdb==$DUCKDB_VERSION"
fi
# dbt's runs (tests/dbt/dbt_test.py) use dbt-core with its DuckDB adapter
# in the same environment (dbt-duckdb 1.11 runs on duckdb 2.0.1). dbt-core
# stays below 1.12, which fetches a parser from outside PyPI when installed.
if ! "$VENV/bin/python" -c 'import dbt.adapters.duckdb, dbt.version as v; assert v.__version__ < "1.12"' 2>/dev/null; then
  say "installing dbt-core (<1.12) and dbt-duckdb into $VENV"
  "$VENV/bin/pip" install --quiet "dbt-core<1.12" dbt-duckdb "duckdb==$DUCKDB_VERSION"
fi
# Spark (tests/fleet/spark_check.py, and the real runs of tests/spark/)
# needs Java: LONGPOLE_SPARK=1 adds Debian's OpenJDK; PyPI's pyspark is
# added wherever Java is.
if [ "${LONGPOLE_SPARK:-}" = 1 ] && ! command -v java >/dev/null; then
  say "installing Debian's openjdk-17-jre-headless (for Spark)"
  apt_install openjdk-17-jre-headless
fi
if command -v java >/dev/null && [ "$("$VENV/bin/python" -c 'import pyspark; print(pyspark.__version__)' 2>/dev/null)" != "$PYSPARK_VERSION" ]; then
  say "installing pyspark $PYSPARK_VERSION into $VENV"
  "$VENV/bin/pip" install --quiet "pyspark==$PYSPARK_VERSION"
fi

say "fetching crates"
cargo fetch --quiet
say "ready"
