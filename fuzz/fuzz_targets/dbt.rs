//! dbt's two artifacts read together from any bytes: the input is cut in
//! two at a place its first two bytes pick, each half a document after a
//! real schema header (a run's results, a manifest), so that the fuzzer
//! reaches the results, the nodes, their pairing and the `dbt build` edges
//! rather than stopping at the sniffer.
#![no_main]

#[path = "common.rs"]
mod common;

use libfuzzer_sys::fuzz_target;
use longpole_core::ingest::read_bytes;
use longpole_core::layout::timeline::TimelineIndex;
use longpole_core::report::{analysis_json, analysis_text};

const RESULTS: &[u8] = br#"{"metadata": {"dbt_schema_version": "https://schemas.getdbt.com/dbt/run-results/v6.json", "invocation_id": "f"}, "args": {"which": "build", "threads": 4}, "results": ["#;
const MANIFEST: &[u8] = br#"{"metadata": {"dbt_schema_version": "https://schemas.getdbt.com/dbt/manifest/v12.json", "invocation_id": "f"}, "nodes": {"#;

fuzz_target!(|data: &[u8]| {
    let [a, b, c, d, rest @ ..] = data else { return };
    let cut = usize::from(u16::from_le_bytes([*a, *b])) % (rest.len() + 1);
    let chunk = common::chunk_size(*c, *d);
    let results = [RESULTS, &rest[..cut]].concat();
    let manifest = [MANIFEST, &rest[cut..]].concat();
    let inputs: Vec<_> = [("run_results.json", &results), ("manifest.json", &manifest)]
        .into_iter()
        .filter_map(|(name, bytes)| read_bytes(name, bytes, chunk).ok())
        .collect();
    let analysis = longpole_core::reconcile(inputs);
    for d in &analysis.datasets {
        let index = TimelineIndex::new(&d.model);
        std::hint::black_box(analysis.view(d, &index));
    }
    std::hint::black_box(analysis_json(&analysis));
    std::hint::black_box(analysis_text(&analysis));
});
