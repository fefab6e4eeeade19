use super::*;
use crate::test_support::corpus;

fn decode(data: &[u8], chunk: usize) -> Result<(Vec<u8>, Decoded), CorruptStream> {
    let codec = Compression::sniff(data, true).unwrap();
    let mut d = Decoder::new(codec);
    let mut out = Vec::new();
    for c in data.chunks(chunk.max(1)) {
        d.push::<CorruptStream>(c, &mut |b| {
            out.extend_from_slice(b);
            Ok(())
        })?;
    }
    Ok((out, d.finish()))
}

fn check_chunk_invariance(data: &[u8]) -> Vec<u8> {
    let (whole, end) = decode(data, data.len()).unwrap();
    assert_eq!(end, Decoded::Complete);
    for chunk in [1, 7, 4096] {
        let (out, end) = decode(data, chunk).unwrap();
        assert_eq!(end, Decoded::Complete, "chunk {chunk}");
        assert!(out == whole, "chunk size {chunk} changes the output");
    }
    whole
}

#[test]
fn sniffs_magic_numbers() {
    assert_eq!(Compression::sniff(&[0x1f, 0x8b, 8], false), Some(Compression::Gzip));
    assert_eq!(Compression::sniff(b"BZh9", false), Some(Compression::Bzip2));
    assert_eq!(Compression::sniff(&[0x28, 0xb5, 0x2f, 0xfd], false), Some(Compression::Zstd));
    assert_eq!(Compression::sniff(&[0x28, 0xb5], false), None);
    assert_eq!(Compression::sniff(&[0x28, 0xb5], true), Some(Compression::None));
    assert_eq!(Compression::sniff(b"1000 prepare_start", false), Some(Compression::None));
    assert_eq!(Compression::sniff(b"", false), None);
}

#[test]
fn gzip_and_bzip2_of_the_same_trace_decode_to_the_original() {
    let original = std::fs::read(corpus("monetdb-mal/jan2019_sf10_10threads/Q01_variation001.json")).unwrap();
    let gz = check_chunk_invariance(&std::fs::read(corpus("monetdb-mal/compressed/trace.json.gz")).unwrap());
    let bz = check_chunk_invariance(&std::fs::read(corpus("monetdb-mal/compressed/trace.json.bz2")).unwrap());
    assert!(gz == original);
    assert!(bz == original);
}

#[test]
fn zstd_log_decodes_to_its_documented_size() {
    let out =
        check_chunk_invariance(&std::fs::read(corpus("evobench/generated-current-format/evobench.log.zstd")).unwrap());
    assert_eq!(out.len(), 3_077_999);
    assert_eq!(out.iter().filter(|&&b| b == b'\n').count(), 12856);
}

#[test]
fn concatenated_members_are_all_read() {
    let one = std::fs::read(corpus("chrome-trace/catapult/simple_trace_gz.gz")).unwrap();
    let single = check_chunk_invariance(&one);
    let double = check_chunk_invariance(&[one.clone(), one].concat());
    assert_eq!(double, [single.clone(), single].concat());

    let bz = std::fs::read(corpus("monetdb-mal/compressed/trace.json.bz2")).unwrap();
    let single = check_chunk_invariance(&bz);
    assert_eq!(check_chunk_invariance(&[bz.clone(), bz].concat()), [single.clone(), single].concat());
}

#[test]
fn a_cut_stream_yields_what_it_held_and_says_so() {
    for file in [
        "monetdb-mal/compressed/trace.json.gz",
        "monetdb-mal/compressed/trace.json.bz2",
        "evobench/generated-current-format/evobench.log.zstd",
    ] {
        let data = std::fs::read(corpus(file)).unwrap();
        let (full, _) = decode(&data, data.len()).unwrap();
        let (part, end) = decode(&data[..data.len() * 2 / 3], 4096).unwrap();
        assert_eq!(end, Decoded::Truncated, "{file}");
        assert!(full.starts_with(&part), "{file}: a prefix of the output");
        // zstd holds back its window (8 MiB at level 19) until a frame ends.
        assert!(!part.is_empty() || file.ends_with(".zstd"), "{file}: something was read");
    }
}

#[test]
fn corrupt_data_is_an_error_not_a_panic() {
    for file in [
        "monetdb-mal/compressed/trace.json.gz",
        "monetdb-mal/compressed/trace.json.bz2",
        "evobench/generated-current-format/evobench.log.zstd",
    ] {
        let mut data = std::fs::read(corpus(file)).unwrap();
        let mid = data.len() / 2;
        for b in &mut data[mid..mid + 64] {
            *b ^= 0x5a;
        }
        assert!(decode(&data, 1000).is_err(), "{file}");
    }
}
