#!/usr/bin/env bash
# Makes the Cargo fixtures of crates/core/tests/fixtures/cargo/: a small
# workspace of path-only crates (alpha <- beta (with a build script) <-
# gamma <- app, app also on alpha) built from nothing with the machine's
# cargo `--timings`, and with a nightly cargo's `-Zbuild-analysis` log.
# Needs `rustup toolchain install nightly --profile minimal` for the log.
set -euo pipefail
out="$(cd "$(dirname "$0")/.." && pwd)/crates/core/tests/fixtures/cargo"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ws="$tmp/ws"
mkdir -p "$ws"
cat > "$ws/Cargo.toml" <<'TOML'
[workspace]
members = ["alpha", "beta", "gamma", "app"]
resolver = "2"
TOML
crate() { # name kind deps...
  local name=$1 kind=$2; shift 2
  mkdir -p "$ws/$name/src"
  { printf '[package]\nname = "%s"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n' "$name"
    for d in "$@"; do printf '%s = { path = "../%s" }\n' "$d" "$d"; done; } > "$ws/$name/Cargo.toml"
  # Enough generic code that each crate takes a moment to compile.
  local body="" i
  for i in $(seq 1 40); do body+="pub fn f$i<T: Clone + std::fmt::Debug>(x: T) -> Vec<String> { (0..$i).map(|n| format!(\"{:?}{}\", x.clone(), n)).collect() }"$'\n'; done
  if [ "$kind" = bin ]; then
    printf '%s\nfn main() { println!("{:?}", f1(1)); }\n' "$body" > "$ws/$name/src/main.rs"
  else
    printf '%s' "$body" > "$ws/$name/src/lib.rs"
  fi
}
crate alpha lib
crate beta lib alpha
crate gamma lib beta
crate app bin gamma alpha
echo 'fn main() { println!("cargo:rerun-if-changed=build.rs"); }' > "$ws/beta/build.rs"
(cd "$ws" && CARGO_TARGET_DIR="$tmp/target" cargo build -q --timings)
cp "$tmp"/target/cargo-timings/cargo-timing-*.html "$out/chain-timings.html"
rm -rf "$tmp/target"
mkdir -p "$tmp/home"
(cd "$ws" && CARGO_HOME="$tmp/home" CARGO_TARGET_DIR="$tmp/target" cargo +nightly build -q \
  -Zbuild-analysis --config build.analysis.enabled=true)
cp "$tmp"/home/log/*.jsonl "$out/chain-build-analysis.jsonl"
