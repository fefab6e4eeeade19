//! Cargo's timings past the sniffer: the input's bytes become a page's
//! `UNIT_DATA` array (first byte even) or a build-analysis log's lines
//! after its `build-started` (odd), so that the fuzzer works on units and
//! events rather than on the page's frame; then ingest and the whole
//! analysis.
#![no_main]

#[path = "common.rs"]
mod common;

use libfuzzer_sys::fuzz_target;
use longpole_core::Ingest;

fuzz_target!(|data: &[u8]| {
    let [pick, a, b, rest @ ..] = data else { return };
    let mut bytes = Vec::with_capacity(rest.len() + 200);
    if pick % 2 == 0 {
        bytes.extend_from_slice(b"<html><head><title>Cargo Build Timings</title></head><body>\n<script>\nconst UNIT_DATA = [");
        bytes.extend_from_slice(rest);
        bytes.extend_from_slice(b"];\nconst CONCURRENCY_DATA = [];\n</script></body></html>\n");
    } else {
        bytes.extend_from_slice(b"{\"run_id\":\"f\",\"reason\":\"build-started\",\"jobs\":2}\n");
        bytes.extend_from_slice(rest);
    }
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
