//! Spark event logs from real PySpark runs (`fixtures/spark/`, made by
//! `tests/spark/spark_test.py --keep`, with their `.reference` files by
//! `--references`): a skewed join whose shuffle a later job reuses, a
//! grouping read twice and a SQL query, in local mode, plain, with each of
//! Spark's codecs and as a rolling log. Each is read at every chunk size
//! and snapshotted; its decoded bytes are Spark's own reader's (SHA-256);
//! its wall, counts and each path stage's duration are the History
//! Server's figures of it; on the plain log, the same figures and the
//! path's chain are also computed here from the raw events.

mod support;

use longpole_core::decompress::{Compression, CorruptStream, Decoder};
use longpole_core::diagnostics::Position;
use longpole_core::ingest::read_bytes;
use longpole_core::report::analysis_json;
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::path::PathBuf;
use support::{check_format, named, text_and_json};

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/spark")
}

/// The fixtures: (name, the bytes longpole reads, the reference file).
fn fixtures() -> Vec<(String, Vec<u8>, Value)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir()).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if name.ends_with(".reference") || name.ends_with(".md") {
            continue;
        }
        let bytes = if p.is_dir() {
            // A rolling log: its events files in the order of their number.
            let mut parts: Vec<(u64, PathBuf)> = std::fs::read_dir(&p)
                .unwrap()
                .filter_map(|e| {
                    let q = e.unwrap().path();
                    let n = q.file_name()?.to_str()?.strip_prefix("events_")?.split('_').next()?.parse().ok()?;
                    Some((n, q))
                })
                .collect();
            parts.sort();
            parts.iter().flat_map(|(_, q)| std::fs::read(q).unwrap()).collect()
        } else {
            std::fs::read(&p).unwrap()
        };
        let reference =
            serde_json::from_slice(&std::fs::read(dir().join(format!("{name}.reference"))).unwrap()).unwrap();
        out.push((name, bytes, reference));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn decoded(bytes: &[u8]) -> Vec<u8> {
    let mut d = Decoder::new(Compression::sniff(bytes, true).unwrap());
    let mut out = Vec::new();
    d.push::<CorruptStream>(bytes, &mut |b| {
        out.extend_from_slice(b);
        Ok(())
    })
    .unwrap();
    out
}

#[test]
fn every_codec_decodes_to_what_sparks_own_reader_reads() {
    let all = fixtures();
    assert_eq!(all.len(), 5, "plain, zstd, lz4, snappy and rolling");
    for (name, bytes, reference) in &all {
        let plain = decoded(bytes);
        assert_eq!(plain.len() as u64, reference["decoded_bytes"].as_u64().unwrap(), "{name}");
        let digest: String = Sha256::digest(&plain).iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(digest, reference["decoded_sha256"].as_str().unwrap(), "{name}");
    }
}

#[test]
fn the_figures_are_the_history_servers() {
    for (name, bytes, reference) in fixtures() {
        let a = analysis_json(&longpole_core::reconcile(vec![read_bytes(&name, &bytes, 64 << 10).unwrap()]));
        assert_eq!(a["format"], "spark", "{name}");
        assert_eq!(a["wall_ms"], reference["wall_ms"], "{name}");
        let s = &a["spark"];
        assert_eq!(s["jobs"], reference["jobs"], "{name}");
        assert_eq!(s["stages_ran"], reference["stages_ran"], "{name}");
        assert_eq!(s["stages_skipped"], reference["stages_skipped"], "{name}");
        assert_eq!(s["task_attempts"], reference["tasks"], "{name}");
        let path = a["critical_path"]["tasks"].as_array().unwrap();
        assert!(path.len() >= 2, "{name}: {path:?}");
        assert_eq!(path.last().unwrap()["stage_id"], reference["last_completed_stage"], "{name}");
        for t in path {
            let id = t["stage_id"].as_i64().unwrap().to_string();
            assert_eq!(t["duration_ms"], reference["stage_duration_ms"][&id], "{name}: stage {id}");
        }
        // The last job's skipped stage stands for the join's map stage, and
        // the join's reduce side has a straggler on the path.
        assert!(path.iter().any(|t| !t["for_skipped_stage"].is_null()), "{name}");
        assert!(path.iter().any(|t| t["skew"]["straggler"] == true), "{name}");
    }
}

