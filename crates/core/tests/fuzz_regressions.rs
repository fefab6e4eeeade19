//! Inputs the fuzz targets (`fuzz/`, `scripts/fuzz.sh`) found crashing,
//! hanging or over-allocating, kept as regressions. Each file is a fuzz
//! input as its target reads it: for `ingest-*`, two bytes of chunk size
//! (little-endian, modulo 4096, plus one), then the input.

use longpole_core::ingest::read_bytes;
use std::path::PathBuf;

fn inputs(prefix: &str) -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz_regressions");
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with(prefix))
        .map(|p| (p.display().to_string(), std::fs::read(p).unwrap()))
        .collect();
    out.sort();
    out
}

/// Each ingest regression reads to the same outcome in its own chunks as
/// whole (it once took over 10 s in 8-byte chunks, re-sniffing the head).
#[test]
fn ingest_regressions_read_as_they_do_whole() {
    let found = inputs("ingest-");
    assert!(!found.is_empty());
    for (name, data) in found {
        let chunk = usize::from(u16::from_le_bytes([data[0], data[1]]) % 4096) + 1;
        let rest = &data[2..];
        let outcome = |c: usize| match read_bytes("fuzz.input", rest, c) {
            Ok(input) => format!("{:?} {:?}", input.info.format, input.info.counts),
            Err(e) => e.to_string(),
        };
        assert_eq!(outcome(chunk), outcome(rest.len()), "{name}");
    }
}
