//! Every format reader on any bytes, past sniffing: the first byte picks a
//! reader from the registry, the next two a chunk size; what it reads goes
//! through the whole analysis. Each reader also has a target of its own
//! (`reader_*.rs`).
#![no_main]

#[path = "common.rs"]
mod common;
#[path = "reader.rs"]
mod reader;

use libfuzzer_sys::fuzz_target;
use longpole_core::formats::REGISTRY;

fuzz_target!(|data: &[u8]| {
    let [pick, rest @ ..] = data else { return };
    reader::read_with(REGISTRY[usize::from(*pick) % REGISTRY.len()], rest);
});
