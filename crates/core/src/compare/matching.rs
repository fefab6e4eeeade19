//! Matching tasks across runs whose keys differ: the structural fallback.
//! A key of B that A does not have is matched to a key of A that B does not
//! have when everything each waited for and everything that waited for each
//! is matched, the same on both sides, and no other unmatched key of
//! either side has that same neighbourhood. Each match can make others
//! possible, so this repeats until nothing more matches.

use super::digest::{Digest, Group};
use crate::hash::{FastMap, FastSet};
use crate::join::Join;
use std::collections::BTreeMap;

/// B's keys matched to A's by structure: B's key → A's.
pub fn by_structure<'a, 'b>(a: &'a Digest, b: &'b Digest, join: Join<'_>) -> FastMap<String, String> {
    let mut renamed: FastMap<String, String> = FastMap::default();
    let mut taken: FastSet<String> = FastSet::default();
    loop {
        // A key of A is matched when B has it (or a key of B was matched to
        // it); a key of B when A has it under its name so far.
        let matched_a = |k: &'a str| (b.id(k).is_some() || taken.contains(k)).then_some(k);
        let matched_b = |k: &'b str| {
            let name = renamed.get(k).map_or(k, String::as_str);
            a.id(name).is_some().then_some(name)
        };
        let unmatched_a = || a.keyed_groups().filter(|(_, k, _)| b.id(k).is_none() && !taken.contains(*k));
        let unmatched_b = || b.keyed_groups().filter(|(_, k, _)| a.id(k).is_none() && !renamed.contains_key(*k));
        // Each side's on a thread: every key of both is looked up each round.
        let (mut sigs_a, mut sigs_b) = (BTreeMap::new(), BTreeMap::new());
        join(&mut || sigs_a = signatures(a, unmatched_a(), &matched_a), &mut || {
            sigs_b = signatures(b, unmatched_b(), &matched_b)
        });
        let mut found = Vec::new();
        for (sig, ka) in &sigs_a {
            if let (Some([kb]), [ka]) = (sigs_b.get(sig).map(Vec::as_slice), ka.as_slice()) {
                found.push(((*kb).to_owned(), (*ka).to_owned()));
            }
        }
        if found.is_empty() {
            return renamed;
        }
        for (kb, ka) in found {
            taken.insert(ka.clone());
            renamed.insert(kb, ka);
        }
    }
}

/// The keys of `d` in `keys` by their neighbourhood's signature.
fn signatures<'d, 'm>(
    d: &'d Digest,
    keys: impl Iterator<Item = (u32, &'d str, &'d Group)>,
    matched: &dyn Fn(&'d str) -> Option<&'m str>,
) -> BTreeMap<String, Vec<&'d str>> {
    let mut out: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for (id, k, _) in keys {
        if let Some(sig) = signature(d, id, matched) {
            out.entry(sig).or_default().push(k);
        }
    }
    out
}

/// Key `k`'s neighbourhood as matched names (what it waited for, then what
/// waited for it), or `None` when it has none or one of them is unmatched.
fn signature<'d, 'm>(d: &'d Digest, k: u32, matched: &dyn Fn(&'d str) -> Option<&'m str>) -> Option<String> {
    if d.deps_of(k).is_empty() && d.dependants_of(k).is_empty() {
        return None;
    }
    let names = |ids: &[u32]| -> Option<Vec<&str>> {
        let mut v = ids.iter().map(|&k| matched(d.key(k))).collect::<Option<Vec<&str>>>()?;
        v.sort();
        Some(v)
    };
    let (deps, dependants) = (names(d.deps_of(k))?, names(d.dependants_of(k))?);
    Some(format!("{}\u{1}{}", deps.join("\u{0}"), dependants.join("\u{0}")))
}
