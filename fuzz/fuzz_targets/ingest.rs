//! The ingest path: compression sniffing, the gzip, bzip2 and zstd push
//! decoders, format detection and the chosen reader, fed in chunks of a
//! size the input picks, then the whole analysis.
#![no_main]

#[path = "common.rs"]
mod common;

use libfuzzer_sys::fuzz_target;
use longpole_core::Ingest;

fuzz_target!(|data: &[u8]| {
    let [a, b, rest @ ..] = data else { return };
    let mut ingest = Ingest::new("fuzz.input");
    for chunk in rest.chunks(common::chunk_size(*a, *b)) {
        if ingest.feed(chunk).is_err() {
            return;
        }
    }
    if let Ok(input) = ingest.finish() {
        common::analyse(input);
    }
});
