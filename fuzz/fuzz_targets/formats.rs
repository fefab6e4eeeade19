//! Every format reader on any bytes, past sniffing: the first byte picks a
//! reader from the registry, the next two a chunk size; what it reads goes
//! through the whole analysis.
#![no_main]

#[path = "common.rs"]
mod common;

use libfuzzer_sys::fuzz_target;
use longpole_core::decompress::Compression;
use longpole_core::diagnostics::Diagnostics;
use longpole_core::formats::REGISTRY;
use longpole_core::{Input, InputInfo};

fuzz_target!(|data: &[u8]| {
    let [pick, a, b, rest @ ..] = data else { return };
    let format = REGISTRY[usize::from(*pick) % REGISTRY.len()];
    let mut reader = format.reader();
    let mut diags = Diagnostics::new();
    for chunk in rest.chunks(common::chunk_size(*a, *b)) {
        if reader.feed(chunk, &mut diags).is_err() {
            return;
        }
    }
    if reader.end_of_input(&mut diags).is_err() {
        return;
    }
    let counts = reader.counts();
    let Ok(parsed) = reader.finish(&mut diags) else { return };
    let info = InputInfo {
        name: "fuzz.input".into(),
        format: format.id(),
        compression: Compression::None,
        bytes: rest.len() as u64,
        decompressed_bytes: rest.len() as u64,
        counts,
        diagnostics: diags,
    };
    common::analyse(Input { info, parsed });
});
