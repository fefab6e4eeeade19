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

/// Each reader regression (`reader-FORMAT-*`: two bytes of chunk size,
/// then the input, fed to that format's reader as
/// `fuzz/fuzz_targets/reader.rs` feeds it) goes through the whole analysis,
/// both reports included, without a panic. The first was a distbuild log
/// whose times overflowed the slack's subtraction.
#[test]
fn reader_regressions_go_through_the_whole_analysis() {
    use longpole_core::decompress::Compression;
    use longpole_core::diagnostics::Diagnostics;
    use longpole_core::formats::REGISTRY;
    use longpole_core::layout::timeline::TimelineIndex;
    use longpole_core::report::{analysis_json, analysis_text};
    use longpole_core::{Input, InputInfo};
    let found = inputs("reader-");
    assert!(!found.is_empty());
    for (name, data) in found {
        let file = name.rsplit('/').next().unwrap();
        let format = REGISTRY
            .iter()
            .find(|f| file.strip_prefix("reader-").is_some_and(|r| r.starts_with(&format!("{}-", f.id().name()))))
            .unwrap_or_else(|| panic!("{name} names no registered format"));
        let chunk = usize::from(u16::from_le_bytes([data[0], data[1]]) % 4096) + 1;
        let rest = &data[2..];
        let (mut reader, mut diags) = (format.reader(), Diagnostics::new());
        let fed = rest.chunks(chunk).all(|c| reader.feed(c, &mut diags).is_ok());
        if !fed || reader.end_of_input(&mut diags).is_err() {
            continue;
        }
        let counts = reader.counts();
        let Ok(parsed) = reader.finish(&mut diags) else { continue };
        let info = InputInfo {
            name: "fuzz.input".into(),
            format: format.id(),
            compression: Compression::None,
            bytes: rest.len() as u64,
            decompressed_bytes: rest.len() as u64,
            counts,
            diagnostics: diags,
        };
        let analysis = longpole_core::reconcile(vec![Input { info, parsed }]);
        for d in &analysis.datasets {
            let view = analysis.view(d, &TimelineIndex::new(&d.model));
            assert_eq!(view.format, d.format, "{name}");
        }
        assert!(analysis_json(&analysis).get("schema_version").is_some(), "{name}");
        assert!(!analysis_text(&analysis).is_empty(), "{name}");
    }
}
