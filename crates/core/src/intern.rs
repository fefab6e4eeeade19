//! String interning: each distinct name (a uid, a host) is stored once and
//! referred to by a dense `u32`.
//!
//! The strings live one after another in one buffer and the table holds
//! only their ids with 32 bits of their hash, so a name costs its bytes
//! plus about 24 bytes (its end offset and a table slot) — a million build
//! uids take tens of megabytes, not a hundred. With those bits the table
//! grows without reading a string again: growing by rehashing every string
//! was a tenth of a 1 GB distbuild log's load in the browser.
//!
//! A string that nothing looks up by its text (a build node's description,
//! read back only by its id) can be kept without a table slot
//! ([`Interner::push`]): no hashing, no slot, and no search for an equal one.

use crate::hash::hash_bytes;
use hashbrown::HashTable;

/// Maps strings to dense ids and back.
#[derive(Default, Clone)]
pub struct Interner {
    /// Every string, one after another.
    text: String,
    /// String `i` is `text[ends[i - 1]..ends[i]]` (from 0 for the first).
    ends: Vec<usize>,
    /// The ids, found by the hash of their string's bytes ([`hash_bytes`]).
    ids: HashTable<Slot>,
}

/// A string's id in the table, with its hash folded to 32 bits.
#[derive(Clone, Copy)]
struct Slot {
    id: u32,
    hash: u32,
}

/// The 32 bits of `hash` a [`Slot`] keeps (both halves: a 32-bit
/// machine's hash has only the lower one).
fn fold(hash: u64) -> u32 {
    (hash ^ (hash >> 32)) as u32
}

/// The table's hash of a string whose folded hash is `folded`: spread over
/// 64 bits, since the table places by the low bits and tags by the top ones.
fn spread(folded: u32) -> u64 {
    u64::from(folded).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The string `id` of `text` cut at `ends`.
fn slice<'a>(text: &'a str, ends: &[usize], id: u32) -> &'a str {
    let i = id as usize;
    let from = if i == 0 { 0 } else { ends[i - 1] };
    &text[from..ends[i]]
}

impl Interner {
    /// An empty interner.
    pub fn new() -> Self {
        Self::default()
    }

    /// The id of `s`, added on first use.
    pub fn intern(&mut self, s: &str) -> u32 {
        self.intern_hashed(s, hash_bytes(s.as_bytes()))
    }

    /// [`Interner::intern`] for a string whose [`hash_bytes`] is known.
    pub fn intern_hashed(&mut self, s: &str, hash: u64) -> u32 {
        if let Some(id) = self.get_hashed(s.as_bytes(), hash) {
            return id;
        }
        let id = self.ends.len() as u32;
        self.text.push_str(s);
        self.ends.push(self.text.len());
        let hash = fold(hash);
        self.ids.insert_unique(spread(hash), Slot { id, hash }, |s| spread(s.hash));
        id
    }

    /// Keeps `s` as a string of its own, found by its id only: it is not
    /// shared with an equal string, and [`Interner::get`] does not find it.
    /// For the many distinct strings nothing looks up by their text, which
    /// then cost no hashing and no table slot.
    pub fn push(&mut self, s: &str) -> u32 {
        let id = self.ends.len() as u32;
        self.text.push_str(s);
        self.ends.push(self.text.len());
        id
    }

    /// The id of the string whose bytes are `bytes` and whose
    /// [`hash_bytes`] is `hash`, if it was interned (bytes that are not
    /// UTF-8 never were).
    pub fn get_hashed(&self, bytes: &[u8], hash: u64) -> Option<u32> {
        let folded = fold(hash);
        self.ids.find(spread(folded), |s| s.hash == folded && self.name(s.id).as_bytes() == bytes).map(|s| s.id)
    }

    /// Makes room for `count` more strings of `bytes` bytes in all, exactly,
    /// so that adding them does not grow the buffers by doubling.
    pub fn reserve(&mut self, bytes: usize, count: usize) {
        self.text.reserve_exact(bytes);
        self.ends.reserve_exact(count);
        self.ids.reserve(count, |s| spread(s.hash));
    }

    /// Makes room for `count` more strings of `bytes` bytes in all, exactly,
    /// kept with [`Interner::push`] (no room in the table).
    pub fn reserve_pushed(&mut self, bytes: usize, count: usize) {
        self.text.reserve_exact(bytes);
        self.ends.reserve_exact(count);
    }

