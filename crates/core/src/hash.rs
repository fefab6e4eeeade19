//! Fast hash maps for the readers' hot paths (not SipHash: the keys come
//! from the user's own file, and speed matters more here than resistance to
//! crafted collisions).
//!
//! On 64-bit machines foldhash is the fastest here (about 10% on a
//! distbuild log's parse); in 32-bit WebAssembly its 128-bit multiply is a
//! library call, so there rustc's Fx hash, which works in machine words,
//! is used instead.

/// The hasher of [`FastMap`], [`FastSet`] and the interner.
#[cfg(target_pointer_width = "64")]
pub type FastState = foldhash::fast::FixedState;

/// The hasher of [`FastMap`], [`FastSet`] and the interner.
#[cfg(not(target_pointer_width = "64"))]
pub type FastState = rustc_hash::FxBuildHasher;

/// A `HashMap` with the [`FastState`] hash.
pub type FastMap<K, V> = std::collections::HashMap<K, V, FastState>;

/// A `HashSet` with the [`FastState`] hash.
pub type FastSet<K> = std::collections::HashSet<K, FastState>;

/// The hash of `bytes` that the interner and [`crate::recent_ids`] use: the
/// same on every thread and in every run, so it can be computed ahead, on
/// another thread.
pub fn hash_bytes(bytes: &[u8]) -> u64 {
    use std::hash::BuildHasher;
    FastState::default().hash_one(bytes)
}
