//! The app's code in a real browser (headless Chromium): reading `File`s in
//! `Blob` slices gives the same result as the core reading the bytes whole.
//! Run by `cargo test --target wasm32-unknown-unknown --test web`.

#![cfg(target_arch = "wasm32")]

use js_sys::{Array, Uint8Array};
use longpole::file_read::read_file;
use longpole::worker_io::Stop;
use longpole_core::{ingest::read_bytes, reconcile, Summary};
use wasm_bindgen_test::*;
use web_sys::File;

wasm_bindgen_test_configure!(run_in_browser);

const EXAMPLE: &[u8] = include_bytes!("data/distbuild/example.log");

fn file(name: &str, bytes: &[u8]) -> File {
    let parts = Array::of1(&Uint8Array::from(bytes));
    File::new_with_u8_array_sequence(&parts, name).unwrap()
}

#[wasm_bindgen_test]
async fn slices_of_any_size_give_the_core_result() {
    let expected = Summary::of(&reconcile(vec![read_bytes("example.log", EXAMPLE, EXAMPLE.len()).unwrap()]));
    for slice in [1, 7, 4096, 4 << 20] {
        let mut calls = 0u64;
        let input = read_file(&file("example.log", EXAMPLE), slice, |_, _| {
            calls += 1;
            true
        })
        .await
        .unwrap();
        assert_eq!(calls, (EXAMPLE.len() as u64).div_ceil(slice as u64), "one call per slice of {slice}");
        assert_eq!(Summary::of(&reconcile(vec![input])), expected, "slice size {slice}");
    }
}

#[wasm_bindgen_test]
async fn returning_false_between_slices_stops_the_reading() {
    let mut seen = 0;
    let stopped = read_file(&file("example.log", EXAMPLE), 100, |ingest, _| {
        seen += 1;
        ingest.progress().bytes < 300
    })
    .await;
    assert_eq!(stopped.unwrap_err(), Stop::Cancelled);
    assert_eq!(seen, 3);
}

#[wasm_bindgen_test]
async fn random_bytes_fail_with_a_message_naming_the_file() {
    let noise: Vec<u8> = (0..10_000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    let err = read_file(&file("noise.bin", &noise), 4096, |_, _| true).await.unwrap_err();
    let Stop::Failed(message) = err else { panic!("expected a failure") };
    assert!(message.starts_with("noise.bin: not a format longpole reads"), "{message}");
}

/// A link's input at `url`, with the digest it must have, if any.
fn source(url: &str, sha256: Option<&str>) -> longpole::link::Source {
    longpole::link::Source { url: url.to_owned(), sha256: sha256.map(str::to_owned), token: None }
}

/// A `blob:` URL holding `bytes`, fetched as a server's file would be.
fn blob_url(bytes: &[u8]) -> String {
    let blob = web_sys::Blob::new_with_u8_array_sequence(&Array::of1(&Uint8Array::from(bytes))).unwrap();
    web_sys::Url::create_object_url_with_blob(&blob).unwrap()
}

#[wasm_bindgen_test]
async fn a_url_read_as_a_stream_gives_the_core_result_and_checks_its_digest() {
    use longpole::url_read::{file_name, open, read};
    let url = blob_url(EXAMPLE);
    let expected = Summary::of(&reconcile(vec![read_bytes(&file_name(&url), EXAMPLE, EXAMPLE.len()).unwrap()]));
    let right = "4cb0bdeaa8f208402001c58d7b283a154a5182983d101b6c2bea02cc1cf5a702";
    let wrong = "0".repeat(64);
    let opened = open(&source(&url, Some(right))).await.unwrap();
    assert_eq!(opened.length, Some(EXAMPLE.len() as u64));
    let mut seen = 0;
    let input = read(opened, |_, n| {
        seen += n;
        true
    })
    .await
    .unwrap();
    assert_eq!(seen, EXAMPLE.len() as u64);
    assert_eq!(Summary::of(&reconcile(vec![input])), expected);

    let err = read(open(&source(&url, Some(&wrong))).await.unwrap(), |_, _| true).await.unwrap_err();
    let Stop::Failed(message) = err else { panic!("expected a failure") };
    let said =
        format!("{url}: the bytes received do not have the SHA-256 the link gives (expected {wrong}, got {right})");
    assert!(message.starts_with(&said), "{message}");
}

#[wasm_bindgen_test]
async fn a_url_that_cannot_be_fetched_is_named() {
    let url = "http://127.0.0.1:9/nothing.log";
    let Err(e) = longpole::url_read::open(&source(url, None)).await else { panic!("port 9 answered") };
    assert!(e.to_string().starts_with("http://127.0.0.1:9/nothing.log: could not be fetched ("), "{e}");
}

/// The page's build finds a byte 16 at a time with WebAssembly's SIMD (the
/// native build's tests check the 8-byte word): every place in random
/// bytes, as a plain search finds them, at lengths across several blocks.
#[wasm_bindgen_test]
fn byte_places_with_simd_are_a_plain_searchs() {
    let mut state = 0x9e37_79b9u32;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        state
    };
    for byte in [b' ', 0x00, 0x80, 0xff] {
        let near = [byte, byte ^ 1, byte ^ 0x80, b'x'];
        for len in 0..70 {
            let bytes: Vec<u8> = (0..len).map(|_| near[next() as usize % near.len()]).collect();
            let mut found = Vec::new();
            longpole_core::byte_places::each_place(&bytes, byte, |at| {
                found.push(at);
                true
            });
            let plain: Vec<usize> = bytes.iter().enumerate().filter(|&(_, &b)| b == byte).map(|(i, _)| i).collect();
            assert_eq!(found, plain, "{byte:#x} in {bytes:?}");
            let mut stopped = 0;
            longpole_core::byte_places::each_place(&bytes, byte, |_| {
                stopped += 1;
                false
            });
            assert_eq!(stopped, plain.len().min(1), "stops when told");
        }
    }
}
