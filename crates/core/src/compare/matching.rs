//! Matching tasks across runs whose keys differ: the structural fallback.
//! A key of B that A does not have is matched to a key of A that B does not
//! have when everything each waited for and everything that waited for each
//! is matched, the same on both sides, and no other unmatched key of
//! either side has that same neighbourhood. Each match can make others
//! possible, so this repeats until nothing more matches.

use super::digest::Digest;
use crate::hash::FastMap;
use std::collections::BTreeMap;

/// B's keys matched to A's by structure: B's key → A's.
pub fn by_structure(a: &Digest, b: &Digest) -> FastMap<String, String> {
    let mut renamed: FastMap<String, String> = FastMap::default();
    let mut taken: FastMap<String, ()> = FastMap::default();
    loop {
        // B's keys under their A names so far.
        let in_a = |k: &str| a.groups.contains_key(k);
        let b_name = |k: &String| renamed.get(k).cloned().unwrap_or_else(|| k.clone());
        let matched_b = |k: &String| {
            let n = b_name(k);
            in_a(&n).then_some(n)
        };
        let matched_a = |k: &String| (b.groups.contains_key(k) || taken.contains_key(k)).then(|| k.clone());
        let mut sigs_a: BTreeMap<String, Vec<&String>> = BTreeMap::new();
        for (k, g) in &a.groups {
            if b.groups.contains_key(k) || taken.contains_key(k) {
                continue;
            }
            if let Some(sig) = signature(g.deps.iter().chain(&g.dependants), g.deps.len(), &matched_a) {
                sigs_a.entry(sig).or_default().push(k);
            }
        }
        let mut sigs_b: BTreeMap<String, Vec<&String>> = BTreeMap::new();
        for (k, g) in &b.groups {
            if a.groups.contains_key(k) || renamed.contains_key(k) {
                continue;
            }
            if let Some(sig) = signature(g.deps.iter().chain(&g.dependants), g.deps.len(), &matched_b) {
                sigs_b.entry(sig).or_default().push(k);
            }
        }
        let mut found = Vec::new();
        for (sig, ka) in &sigs_a {
            if let (Some([kb]), [ka]) = (sigs_b.get(sig).map(Vec::as_slice), ka.as_slice()) {
                found.push(((*kb).clone(), (*ka).clone()));
            }
        }
        if found.is_empty() {
            return renamed;
        }
        for (kb, ka) in found {
            taken.insert(ka.clone(), ());
            renamed.insert(kb, ka);
        }
    }
}

/// A key's neighbourhood as matched names (its first `n_deps` neighbours are
/// what it waited for, the rest what waited for it), or `None` when it has
/// none or one of them is unmatched.
fn signature<'k>(
    neighbours: impl Iterator<Item = &'k String>,
    n_deps: usize,
    matched: &dyn Fn(&String) -> Option<String>,
) -> Option<String> {
    let mut deps = Vec::new();
    let mut dependants = Vec::new();
    for (i, k) in neighbours.enumerate() {
        let name = matched(k)?;
        if i < n_deps {
            deps.push(name);
        } else {
            dependants.push(name);
        }
    }
    if deps.is_empty() && dependants.is_empty() {
        return None;
    }
    deps.sort();
    dependants.sort();
    Some(format!("{}\u{1}{}", deps.join("\u{0}"), dependants.join("\u{0}")))
}
