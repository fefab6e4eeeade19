//! The web bundle built into this binary (the app, its workers,
//! `embed.js`, the samples: `dist/`, embedded by `build.rs`), for `longpole
//! serve` and `longpole open`.

include!(concat!(env!("OUT_DIR"), "/bundle.rs"));

/// What a binary built without the bundle says instead of serving nothing.
pub const MISSING: &str = "this longpole was built without the web app: build it with ./scripts/build.sh \
     (it writes dist/), then build longpole again (cargo build --release -p longpole-cli, or cargo install \
     --path crates/cli)";

/// The file at `path` (relative to the bundle's root, `index.html` for the
/// page), if the bundle has one.
pub fn file(path: &str) -> Option<&'static [u8]> {
    FILES.binary_search_by(|(name, _)| (*name).cmp(path)).ok().and_then(|i| FILES.get(i)).map(|(_, bytes)| *bytes)
}

/// Fails with [`MISSING`] if this binary carries no bundle.
pub fn required() -> anyhow::Result<()> {
    if FILES.is_empty() {
        anyhow::bail!(MISSING);
    }
    Ok(())
}
