//! Spark event logs past the sniffer: the input's bytes follow a log's
//! first line (`SparkListenerLogStart`), or an lz4-java or snappy-java
//! header so that the decoders of Spark's codecs get them (the first
//! byte picks which); then ingest and the whole analysis, the path over
//! the stages and the skew included.
#![no_main]

#[path = "common.rs"]
mod common;

use libfuzzer_sys::fuzz_target;
use longpole_core::Ingest;

const FIRST: &[u8] = b"{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.5.1\"}\n";

fuzz_target!(|data: &[u8]| {
    let [pick, a, b, rest @ ..] = data else { return };
    let mut bytes = Vec::with_capacity(rest.len() + FIRST.len() + 16);
    match pick % 4 {
        1 => bytes.extend_from_slice(b"LZ4Block"),
        3 => bytes.extend_from_slice(b"\x82SNAPPY\0\0\0\0\x01\0\0\0\x01"),
        _ => bytes.extend_from_slice(FIRST),
    }
    bytes.extend_from_slice(rest);
    let mut ingest = Ingest::new("fuzz.input");
    for chunk in bytes.chunks(common::chunk_size(*a, *b)) {
        if ingest.feed(chunk).is_err() {
            return;
        }
    }
    if let Ok(input) = ingest.finish() {
        common::analyse(input);
    }
});
