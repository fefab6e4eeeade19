//! The push decoders alone (gzip, bzip2, zstd, Spark's lz4 and snappy):
//! the first byte picks the codec, the next two a chunk size; the input is
//! pushed in chunks, and every decoded byte is counted. A decoder must
//! stop with its error or deliver, never panic or hang.
#![no_main]

#[path = "common.rs"]
mod common;

use libfuzzer_sys::fuzz_target;
use longpole_core::decompress::{Compression, CorruptStream, Decoder};

const CODECS: [Compression; 5] =
    [Compression::Gzip, Compression::Bzip2, Compression::Zstd, Compression::Lz4, Compression::Snappy];

fuzz_target!(|data: &[u8]| {
    let [pick, a, b, rest @ ..] = data else { return };
    let mut decoder = Decoder::new(CODECS[usize::from(*pick) % CODECS.len()]);
    let mut out = 0usize;
    for chunk in rest.chunks(common::chunk_size(*a, *b)) {
        let pushed = decoder.push::<CorruptStream>(chunk, &mut |piece| {
            out += piece.len();
            Ok(())
        });
        if pushed.is_err() {
            return;
        }
    }
    std::hint::black_box((out, decoder.finish()));
});
