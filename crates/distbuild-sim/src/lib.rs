//! A distributed-build simulator: the oracle and the load generator for
//! longpole's distbuild reader.
//!
//! No public distbuild logs exist, so tests make their own. [`graph`] draws a
//! random build graph (compiles, archives, links, tests, downloads);
//! [`simulate`] schedules it on hosts with a few slots each: hosts prepare
//! (repository checkout, resources), nodes are deployed to a worker, their
//! dependencies are copied between hosts with realistic sizes, some results
//! come from the cache, some leaves fail. Every event is written as a
//! distbuild log line, and lines leave in a locally shuffled order, as real
//! logs do. [`Truth`] is what a correct reader must reconstruct, including
//! ya's file-order rule for the start of a run task.

mod rerun;
mod rng;

pub use rerun::{renamed, Rerun};
pub use rng::Rng;

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::io::{self, Write};

/// What to simulate.
#[derive(Clone, Debug)]
pub struct Config {
    /// Build-graph nodes. Default 2,000.
    pub nodes: usize,
    /// Hosts. Default 20.
    pub hosts: usize,
    /// Nodes a host runs at once. Default 4.
    pub slots_per_host: usize,
    /// Random seed. Default 1.
    pub seed: u64,
    /// Most dependencies of one node. Default 6.
    pub max_deps: usize,
    /// Share of nodes whose result comes from distbuild's cache. Default 0.1.
    pub cache_hits: f64,
    /// Share of leaf nodes that fail. Default 0.02.
    pub failures: f64,
    /// Lines may leave up to this many ms after an earlier-timed line. Default 300.
    pub shuffle_ms: i64,
    /// Time of the first event, ms since the epoch. Default 1,732,000,000,000.
    pub start_ms: i64,
    /// Also write `dep_extract_*` lines (ignored by ya). Default true.
    pub extract_events: bool,
    /// A run of the same build again ([`Rerun`]): its schedule and jitter
    /// from its own seed, the nodes' base times from `seed`. Default
    /// `None`: times drawn with the schedule.
    pub rerun: Option<Rerun>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            nodes: 2_000,
            hosts: 20,
            slots_per_host: 4,
            seed: 1,
            max_deps: 6,
            cache_hits: 0.1,
            failures: 0.02,
            shuffle_ms: 300,
            start_ms: 1_732_000_000_000,
            extract_events: true,
            rerun: None,
        }
    }
}

/// A node kind: ya's `kv.p`, its colour and typical duration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kind {
    /// `kv.p`.
    pub p: &'static str,
    /// `kv.pc`.
    pub pc: &'static str,
    /// Median duration, ms.
    pub median_ms: u32,
    /// `node-type`, if any.
    pub node_type: Option<&'static str>,
}

const CC: Kind = Kind { p: "CC", pc: "green", median_ms: 900, node_type: None };
const AR: Kind = Kind { p: "AR", pc: "light-blue", median_ms: 150, node_type: None };
const LD: Kind = Kind { p: "LD", pc: "light-red", median_ms: 2_500, node_type: None };
const PB: Kind = Kind { p: "PB", pc: "yellow", median_ms: 300, node_type: None };
const TS: Kind = Kind { p: "TS", pc: "light-magenta", median_ms: 5_000, node_type: Some("test") };
const DL: Kind = Kind { p: "DL", pc: "light-cyan", median_ms: 1_200, node_type: Some("download") };

/// One build-graph node.
#[derive(Clone, Debug)]
pub struct Node {
    /// Its uid.
    pub uid: String,
    /// Its kind.
    pub kind: Kind,
    /// Indices of the nodes it depends on (all smaller than its own).
    pub deps: Vec<u32>,
}

/// A run task as a correct reader must reconcile it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrueRun {
    /// uid.
    pub uid: String,
    /// Host name.
    pub host: String,
    /// Start: the time of whichever of `deployed`/`started` comes later in the file.
    pub start: i64,
    /// End.
    pub end: i64,
    /// From distbuild's cache.
    pub cached: bool,
    /// Failed.
    pub failed: bool,
}

/// A copy as a correct reader must reconcile it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct TrueCopy {
    /// Producer uid.
    pub dep_uid: String,
    /// Consumer uid.
    pub uid: String,
    /// Destination host.
    pub dest: String,
    /// Origin host.
    pub origin: String,
    /// Start.
    pub start: i64,
    /// End.
    pub end: i64,
    /// Bytes.
    pub size: u64,
}

