//! One registered reader on any bytes, past sniffing: the first two bytes
//! pick a chunk size, the rest is fed to the reader in chunks of that size,
//! and what it reads goes through the whole analysis ([`super::common`]).
//! Each reader's own target (`reader_*.rs`) calls [`read_as`], so that each
//! gets the fuzzer's whole time, its own corpus and its own dictionary.

#![allow(dead_code)] // each target uses its own part

use longpole_core::decompress::Compression;
use longpole_core::diagnostics::Diagnostics;
use longpole_core::formats::{Format, REGISTRY};
use longpole_core::{Input, InputInfo};

/// `data` read by the registered format named `name` (`ghc-eventlog`).
pub fn read_as(name: &str, data: &[u8]) {
    if let Some(&format) = REGISTRY.iter().find(|f| f.id().name() == name) {
        read_with(format, data);
    }
}

/// `data` (two bytes of chunk size, then the input) read by `format`.
pub fn read_with(format: &dyn Format, data: &[u8]) {
    let [a, b, rest @ ..] = data else { return };
    let mut reader = format.reader();
    let mut diags = Diagnostics::new();
    for chunk in rest.chunks(super::common::chunk_size(*a, *b)) {
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
    super::common::analyse(Input { info, parsed });
}
