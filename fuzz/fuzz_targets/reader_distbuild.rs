//! The `distbuild` reader alone on any bytes, then the whole analysis
//! (`reader.rs`); its corpus and dictionary are its own (`scripts/fuzz.sh`).
#![no_main]

#[path = "common.rs"]
mod common;
#[path = "reader.rs"]
mod reader;

libfuzzer_sys::fuzz_target!(|data: &[u8]| reader::read_as("distbuild", data));
