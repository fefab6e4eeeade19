//! A benchmark, not a test (CI never runs it): how the analysis worker
//! should read a dropped file's slices. Measured in headless Chromium on a
//! 256 MiB `Blob` read in the worker's 16 MiB slices, each slice asked for
//! before the previous one is used (the worker's read-ahead), every byte
//! summed so that nothing is left unread:
//!
//! - as today (`src/file_read.rs`): `Blob.slice` and `Blob.arrayBuffer()`
//!   through `web-sys`, the bytes copied into one buffer kept for the whole
//!   file;
//! - with `gloo-file`: `Blob::slice` and `futures::read_as_bytes` (a
//!   `FileReader`), each slice a new `Vec`.
//!
//! `cargo test --release --target wasm32-unknown-unknown --test web_slices`
//! (ARCHITECTURE.md, "Decisions measured", gives the figures).

#![cfg(target_arch = "wasm32")]

use js_sys::{Array, Uint8Array};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;
use web_sys::Blob;

wasm_bindgen_test_configure!(run_in_browser);

/// Runs of each way.
const RUNS: usize = 5;
/// The worker's slice (`worker_io::SLICE`).
const SLICE: u64 = 16 << 20;
/// The blob: this many copies of one 64 MiB part.
const PARTS: u32 = 4;

fn now() -> f64 {
    js_sys::Reflect::get(&js_sys::global(), &"performance".into())
        .ok()
        .and_then(|p| p.dyn_into::<web_sys::Performance>().ok())
        .map_or_else(js_sys::Date::now, |p| p.now())
}

/// Median, least and most of `xs` (ms), as text.
fn spread(xs: &mut [f64]) -> String {
    xs.sort_by(f64::total_cmp);
    format!("{:.0} ms ({:.0}–{:.0})", xs[xs.len() / 2], xs[0], xs[xs.len() - 1])
}

/// A blob of `PARTS` copies of 64 MiB of varied bytes.
fn blob() -> Blob {
    let part: Vec<u8> = (0..64u32 << 20).map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8).collect();
    let parts = Array::new();
    let array = Uint8Array::from(&part[..]);
    for _ in 0..PARTS {
        parts.push(&array);
    }
    Blob::new_with_u8_array_sequence(&parts).unwrap()
}

/// Today's way: `arrayBuffer()` of each slice, copied into one kept buffer.
async fn web_sys_way(blob: &Blob) -> u64 {
    let size = blob.size();
    let ask = |at: f64| {
        JsFuture::from(blob.slice_with_f64_and_f64(at, (at + SLICE as f64).min(size)).unwrap().array_buffer())
    };
    let mut buf = vec![0u8; SLICE as usize];
    let (mut sum, mut at) = (0u64, 0.0);
    let mut next = Some(ask(0.0));
    while let Some(asked) = next.take() {
        let array = Uint8Array::new(&asked.await.unwrap());
        at += SLICE as f64;
        if at < size {
            next = Some(ask(at));
        }
        let n = array.length() as usize;
        array.copy_to(&mut buf[..n]);
        sum += buf[..n].iter().map(|&b| u64::from(b)).sum::<u64>();
    }
    sum
}

/// gloo-file's way: a `FileReader` per slice, each slice a new `Vec`.
async fn gloo_way(blob: &Blob) -> u64 {
    let blob = gloo_file::Blob::from(blob.clone());
    let size = blob.size();
    let ask = |at: u64| gloo_file::futures::read_as_bytes(&blob.slice(at, (at + SLICE).min(size)));
    let (mut sum, mut at) = (0u64, 0);
    let mut next = Some(ask(0));
    while let Some(asked) = next.take() {
        let bytes = asked.await.unwrap();
        at += SLICE;
        if at < size {
            next = Some(ask(at));
        }
        sum += bytes.iter().map(|&b| u64::from(b)).sum::<u64>();
    }
    sum
}

#[wasm_bindgen_test]
async fn a_files_slices_read_with_web_sys_and_with_gloo_file() {
    let blob = blob();
    let (mut ours, mut gloo) = (Vec::new(), Vec::new());
    for _ in 0..RUNS {
        let t = now();
        let a = web_sys_way(&blob).await;
        ours.push(now() - t);
        let t = now();
        let b = gloo_way(&blob).await;
        gloo.push(now() - t);
        assert_eq!(a, b, "both ways read the same bytes");
    }
    console_log!(
        "{} MiB in {} MiB slices: web-sys arrayBuffer {}; gloo-file FileReader {} ({RUNS} runs each, interleaved)",
        u64::from(PARTS) * 64,
        SLICE >> 20,
        spread(&mut ours),
        spread(&mut gloo)
    );
}