/// A prepare phase.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct TruePrepare {
    /// Host name.
    pub host: String,
    /// `repository:<PATTERN>` or `resources`.
    pub kind: String,
    /// Start.
    pub start: i64,
    /// End.
    pub end: i64,
}

/// The true schedule.
#[derive(Clone, Debug, Default)]
pub struct Truth {
    /// Run tasks, by node index.
    pub runs: Vec<TrueRun>,
    /// Copies.
    pub copies: Vec<TrueCopy>,
    /// Prepare phases.
    pub prepares: Vec<TruePrepare>,
    /// Smallest and largest time written.
    pub window: (i64, i64),
    /// Lines written.
    pub lines: u64,
}

/// A new uid, as ya's are: 22 characters of base64url.
pub(crate) fn uid(rng: &mut Rng) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    (0..22).map(|_| ALPHABET[rng.range(0, 64) as usize] as char).collect()
}

/// Draws a random build graph: early nodes are compiles and downloads,
/// later ones archive, link and test what came before.
pub fn graph(cfg: &Config) -> Vec<Node> {
    let mut rng = Rng::new(cfg.seed);
    let mut nodes: Vec<Node> = Vec::with_capacity(cfg.nodes);
    for i in 0..cfg.nodes {
        let roll = rng.unit();
        let kind = if i < 4 || roll < 0.55 {
            if rng.chance(0.04) {
                DL
            } else if rng.chance(0.08) {
                PB
            } else {
                CC
            }
        } else if roll < 0.75 {
            AR
        } else if roll < 0.9 {
            LD
        } else {
            TS
        };
        let want = match kind.p {
            "CC" | "PB" => rng.range(0, 3),
            "DL" => 0,
            _ => rng.range(1, cfg.max_deps as u64 + 1),
        } as usize;
        let window = i.min(400);
        let mut deps: Vec<u32> = Vec::new();
        for _ in 0..want.min(window) {
            let d = (i - 1 - rng.range(0, window as u64) as usize) as u32;
            if !deps.contains(&d) {
                deps.push(d);
            }
        }
        nodes.push(Node { uid: uid(&mut rng), kind, deps });
    }
    nodes
}

/// Writes ya's build graph (`graph.json`) for `nodes`.
pub fn write_graph_json(nodes: &[Node], out: &mut impl Write) -> io::Result<()> {
    let mut has_dependant = vec![false; nodes.len()];
    for n in nodes {
        for &d in &n.deps {
            has_dependant[d as usize] = true;
        }
    }
    let json_nodes: Vec<serde_json::Value> = nodes
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let dir = format!("project{}", i / 50);
            let (inputs, outputs, args) = match n.kind.p {
                "CC" => (
                    vec![format!("$(SOURCE_ROOT)/{dir}/file{i}.cpp")],
                    vec![format!("$(BUILD_ROOT)/{dir}/file{i}.cpp.o")],
                    vec!["clang++".to_owned(), "-c".into(), format!("$(SOURCE_ROOT)/{dir}/file{i}.cpp")],
                ),
                "PB" => (
                    vec![format!("$(SOURCE_ROOT)/{dir}/msg{i}.proto")],
                    vec![format!("$(BUILD_ROOT)/{dir}/msg{i}.pb.cc"), format!("$(BUILD_ROOT)/{dir}/msg{i}.pb.h")],
                    vec!["protoc".to_owned(), format!("{dir}/msg{i}.proto")],
                ),
                "AR" => (
                    n.deps.iter().map(|d| format!("$(BUILD_ROOT)/out{d}")).collect(),
                    vec![format!("$(BUILD_ROOT)/{dir}/lib{i}.a")],
                    vec!["llvm-ar".to_owned(), "rcs".into()],
                ),
                "LD" => (
                    n.deps.iter().map(|d| format!("$(BUILD_ROOT)/out{d}")).collect(),
                    vec![format!("$(BUILD_ROOT)/{dir}/prog{i}")],
                    vec!["clang++".to_owned(), "-o".into(), format!("{dir}/prog{i}")],
                ),
                "TS" => (
                    vec![format!("$(BUILD_ROOT)/{dir}/prog{i}")],
                    vec![format!("$(BUILD_ROOT)/{dir}/test-results/{i}")],
                    vec!["run_test".to_owned()],
                ),
                _ => (vec![], vec![format!("$(BUILD_ROOT)/resource{i}.tar.gz")], vec!["fetch".to_owned()]),
            };
            let mut kv = serde_json::json!({ "p": n.kind.p, "pc": n.kind.pc });
            if n.kind.p == "TS" {
                kv["run_test_node"] = serde_json::Value::Bool(true);
            }
            let mut node = serde_json::json!({
                "uid": n.uid,
                "deps": n.deps.iter().map(|&d| nodes[d as usize].uid.clone()).collect::<Vec<_>>(),
                "inputs": inputs,
                "outputs": outputs,
                "cmds": [{ "cmd_args": args, "cwd": "$(BUILD_ROOT)", "env": {} }],
                "kv": kv,
                "tags": [],
                "platform": "default-linux-x86_64",
                "target_properties": { "module_dir": dir },
            });
            if let Some(t) = n.kind.node_type {
                node["node-type"] = serde_json::Value::String(t.to_owned());
            }
            node
        })
        .collect();
    let result: Vec<&str> =
        nodes.iter().zip(&has_dependant).filter(|(_, &has)| !has).map(|(n, _)| n.uid.as_str()).collect();
    let graph = serde_json::json!({
        "conf": { "resources": [], "platforms": ["default-linux-x86_64"] },
        "graph": json_nodes,
        "inputs": {},
        "result": result,
    });
    serde_json::to_writer(&mut *out, &graph)?;
    out.write_all(b"\n")
}

