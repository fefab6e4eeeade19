//! Warms the analysis worker's WebAssembly up while the page waits for a
//! file.
//!
//! V8 first runs WebAssembly through its baseline compiler, optimizes a
//! function in the background once it has run for a while, and uses the
//! optimized code only from the function's next call. A pass that runs
//! once over the whole input (reconciling, the views) never gets it, and
//! neither do the first slices of a file: a cold worker took 0.45–0.55 s
//! from drop to chart for a 10 MB Chrome trace, a warm one 0.2 s.
//!
//! So, once idle, the worker analyses a small simulated build (its
//! distbuild log and graph.json, from `longpole-distbuild-sim`) and then the
//! same build exported as a Chrome trace, through the code a dropped file
//! takes, and posts the results for the page to decode and drop. Nothing is
//! fetched. The work comes in short steps with the worker's messages
//! handled in between, and any message stops it: a dropped file never
//! waits for more than one step.

use crate::finished::conclude;
use crate::protocol::Response;
use crate::worker_io::{feed, post, sleep};
use longpole_core::export::run::{export, Target};
use longpole_core::{reconcile, Analysis, Ingest, Input};
use longpole_distbuild_sim::{graph, simulate, write_graph_json, Config};
use std::cell::Cell;
use std::rc::Rc;

/// Idle time before warming up, ms: a page that asks for work right after
/// the worker is ready (a second worker, a sample picked at once) gets it
/// without the warm-up starting.
const IDLE_MS: i32 = 250;

/// Nodes of the simulated build: enough for V8 to optimize the passes that
/// matter, little enough that each step stays short on a slow machine.
const NODES: usize = 2_000;

/// Warms up until done or until `stop` is set (by any message).
pub async fn warm_up(stop: Rc<Cell<bool>>) {
    let _ = steps(&stop).await;
}

/// The warm-up's steps; `None` once a message came (or a step failed).
///
/// A step that fails (the simulated build cannot fail to write, and reads
/// as any log does) only ends the warm-up early: it warms code up and shows
/// nothing, and a real file's run reports its own errors.
async fn steps(stop: &Cell<bool>) -> Option<()> {
    // Lets the worker's messages in, then says whether to go on.
    let pause = |ms| async move {
        let _ = sleep(ms).await;
        (!stop.get()).then_some(())
    };
    pause(IDLE_MS).await?;
    let cfg = Config { nodes: NODES, ..Config::default() };
    let nodes = graph(&cfg);
    let (mut log, mut graph_json) = (Vec::new(), Vec::new());
    write_graph_json(&nodes, &mut graph_json).ok()?;
    simulate(&cfg, &nodes, &mut log).ok()?;
    drop(nodes);
    pause(0).await?;
    let build = read("warm-up.log", &log)?;
    pause(0).await?;
    let graph = read("warm-up.graph.json", &graph_json)?;
    pause(0).await?;
    let analysis = reconcile(vec![build, graph]);
    pause(0).await?;
    let trace = export(&analysis, Target::Chrome, 0)?;
    pause(0).await?;
    views(analysis)?;
    pause(0).await?;
    let trace = read("warm-up.json", &trace)?;
    pause(0).await?;
    let analysis = reconcile(vec![trace]);
    pause(0).await?;
    views(analysis)
}

/// Reads `bytes` as a file called `name` is read.
fn read(name: &str, bytes: &[u8]) -> Option<Input> {
    let mut ingest = Ingest::new(name);
    ingest.expect_bytes(bytes.len() as u64);
    feed(&mut ingest, bytes).ok()?;
    ingest.finish().ok()
}

/// Draws up what a finished run sends the page, as a run does, and posts
/// it for the page to decode and drop; `None` if there was nothing to show.
fn views(analysis: Analysis) -> Option<()> {
    let shown = !analysis.datasets.is_empty();
    let (response, _) = conclude(0, analysis, 0.0, 0);
    match response.to_json() {
        Ok(json) => post(&Response::WarmedUp { json }),
        // What a real run would have failed to send: say so now.
        Err(_) => post(&response),
    }
    shown.then_some(())
}
