//! A benchmark, not a test (CI never runs it): how the worker's biggest
//! message, a finished run's `Done` (its summary, its view and its first
//! bars), should cross from the worker to the page. Measured in headless
//! Chromium on a simulated distributed build of about 100 MB of log, each
//! way the full trip: encode in the worker, `postMessage` through a
//! `MessageChannel` (a structured clone, as between the worker and the
//! page), decode in the page:
//!
//! - as a JSON string (serde_json both sides), decoded as any message;
//! - as today: the same string, decoded by `Response::from_json`, which
//!   reads a `Done` straight into its fields;
//! - as `serde-wasm-bindgen` values (a JS object graph both sides; times,
//!   ns since the epoch, as BigInts, since they pass 2^53).
//!
//! `cargo test --release --target wasm32-unknown-unknown --test web_messages`
//! (ARCHITECTURE.md, "Decisions measured", gives the figures).

#![cfg(target_arch = "wasm32")]

use js_sys::Promise;
use longpole::finished::conclude;
use longpole::protocol::{Finished, Response};
use longpole_core::ingest::read_bytes;
use longpole_distbuild_sim::{graph, simulate, write_graph_json, Config};
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;
use web_sys::{MessageChannel, MessageEvent};

wasm_bindgen_test_configure!(run_in_browser);

/// Runs of each way.
const RUNS: usize = 5;

fn now() -> f64 {
    js_sys::Reflect::get(&js_sys::global(), &"performance".into())
        .ok()
        .and_then(|p| p.dyn_into::<web_sys::Performance>().ok())
        .map_or_else(js_sys::Date::now, |p| p.now())
}

/// `value` posted through a new `MessageChannel`, as the other side receives it.
async fn posted(value: &JsValue) -> JsValue {
    let channel = MessageChannel::new().unwrap();
    let (tx, rx) = (channel.port1(), channel.port2());
    let receiver = rx.clone();
    let arrived = Promise::new(&mut |resolve, _| {
        let on = Closure::once_into_js(move |e: MessageEvent| {
            resolve.call1(&JsValue::NULL, &e.data()).unwrap();
        });
        receiver.set_onmessage(Some(on.unchecked_ref()));
    });
    tx.post_message(value).unwrap();
    JsFuture::from(arrived).await.unwrap()
}

/// Median, least and most of `xs` (ms), as text.
fn spread(xs: &mut [f64]) -> String {
    xs.sort_by(f64::total_cmp);
    format!("{:.0} ms ({:.0}–{:.0})", xs[xs.len() / 2], xs[0], xs[xs.len() - 1])
}

#[wasm_bindgen_test]
async fn a_finished_runs_message_as_json_and_as_js_values() {
    let cfg = Config { nodes: 90_000, hosts: 200, ..Config::default() };
    let nodes = graph(&cfg);
    let (mut log, mut graph_json) = (Vec::new(), Vec::new());
    write_graph_json(&nodes, &mut graph_json).unwrap();
    simulate(&cfg, &nodes, &mut log).unwrap();
    let inputs =
        vec![read_bytes("build.log", &log, 1 << 20).unwrap(), read_bytes("graph.json", &graph_json, 1 << 20).unwrap()];
    let (done, _) = conclude(1, longpole_core::reconcile(inputs), 0.0, 0);
    let Response::Done(Finished { view, bars, .. }) = &done else { panic!("not a finished run") };
    let json_len = serde_json::to_string(&done).unwrap().len();
    console_log!(
        "input: {} MB of log, {} MB of graph.json; the Done message: {} KB of JSON, {} path tasks, {} rows of bars",
        log.len() / 1_000_000,
        graph_json.len() / 1_000_000,
        json_len / 1000,
        view.as_ref().map_or(0, |v| v.critical_path.steps.len()),
        bars.len()
    );
    let values_out = serde_wasm_bindgen::Serializer::new().serialize_large_number_types_as_bigints(true);
    let (mut json, mut direct, mut values) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..RUNS {
        let t = now();
        let sent = JsValue::from_str(&serde_json::to_string(&done).unwrap());
        let got = posted(&sent).await;
        let back: Response = serde_json::from_str(&got.as_string().unwrap()).unwrap();
        json.push(now() - t);
        assert_eq!(back, done);

        let t = now();
        let sent = JsValue::from_str(&done.to_json().unwrap());
        let got = posted(&sent).await;
        let back = Response::from_json(&got.as_string().unwrap()).unwrap();
        direct.push(now() - t);
        assert_eq!(back, done);

        let t = now();
        // Times are ns since the epoch, past 2^53: BigInts, or the encoder refuses them.
        let sent = done.serialize(&values_out).unwrap();
        let got = posted(&sent).await;
        let back: Response = serde_wasm_bindgen::from_value(got).unwrap();
        values.push(now() - t);
        assert_eq!(back, done);
    }
    console_log!(
        "JSON string: {}; the same, Response::from_json: {}; serde-wasm-bindgen values: {} ({RUNS} runs each, interleaved)",
        spread(&mut json),
        spread(&mut direct),
        spread(&mut values)
    );
}
