//! Fast hash maps for the readers' hot paths (foldhash, not SipHash: the
//! keys come from the user's own file, and speed matters more here than
//! resistance to crafted collisions).

/// A `HashMap` with foldhash.
pub type FastMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;

/// A `HashSet` with foldhash.
pub type FastSet<K> = std::collections::HashSet<K, foldhash::fast::RandomState>;
