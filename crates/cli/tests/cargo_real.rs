//! Real Cargo builds: small workspaces of path-only crates (no registry, so
//! offline) with a known dependency chain, built with the machine's
//! `cargo build --timings -j2` (and `cargo check`, and a rebuild after a
//! touch), then `longpole analyze` of the page. Checked against cargo's own
//! figures on the page, read here on their own: the summary table's unit
//! counts and total time, each unit's duration in `UNIT_DATA` and in the
//! page's unit table; and the path against `cargo metadata`'s dependency
//! graph: each unit on it belongs to a package that depends on the one
//! before it (or is the same package: its build script, then its run, then
//! its library), and it ends at the unit that finished last.

use assert_cmd::Command;
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::Command as Process;

fn run(cmd: &mut Process) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    assert!(out.status.success(), "{cmd:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn fresh(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cargo-real").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A crate `name` depending on `deps`, with enough generic code to take a
/// moment; `bin` makes it a binary; `build_script` gives it a `build.rs`.
fn krate(ws: &Path, name: &str, deps: &[&str], bin: bool, build_script: bool) {
    let dir = ws.join(name);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let deps: String = deps.iter().map(|d| format!("{d} = {{ path = \"../{d}\" }}\n")).collect();
    std::fs::write(
        dir.join("Cargo.toml"),
        format!("[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\n{deps}"),
    )
    .unwrap();
    let body: String = (1..=30)
        .map(|i| format!("pub fn f{i}<T: Clone + std::fmt::Debug>(x: T) -> Vec<String> {{ (0..{i}).map(|n| format!(\"{{:?}}{{}}\", x.clone(), n)).collect() }}\n"))
        .collect();
    if bin {
        std::fs::write(dir.join("src/main.rs"), format!("{body}fn main() {{ println!(\"{{:?}}\", f1(1)); }}\n"))
            .unwrap();
    } else {
        std::fs::write(dir.join("src/lib.rs"), body).unwrap();
    }
    if build_script {
        std::fs::write(dir.join("build.rs"), "fn main() { println!(\"cargo:rerun-if-changed=build.rs\"); }\n").unwrap();
    }
}

fn workspace(ws: &Path, members: &[&str]) {
    let list: Vec<String> = members.iter().map(|m| format!("\"{m}\"")).collect();
    std::fs::write(ws.join("Cargo.toml"), format!("[workspace]\nmembers = [{}]\nresolver = \"2\"\n", list.join(", ")))
        .unwrap();
}

/// `cargo <args> --timings -j2` in `ws`; the page it wrote.
fn timings(ws: &Path, args: &[&str]) -> PathBuf {
    let target = ws.join("target");
    let pages = target.join("cargo-timings");
    let _ = std::fs::remove_dir_all(&pages);
    run(Process::new("cargo").current_dir(ws).env("CARGO_TARGET_DIR", &target).args(args).args([
        "--timings",
        "-j2",
        "-q",
    ]));
    pages.join("cargo-timing.html")
}

/// Each package's dependencies, by name, from `cargo metadata`.
fn package_deps(ws: &Path) -> HashMap<String, HashSet<String>> {
    let text = run(Process::new("cargo").current_dir(ws).args(["metadata", "--format-version", "1", "--offline"]));
    let v: Value = serde_json::from_str(&text).unwrap();
    let name_of: HashMap<&str, &str> = v["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["id"].as_str().unwrap(), p["name"].as_str().unwrap()))
        .collect();
    v["resolve"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            let deps = n["deps"].as_array().unwrap().iter().map(|d| name_of[d["pkg"].as_str().unwrap()].to_owned());
            (name_of[n["id"].as_str().unwrap()].to_owned(), deps.collect())
        })
        .collect()
}

/// A summary table cell of the page (`Total units`).
fn cell<'a>(page: &'a str, label: &str) -> &'a str {
    let key = format!("<td>{label}:</td><td>");
    let at = page.find(&key).unwrap() + key.len();
    &page[at..at + page[at..].find("</td>").unwrap()]
}

/// The JSON array `const NAME = [...];` of the page.
fn array(page: &str, name: &str) -> Vec<Value> {
    let key = format!("const {name} = ");
    let at = page.find(&key).unwrap() + key.len();
    let end = at + page[at..].find("];").unwrap() + 1;
    serde_json::from_str(&page[at..end]).unwrap()
}

