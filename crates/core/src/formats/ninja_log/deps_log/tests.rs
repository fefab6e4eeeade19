//! The deps log reader on logs laid out as ninja's `deps_log.cc` writes
//! them (versions 3 and 4), at every chunk size, and on damaged ones.

use super::{write, DepsLog};
use crate::diagnostics::Diagnostics;
use crate::formats::Parsed;
use crate::ingest::read_bytes;

fn read(bytes: &[u8]) -> (DepsLog, Diagnostics) {
    let mut whole: Option<(DepsLog, Diagnostics)> = None;
    for chunk in [1, 7, 4096, usize::MAX] {
        let input = read_bytes(".ninja_deps", bytes, chunk).unwrap();
        let Parsed::NinjaDeps(log) = input.parsed else { panic!("not read as a deps log") };
        match &whole {
            None => whole = Some((*log, input.info.diagnostics)),
            Some((w, _)) => assert_eq!(w, &*log, "at chunk size {chunk}"),
        }
    }
    whole.unwrap()
}

const PATHS: [&str; 5] = ["out/a.o", "src/a.c", "gen/v.h", "./x/../b.o", "abc"];

#[test]
fn both_versions_read_every_path_and_the_latest_deps() {
    for version in [3, 4] {
        // a.o is recorded twice: the later record replaces the first.
        let bytes = write(version, &PATHS, &[(0, &[1]), (3, &[1, 2]), (0, &[1, 2])]);
        let (log, d) = read(&bytes);
        assert!(d.kept().is_empty(), "{:?}", d.kept());
        assert_eq!(log.version, version);
        assert_eq!(log.paths, ["out/a.o", "src/a.c", "gen/v.h", "b.o", "abc"], "canonical, padding removed");
        assert_eq!(log.deps_of(0), Some(&[1, 2][..]));
        assert_eq!(log.deps_of(3), Some(&[1, 2][..]));
        assert_eq!(log.deps_of(1), None);
        assert_eq!((log.outputs(), log.records), (vec![0, 3], 3));
    }
}

#[test]
fn a_damaged_log_is_read_up_to_the_damage() {
    let good = write(4, &PATHS, &[(0, &[1])]);
    // A wrong checksum on the third path: the reading stops before it.
    let mut bad = good.clone();
    let third = 16 + (4 + 8 + 4) + (4 + 8 + 4);
    bad[third + 4 + 8] ^= 1;
    let (log, d) = read(&bad);
    assert_eq!(log.paths.len(), 2);
    let k = &d.kept()[0];
    assert_eq!((k.code.as_ref(), k.position.to_string()), ("ninja-deps.corrupt", format!("byte {third}")));
    assert!(k.message.contains("checksum"), "{}", k.message);
    // A deps record naming a node not defined.
    let (_, d) = read(&write(3, &PATHS[..1], &[(0, &[7])]));
    assert!(d.kept()[0].message.contains("node 7"), "{:?}", d.kept());
    // A cut last record.
    let (log, d) = read(&good[..good.len() - 2]);
    assert_eq!((log.paths.len(), log.records), (5, 0));
    assert_eq!(d.kept()[0].code.as_ref(), "ninja-deps.cut");
}

#[test]
fn an_old_version_is_not_this_format() {
    let mut v2 = write(4, &PATHS, &[]);
    v2[12] = 2;
    let err = read_bytes(".ninja_deps", &v2, 4096).unwrap_err().to_string();
    assert!(err.contains("version 2"), "{err}");
}