/// What a line does to the truth when it is written (ya's file-order rules).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Effect {
    None,
    /// A `deployed` or `started` line of this node: it sets the start.
    Start(u32, i64),
}

/// Lines waiting to leave, ordered by a jittered time.
struct Outbox<'w, W: Write> {
    heap: BinaryHeap<Reverse<(i64, u64, Effect, String)>>,
    seq: u64,
    out: &'w mut W,
    truth: Truth,
}

impl<W: Write> Outbox<'_, W> {
    fn push(&mut self, rng: &mut Rng, shuffle_ms: i64, time: i64, effect: Effect, line: String) {
        let key = time + rng.range(0, shuffle_ms.max(0) as u64 + 1) as i64;
        self.seq += 1;
        let (lo, hi) = self.truth.window;
        self.truth.window = if self.seq == 1 { (time, time) } else { (lo.min(time), hi.max(time)) };
        self.heap.push(Reverse((key, self.seq, effect, line)));
    }

    /// Writes every line whose key is at most `until`.
    fn flush(&mut self, until: i64) -> io::Result<()> {
        while let Some(Reverse((key, ..))) = self.heap.peek() {
            if *key > until {
                break;
            }
            let Some(Reverse((_, _, effect, line))) = self.heap.pop() else { break };
            if let Effect::Start(node, t) = effect {
                self.truth.runs[node as usize].start = t;
            }
            self.out.write_all(line.as_bytes())?;
            self.out.write_all(b"\n")?;
            self.truth.lines += 1;
        }
        Ok(())
    }
}