/// The page's unit table: each row's `name vVERSION target` and its total
/// as printed (seconds, one decimal).
fn unit_table(page: &str) -> Vec<(String, f64)> {
    let mut out = Vec::new();
    let mut rest = &page[page.rfind("<th>Unit</th>").unwrap()..];
    while let Some(at) = rest.find(".</td>\n<td>") {
        rest = &rest[at + ".</td>\n<td>".len()..];
        let name_end = rest.find("</td>").unwrap();
        let name = rest[..name_end].to_owned();
        rest = &rest[name_end + "</td>\n<td>".len()..];
        let secs: f64 = rest[..rest.find("s</td>").unwrap()].parse().unwrap();
        out.push((name, secs));
    }
    out
}

fn analyze(page: &Path) -> Value {
    let out =
        Command::cargo_bin("longpole").unwrap().arg("analyze").arg(page).args(["--format", "json"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Checks longpole's reading of `page` against cargo's figures and the
/// path against `deps`; returns the path's packages.
fn check(page_path: &Path, deps: &HashMap<String, HashSet<String>>) -> Vec<String> {
    let page = std::fs::read_to_string(page_path).unwrap();
    let v = analyze(page_path);
    assert_eq!(v["format"], "cargo-timings");
    assert!(v["diagnostics"].as_array().is_none_or(|d| d.is_empty()), "{}", v["diagnostics"]);
    let c = &v["cargo"];
    let units = array(&page, "UNIT_DATA");
    // Unit counts, as cargo's summary counts them.
    let total: u64 = cell(&page, "Total units").parse().unwrap();
    assert_eq!(c["units"].as_u64().unwrap(), total);
    assert_eq!(units.len() as u64, total);
    assert_eq!(c["fresh"].as_u64().unwrap(), cell(&page, "Fresh units").parse::<u64>().unwrap());
    assert_eq!(c["dirty"].as_u64().unwrap(), cell(&page, "Dirty units").parse::<u64>().unwrap());
    assert_eq!(c["fresh_listed"], c["fresh"], "fresh units are listed with start 0 and duration 0");
    // The total: the last concurrency record, printed to 0.1 s.
    let wall = v["wall_ms"].as_f64().unwrap();
    let last_t = array(&page, "CONCURRENCY_DATA").last().unwrap()["t"].as_f64().unwrap();
    assert!((wall - last_t * 1000.0).abs() < 0.001, "{wall} ms against {last_t} s");
    let printed: f64 = cell(&page, "Total time").trim_end_matches('s').parse().unwrap();
    assert!((wall / 1000.0 - printed).abs() <= 0.05 + 1e-9, "{wall} ms against {printed} s");
    // Max concurrency as the summary counts it.
    let most: u64 = cell(&page, "Max concurrency").split(' ').next().unwrap().parse().unwrap();
    assert_eq!(c["max_concurrency"].as_u64().unwrap(), most);
    // Each unit's duration: UNIT_DATA's exactly, the unit table's to 0.1 s.
    let table: HashMap<String, f64> = unit_table(&page).into_iter().collect();
    assert_eq!(table.len() as u64, total);
    let by_name: HashMap<String, f64> = units
        .iter()
        .map(|u| {
            let name = format!(
                "{} v{}{}",
                u["name"].as_str().unwrap(),
                u["version"].as_str().unwrap(),
                u["target"].as_str().unwrap()
            );
            (name, u["duration"].as_f64().unwrap() * 1000.0)
        })
        .collect();
    for step in v["critical_path"]["tasks"].as_array().unwrap().iter().chain(v["longest"].as_array().unwrap()) {
        let name = step["name"].as_str().unwrap();
        let ms = step["duration_ms"].as_f64().unwrap();
        assert!((ms - by_name[name]).abs() < 0.001, "{name}: {ms} ms against UNIT_DATA's {}", by_name[name]);
        assert!(
            (ms / 1000.0 - table[name]).abs() <= 0.05 + 1e-9,
            "{name}: {ms} ms against the table's {} s",
            table[name]
        );
    }
    // The path ends at the unit that finished last and is a chain of real dependencies.
    let path = v["critical_path"]["tasks"].as_array().unwrap();
    assert!(!path.is_empty());
    let last_end =
        units.iter().map(|u| u["start"].as_f64().unwrap() + u["duration"].as_f64().unwrap()).fold(0.0, f64::max);
    assert!((path.last().unwrap()["end_ms"].as_f64().unwrap() - last_end * 1000.0).abs() < 0.001);
    let first_start = path[0]["start_ms"].as_f64().unwrap();
    let span = path.last().unwrap()["end_ms"].as_f64().unwrap() - first_start;
    assert!((v["critical_path"]["total_ms"].as_f64().unwrap() - span).abs() < 0.001);
    let packages: Vec<String> = path.iter().map(|s| s["package"].as_str().unwrap().to_owned()).collect();
    for (w, s) in packages.windows(2).zip(path.iter().skip(1)) {
        assert!(w[0] == w[1] || deps[&w[1]].contains(&w[0]), "{} does not depend on {} ({deps:?})", w[1], w[0]);
        // A unit starts once what made it ready was out, by UNIT_DATA's own
        // figures (cargo rounds starts and durations apart: 10 ms slack).
        let before =
            units.iter().find(|u| u["i"] == path[path.iter().position(|p| p == s).unwrap() - 1]["unit_index"]).unwrap();
        let (b_start, b_dur) = (before["start"].as_f64().unwrap(), before["duration"].as_f64().unwrap());
        let frontend_end = before["sections"]
            .as_array()
            .and_then(|x| x.iter().find(|x| x[0] == "frontend"))
            .map(|x| x[1]["end"].as_f64().unwrap());
        let out_at = match (s["made_ready_by"].as_str().unwrap(), frontend_end) {
            ("metadata", Some(f)) => b_start + f,
            _ => b_start + b_dur,
        } * 1000.0;
        let listed = if s["made_ready_by"] == "metadata" { "unblocked_rmeta_units" } else { "unblocked_units" };
        assert!(before[listed].as_array().unwrap().contains(&s["unit_index"]), "{s} is not in {before}'s {listed}");
        assert!(s["start_ms"].as_f64().unwrap() + 10.001 >= out_at, "{s} starts before {out_at} ms");
        assert!((s["ready_ms"].as_f64().unwrap() - out_at.min(s["start_ms"].as_f64().unwrap())).abs() < 0.001, "{s}");
    }
    packages
}

#[test]
fn cargo_builds_read_as_cargo_counts_them_and_their_paths_follow_real_dependencies() {
    let ws = fresh("chain");
    workspace(&ws, &["alpha", "beta", "gamma", "app"]);
    krate(&ws, "alpha", &[], false, false);
    krate(&ws, "beta", &["alpha"], false, true);
    krate(&ws, "gamma", &["beta"], false, false);
    krate(&ws, "app", &["gamma", "alpha"], true, false);
    let deps = package_deps(&ws);
    // From nothing: the bin finishes last, after the chain.
    let path = check(&timings(&ws, &["build"]), &deps);
    assert_eq!(path.last().map(String::as_str), Some("app"), "{path:?}");
    assert!(path.iter().any(|p| p == "gamma"), "{path:?}");
    // A rebuild after a touch: fresh units listed at 0.
    std::fs::write(
        ws.join("gamma/src/lib.rs"),
        "pub fn touched() {}\npub fn f1<T: std::fmt::Debug>(x: T) -> Vec<String> { vec![format!(\"{x:?}\")] }\n",
    )
    .unwrap();
    let page = timings(&ws, &["build"]);
    let v = analyze(&page);
    assert!(v["cargo"]["fresh"].as_u64().unwrap() > 0, "{}", v["cargo"]);
    check(&page, &deps);
    // `cargo check`: metadata only.
    check(&timings(&ws, &["check"]), &deps);
}

#[test]
fn a_diamond_s_path_runs_through_one_side() {
    let ws = fresh("diamond");
    workspace(&ws, &["base", "left", "right", "top"]);
    krate(&ws, "base", &[], false, false);
    krate(&ws, "left", &["base"], false, false);
    krate(&ws, "right", &["base"], false, false);
    krate(&ws, "top", &["left", "right"], true, false);
    let deps = package_deps(&ws);
    let path = check(&timings(&ws, &["build"]), &deps);
    assert_eq!(path.first().map(String::as_str), Some("base"), "{path:?}");
    assert_eq!(path.last().map(String::as_str), Some("top"), "{path:?}");
    assert_eq!(path.len(), 3, "{path:?}");
}