#[test]
fn the_path_is_a_chain_of_real_dependencies_per_the_raw_events() {
    let bytes = std::fs::read(dir().join("skewed-join")).unwrap();
    let events: Vec<Value> =
        bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty()).map(|l| serde_json::from_slice(l).unwrap()).collect();
    let of = |e: &Value, k: &str| e["Event"] == k;
    let mut completed: HashMap<i64, &Value> = HashMap::new();
    let mut listed: HashMap<i64, &Value> = HashMap::new();
    for e in &events {
        if of(e, "SparkListenerStageCompleted") {
            completed.insert(e["Stage Info"]["Stage ID"].as_i64().unwrap(), &e["Stage Info"]);
        }
        if of(e, "SparkListenerJobStart") {
            for s in e["Stage Infos"].as_array().unwrap() {
                listed.entry(s["Stage ID"].as_i64().unwrap()).or_insert(s);
            }
        }
    }
    let rdd = |s: &Value| s["RDD Info"].as_array().unwrap().iter().map(|r| r["RDD ID"].as_i64().unwrap()).max();
    let start = events.iter().find(|e| of(e, "SparkListenerApplicationStart")).unwrap()["Timestamp"].as_i64().unwrap();
    let end = events.iter().find(|e| of(e, "SparkListenerApplicationEnd")).unwrap()["Timestamp"].as_i64().unwrap();
    let a = analysis_json(&longpole_core::reconcile(vec![read_bytes("log", &bytes, 4096).unwrap()]));
    assert_eq!(a["wall_ms"].as_i64(), Some(end - start));
    let path: Vec<i64> =
        a["critical_path"]["tasks"].as_array().unwrap().iter().map(|t| t["stage_id"].as_i64().unwrap()).collect();
    for w in path.windows(2) {
        let parents: Vec<i64> =
            completed[&w[1]]["Parent IDs"].as_array().unwrap().iter().map(|p| p.as_i64().unwrap()).collect();
        let direct = parents.contains(&w[0]);
        let through_skipped = parents
            .iter()
            .any(|p| !completed.contains_key(p) && listed.get(p).and_then(|s| rdd(s)) == rdd(completed[&w[0]]));
        assert!(direct || through_skipped, "stage {} waits for stage {}? parents {parents:?}", w[1], w[0]);
    }
    let first = completed[&path[0]]["Submission Time"].as_i64().unwrap();
    let last = completed[path.last().unwrap()]["Completion Time"].as_i64().unwrap();
    assert_eq!(a["critical_path"]["total_ms"].as_i64(), Some(last - first));
}

#[test]
fn snapshots_at_every_chunk_size() {
    for (name, bytes, _) in fixtures() {
        let files = [named(&name, bytes)];
        let snap = name.replace('.', "-");
        check_format!(files, text_and_json => format!("{snap}-text"), format!("{snap}-json"));
    }
}

/// The offset of each lz4-java block of `bytes` and the length of its
/// body, from the headers (magic, token, compressed length at byte 9).
fn lz4_blocks(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(h) = bytes.get(at..at + 21) {
        let packed = u32::from_le_bytes(h[9..13].try_into().unwrap()) as usize;
        out.push((at, packed));
        at += 21 + packed;
    }
    out
}

/// lz4-java's per-block checksums are verified: none of the fixture's
/// differs; a block whose stored checksum was changed, and one whose last
/// byte (a literal in every LZ4 block, so it still decodes) was flipped,
/// are each a warning at the block's offset, and the log is read through.
#[test]
fn a_damaged_lz4_block_is_named_by_its_offset() {
    let bytes = std::fs::read(dir().join("skewed-join.lz4")).unwrap();
    let clean = read_bytes("skewed-join.lz4", &bytes, 4096).unwrap();
    assert_eq!(clean.info.diagnostics.count_of("input.checksum"), 0);
    let blocks = lz4_blocks(&bytes);
    assert!(blocks.len() > 3, "the fixture has several blocks");
    let (second, _) = blocks[1];
    let (third, third_len) = blocks[2];
    let mut damaged = bytes.clone();
    damaged[second + 17] ^= 0x01;
    damaged[third + 21 + third_len - 1] ^= 0x01;
    for chunk in [1, 7, 4096, damaged.len()] {
        let input = read_bytes("damaged.lz4", &damaged, chunk).unwrap();
        let at: Vec<Position> =
            input.info.diagnostics.kept().iter().filter(|d| d.code == "input.checksum").map(|d| d.position).collect();
        assert_eq!(at, [Position::Byte(second as u64), Position::Byte(third as u64)], "chunks of {chunk}");
        assert_eq!(input.info.decompressed_bytes, clean.info.decompressed_bytes, "read through");
    }
}