    /// The strings one after another, and where each ends (for handing the
    /// table to another thread); `None` when the text is 4 GiB or more.
    pub fn into_parts(self) -> Option<(String, Vec<u32>)> {
        let ends = self.ends.iter().map(|&e| u32::try_from(e).ok()).collect::<Option<Vec<u32>>>()?;
        Some((self.text, ends))
    }

    /// The interner of [`Interner::into_parts`]; `None` unless every end is
    /// in order, within the text and on a character boundary.
    pub fn from_parts(text: String, ends: Vec<u32>) -> Option<Interner> {
        let mut from = 0;
        for &end in &ends {
            let end = end as usize;
            if end < from || end > text.len() || !text.is_char_boundary(end) {
                return None;
            }
            from = end;
        }
        let mut interner =
            Interner { text, ends: ends.into_iter().map(|e| e as usize).collect(), ids: HashTable::with_capacity(0) };
        let Interner { text, ends, ids } = &mut interner;
        ids.reserve(ends.len(), |s| spread(s.hash));
        for id in 0..ends.len() as u32 {
            let hash = fold(hash_bytes(slice(text, ends, id).as_bytes()));
            ids.insert_unique(spread(hash), Slot { id, hash }, |s| spread(s.hash));
        }
        Some(interner)
    }

    /// The id of `s`, if it was interned.
    pub fn get(&self, s: &str) -> Option<u32> {
        self.get_hashed(s.as_bytes(), hash_bytes(s.as_bytes()))
    }

    /// The string of `id`.
    pub fn name(&self, id: u32) -> &str {
        slice(&self.text, &self.ends, id)
    }

    /// Bytes of all the strings together.
    pub fn text_len(&self) -> usize {
        self.text.len()
    }

    /// Number of distinct strings.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// No strings yet.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }
}

impl std::fmt::Debug for Interner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries((0..self.len() as u32).map(|id| self.name(id))).finish()
    }
}

impl PartialEq for Interner {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text && self.ends == other.ends
    }
}

impl Eq for Interner {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_dense_in_order_of_first_use_and_give_back_their_strings() {
        let mut i = Interner::new();
        let names = ["host1", "", "uid-a", "host1", "uid-b", "", "ü"];
        let ids: Vec<u32> = names.iter().map(|n| i.intern(n)).collect();
        assert_eq!(ids, [0, 1, 2, 0, 3, 1, 4]);
        assert_eq!(i.len(), 5);
        for (n, id) in names.iter().zip(&ids) {
            assert_eq!(i.name(*id), *n);
            assert_eq!(i.get(n), Some(*id));
        }
        assert_eq!(i.get("missing"), None);
        // Found by bytes and their hash, as a reader hashes them ahead.
        assert_eq!(i.get_hashed(b"uid-b", crate::hash::hash_bytes(b"uid-b")), Some(3));
        assert_eq!(i.get_hashed(b"\xff", crate::hash::hash_bytes(b"\xff")), None);
        assert_eq!(i.intern_hashed("uid-c", crate::hash::hash_bytes(b"uid-c")), 5);
        assert_eq!(i.get("uid-c"), Some(5));
    }

    #[test]
    fn a_pushed_string_is_its_own_and_found_by_its_id_only() {
        let mut i = Interner::new();
        assert_eq!(i.intern("a"), 0);
        assert_eq!(i.push("a"), 1);
        assert_eq!(i.push("b"), 2);
        assert_eq!(i.push("b"), 3);
        assert_eq!((i.name(1), i.name(2), i.name(3)), ("a", "b", "b"));
        // Text looks up only what was interned; interning a pushed text adds it.
        assert_eq!(i.get("a"), Some(0));
        assert_eq!(i.get("b"), None);
        assert_eq!(i.intern("b"), 4);
        assert_eq!(i.get("b"), Some(4));
        i.reserve_pushed(3, 1);
        assert_eq!(i.push("ü"), 5);
        assert_eq!((i.len(), i.name(5), i.name(4)), (6, "ü", "b"));
    }

    #[test]
    fn survives_growth() {
        let mut i = Interner::new();
        for n in 0..10_000u32 {
            assert_eq!(i.intern(&format!("uid-{n}")), n);
        }
        for n in (0..10_000u32).rev() {
            assert_eq!(i.intern(&format!("uid-{n}")), n);
            assert_eq!(i.name(n), format!("uid-{n}"));
        }
    }
}
