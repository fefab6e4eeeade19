//! Fast hash maps for the readers' hot paths (rustc's Fx hash, not SipHash:
//! the keys come from the user's own file, and speed matters more here than
//! resistance to crafted collisions). Fx works in machine words, so in
//! WebAssembly it stays in 32-bit arithmetic, where a 128-bit multiply (as
//! foldhash does) is a library call.

/// The hasher of [`FastMap`], [`FastSet`] and the interner.
pub type FastState = rustc_hash::FxBuildHasher;

/// A `HashMap` with the Fx hash.
pub type FastMap<K, V> = std::collections::HashMap<K, V, FastState>;

/// A `HashSet` with the Fx hash.
pub type FastSet<K> = std::collections::HashSet<K, FastState>;
