//! String interning: each distinct name (a uid, a host) is stored once and
//! referred to by a dense `u32`.

use crate::hash::FastMap;
use std::sync::Arc;

/// Maps strings to dense ids and back.
#[derive(Debug, Default, Clone)]
pub struct Interner {
    ids: FastMap<Arc<str>, u32>,
    names: Vec<Arc<str>>,
}

impl Interner {
    /// An empty interner.
    pub fn new() -> Self {
        Self::default()
    }

    /// The id of `s`, added on first use.
    pub fn intern(&mut self, s: &str) -> u32 {
        if let Some(&id) = self.ids.get(s) {
            return id;
        }
        let id = self.names.len() as u32;
        let name: Arc<str> = Arc::from(s);
        self.names.push(name.clone());
        self.ids.insert(name, id);
        id
    }

    /// The id of `s`, if it was interned.
    pub fn get(&self, s: &str) -> Option<u32> {
        self.ids.get(s).copied()
    }

    /// The string of `id`.
    pub fn name(&self, id: u32) -> &str {
        &self.names[id as usize]
    }

    /// The string of `id`, shared.
    pub fn shared(&self, id: u32) -> Arc<str> {
        self.names[id as usize].clone()
    }

    /// Number of distinct strings.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// No strings yet.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

impl PartialEq for Interner {
    fn eq(&self, other: &Self) -> bool {
        self.names == other.names
    }
}

impl Eq for Interner {}
