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

/// Each key of `of`'s id in `table`, by `of`'s id (`None`: `table` has it not).
fn ids_in(table: &Digest, of: &Digest) -> Vec<Option<u32>> {
    of.keyed_groups().map(|(_, k, _)| table.id(k)).collect()
}

/// B's keys matched to A's by structure (B's key → A's), and each of B's
/// keys' id in A under its name then (`None`: A has it not): each key of
/// either side is looked up in the other's once, each side on a thread.
pub fn by_structure(a: &Digest, b: &Digest, join: Join<'_>) -> (FastMap<String, String>, Vec<Option<u32>>) {
    let (mut a_in_b, mut b_in_a) = (Vec::new(), Vec::new());
    join(&mut || a_in_b = ids_in(b, a), &mut || b_in_a = ids_in(a, b));
    let renamed = rounds(a, b, &a_in_b, &b_in_a, join);
    for (id, k, _) in b.keyed_groups() {
        if let Some(to) = renamed.get(k) {
            b_in_a[id as usize] = a.id(to);
        }
    }
    (renamed, b_in_a)
}

/// The matching's rounds, with each key's id on the other side (`a_in_b`,
/// `b_in_a`, by its own id).
fn rounds<'a, 'b>(
    a: &'a Digest,
    b: &'b Digest,
    a_in_b: &[Option<u32>],
    b_in_a: &[Option<u32>],
    join: Join<'_>,
) -> FastMap<String, String> {
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
        let unmatched_a =
            || a.keyed_groups().filter(|(id, k, _)| a_in_b[*id as usize].is_none() && !taken.contains(*k));
        let unmatched_b =
            || b.keyed_groups().filter(|(id, k, _)| b_in_a[*id as usize].is_none() && !renamed.contains_key(*k));
        // Each side's signatures on a thread (whether a key is matched comes
        // from `a_in_b` and `b_in_a`, not from a look-up each round).
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