/// Schedules `nodes` on hosts and writes the distbuild log to `log`.
///
/// Returns the true schedule. Memory is the graph plus the lines of the
/// last `shuffle_ms` of simulated time, whatever the size of the log.
pub fn simulate(cfg: &Config, nodes: &[Node], log: &mut impl Write) -> io::Result<Truth> {
    let schedule_seed = cfg.rerun.as_ref().map_or(cfg.seed, |r| r.seed);
    let mut rng = Rng::new(schedule_seed.wrapping_mul(31).wrapping_add(7));
    let planned = cfg.rerun.as_ref().map(|r| r.durations(cfg, nodes));
    let hosts: Vec<String> = (0..cfg.hosts.max(1)).map(|h| format!("host-{h:03}.dist.example")).collect();
    let workers: Vec<i64> = (0..hosts.len() as i64).map(|h| 1000 + h * 7 + rng.range(0, 7) as i64).collect();
    let mut dependants: Vec<Vec<u32>> = vec![Vec::new(); nodes.len()];
    for (i, n) in nodes.iter().enumerate() {
        for &d in &n.deps {
            dependants[d as usize].push(i as u32);
        }
    }
    let mut out = Outbox { heap: BinaryHeap::new(), seq: 0, out: log, truth: Truth::default() };
    out.truth.runs = nodes
        .iter()
        .map(|n| TrueRun { uid: n.uid.clone(), host: String::new(), start: 0, end: 0, cached: false, failed: false })
        .collect();
    let shuffle = cfg.shuffle_ms;

    // Prepare phases.
    let mut prepared_at = Vec::with_capacity(hosts.len());
    for (h, host) in hosts.iter().enumerate() {
        let w = workers[h];
        let start = cfg.start_ms + rng.range(0, 50) as i64;
        out.push(&mut rng, shuffle, start, Effect::None, format!("{start} prepare_start  {w}"));
        let mut phases = vec![("repository:$(SOURCE_ROOT)", "$(SOURCE_ROOT)", 2_000.0)];
        if h % 3 == 0 {
            phases.push(("repository:$(TOOL_ROOT)", "$(TOOL_ROOT)", 1_500.0));
        }
        let mut end_all = start;
        for (kind, pattern, median) in phases {
            let end = start + rng.around(median) as i64 + 1;
            out.push(&mut rng, shuffle, end, Effect::None, format!("{end} repository_prepared {pattern} {w}"));
            out.truth.prepares.push(TruePrepare { host: host.clone(), kind: kind.to_owned(), start, end });
            end_all = end_all.max(end);
        }
        let end = start + rng.around(800.0) as i64 + 1;
        out.push(&mut rng, shuffle, end, Effect::None, format!("{end} resources_prepared  {w}"));
        out.truth.prepares.push(TruePrepare { host: host.clone(), kind: "resources".into(), start, end });
        prepared_at.push(end_all.max(end));
    }

    // List scheduling.
    let mut slots: BinaryHeap<Reverse<(i64, usize)>> = BinaryHeap::new();
    for (h, &t) in prepared_at.iter().enumerate() {
        for _ in 0..cfg.slots_per_host.max(1) {
            slots.push(Reverse((t, h)));
        }
    }
    let mut missing: Vec<usize> = nodes.iter().map(|n| n.deps.len()).collect();
    let mut ready_at = vec![cfg.start_ms; nodes.len()];
    let mut host_of = vec![0usize; nodes.len()];
    let mut ready: BinaryHeap<Reverse<(i64, u32)>> =
        (0..nodes.len()).filter(|&i| missing[i] == 0).map(|i| Reverse((cfg.start_ms, i as u32))).collect();
    while let Some(Reverse((ready_time, i))) = ready.pop() {
        out.flush(ready_time)?;
        let i = i as usize;
        let node = &nodes[i];
        let Some(Reverse((free, h))) = slots.pop() else { break };
        let deploy = ready_time.max(free);
        let (host, w) = (&hosts[h], workers[h]);
        let pending = rng.range(0, 40);
        out.push(&mut rng, shuffle, deploy, Effect::None, format!("{deploy} deploy {} {w} {pending}", node.uid));
        let cached = i > 0 && rng.chance(cfg.cache_hits);
        let failed = dependants[i].is_empty() && rng.chance(cfg.failures);
        let size = rng.around(200_000.0) as u64;
        let end;
        if cached {
            end = deploy + rng.range(0, 3) as i64;
            let who = if rng.chance(0.5) { w.to_string() } else { host.clone() };
            out.push(
                &mut rng,
                shuffle,
                end,
                Effect::None,
                format!("{end} finished_from_cache {} {who} OK {size}", node.uid),
            );
            out.truth.runs[i] =
                TrueRun { uid: node.uid.clone(), host: host.clone(), start: end, end, cached: true, failed: false };
            slots.push(Reverse((free.max(deploy), h)));
        } else {
            let deployed = deploy + rng.range(1, 6) as i64;
            out.push(
                &mut rng,
                shuffle,
                deployed,
                Effect::Start(i as u32, deployed),
                format!("{deployed} deployed {} {host}", node.uid),
            );
            let mut inputs_ready = deployed;
            for &d in &node.deps {
                let d = d as usize;
                let origin = &hosts[host_of[d]];
                let dep_uid = &nodes[d].uid;
                let start = deployed + rng.range(0, 3) as i64;
                let bytes = rng.around(400_000.0) as u64;
                let took = if origin == host {
                    rng.range(1, 6) as i64
                } else {
                    5 + (bytes / 100_000) as i64 + rng.around(20.0) as i64
                };
                let copy_end = start + took;
                let ev = if rng.chance(0.5) { "dep_start" } else { "dep_wait" };
                out.push(
                    &mut rng,
                    shuffle,
                    start,
                    Effect::None,
                    format!("{start} {ev} {} {host} {dep_uid} {}", node.uid, node.deps.len()),
                );
                if cfg.extract_events {
                    let q = copy_end + 1;
                    out.push(
                        &mut rng,
                        shuffle,
                        q,
                        Effect::None,
                        format!("{q} dep_extract_queue {dep_uid} {host} {origin}"),
                    );
                    out.push(
                        &mut rng,
                        shuffle,
                        q + 1,
                        Effect::None,
                        format!("{} dep_extract_start {dep_uid} {host} {origin}", q + 1),
                    );
                    out.push(
                        &mut rng,
                        shuffle,
                        q + 3,
                        Effect::None,
                        format!("{} dep_extract_finish {dep_uid} {host} {origin}", q + 3),
                    );
                }
                out.push(
                    &mut rng,
                    shuffle,
                    copy_end,
                    Effect::None,
                    format!("{copy_end} dep_finished {} {host} {dep_uid} {origin} {bytes}", node.uid),
                );
                out.truth.copies.push(TrueCopy {
                    dep_uid: dep_uid.clone(),
                    uid: node.uid.clone(),
                    dest: host.clone(),
                    origin: origin.clone(),
                    start,
                    end: copy_end,
                    size: bytes,
                });
                inputs_ready = inputs_ready.max(copy_end + if cfg.extract_events { 4 } else { 0 });
            }
            let started = inputs_ready + rng.range(1, 6) as i64;
            end = started
                + match &planned {
                    Some(p) => p[i],
                    None => rng.around(f64::from(node.kind.median_ms)) as i64 + 1,
                };
            let status = if failed { "FAILED" } else { "OK" };
            out.push(
                &mut rng,
                shuffle,
                started,
                Effect::Start(i as u32, started),
                format!("{started} started {} {host}", node.uid),
            );
            out.push(
                &mut rng,
                shuffle,
                end,
                Effect::None,
                format!("{end} finished {} {host} {status} {size}", node.uid),
            );
            out.truth.runs[i] =
                TrueRun { uid: node.uid.clone(), host: host.clone(), start: started, end, cached: false, failed };
            slots.push(Reverse((end, h)));
        }
        host_of[i] = h;
        for &c in &dependants[i] {
            let c = c as usize;
            ready_at[c] = ready_at[c].max(end);
            missing[c] -= 1;
            if missing[c] == 0 {
                ready.push(Reverse((ready_at[c], c as u32)));
            }
        }
    }
    out.flush(i64::MAX)?;
    Ok(out.truth)
}

/// Writes the same build as ya's local event log (evlog JSON lines): one
/// `worker_threads`/`node-finished` per node that ran (on a thread named
/// after its host), and a `stages`/`stage-finished` for the whole build.
pub fn write_evlog(nodes: &[Node], truth: &Truth, out: &mut impl Write) -> io::Result<()> {
    let s = |ms: i64| ms as f64 / 1000.0;
    for (node, run) in nodes.iter().zip(&truth.runs) {
        let tag = if run.cached { format!("restore[{}]", node.kind.p) } else { node.kind.p.to_owned() };
        let line = serde_json::json!({
            "timestamp": s(run.end), "thread_name": run.host, "namespace": "worker_threads", "event": "node-finished",
            "value": {"name": format!("Run({})", node.uid), "time": [s(run.start), s(run.end)], "tag": tag},
        });
        serde_json::to_writer(&mut *out, &line)?;
        out.write_all(b"\n")?;
    }
    let (first, last) = truth.window;
    let stage = serde_json::json!({
        "timestamp": s(last), "thread_name": "main", "namespace": "stages", "event": "stage-finished",
        "value": {"name": "build", "time": [s(first), s(last)]},
    });
    serde_json::to_writer(&mut *out, &stage)?;
    out.write_all(b"\n")
}
