//! Real ninja builds: a CMake project (and a Meson one, when Debian's
//! `meson` is installed) with a deliberate long chain, a generated header
//! that every object waits for, then a link, built with `ninja -j2`; then
//! `longpole analyze .ninja_log build.ninja .ninja_deps`. The critical path
//! is checked against ninja itself: each step is an input of the next
//! (`ninja -t query`, through phony edges, or `ninja -t deps`), it ends at
//! the edge the log shows finishing last, and it holds the header's edge.
//!
//! `scripts/setup.sh` installs `ninja-build`, `cmake` and `meson`; without
//! them the tests say so loudly and stop. With `LONGPOLE_BLESS_NINJA=1`
//! the build's files are copied to `crates/core/tests/fixtures/ninja/`.

use assert_cmd::Command;
use serde_json::Value;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Command as Process;
use tools::{have, run};

mod tools;

/// Objects waiting for the generated header.
const OBJECTS: usize = 6;

fn sources(src: &Path) {
    std::fs::create_dir_all(src).unwrap();
    for i in 1..=OBJECTS {
        std::fs::write(
            src.join(format!("f{i}.c")),
            format!("#include \"config.h\"\nint f{i}(void) {{ return VALUE + {i}; }}\n"),
        )
        .unwrap();
    }
    std::fs::write(src.join("main.c"), "int f1(void);\nint main(void) { return f1() == 43 ? 0 : 1; }\n").unwrap();
}

fn fresh(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("ninja-real").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The edge outputs a path waits for: its inputs, through phony edges
/// (`ninja -t query`), and what the deps log recorded (`ninja -t deps`).
fn waits_for(build: &Path, output: &str) -> HashSet<String> {
    let mut found = HashSet::new();
    let mut todo = vec![output.to_owned()];
    let mut seen = HashSet::new();
    while let Some(path) = todo.pop() {
        if !seen.insert(path.clone()) {
            continue;
        }
        let text = run(Process::new("ninja").arg("-C").arg(build).args(["-t", "query", &path]));
        let mut lines = text.lines();
        // `path:`, `  input: RULE`, inputs indented by four (`| `, `|| ` marks), `  outputs:`.
        let phony_or_root = path == output || text.contains("  input: phony");
        let _ = lines.next();
        for line in lines {
            if line.starts_with("  outputs:") {
                break;
            }
            if let Some(input) = line.strip_prefix("    ") {
                let input = input.trim_start_matches("|| ").trim_start_matches("| ").to_owned();
                if phony_or_root {
                    found.insert(input.clone());
                    todo.push(input);
                }
            }
        }
    }
    let deps = run(Process::new("ninja").arg("-C").arg(build).args(["-t", "deps", output]));
    found.extend(deps.lines().skip(1).map(|l| l.trim().to_owned()).filter(|l| !l.is_empty()));
    found
}

/// The output the log shows finishing last (its first record of that end).
fn last_to_finish(log: &str) -> (String, f64) {
    let mut best = (String::new(), -1.0);
    for line in log.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let end: f64 = f[1].parse().unwrap();
        if end > best.1 {
            best = (f[3].to_owned(), end);
        }
    }
    best
}

/// Builds `build` with `ninja -j2`, analyses it and checks the path.
fn check(build: &Path, header: &str, fixture: &str, extra: &[&str]) {
    run(Process::new("ninja").arg("-C").arg(build).arg("-j2"));
    let mut files = vec![build.join(".ninja_log"), build.join("build.ninja"), build.join(".ninja_deps")];
    files.extend(extra.iter().map(|e| build.join(e)));
    let out = Command::cargo_bin("longpole")
        .unwrap()
        .arg("analyze")
        .args(&files[..3])
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let diags = v["diagnostics"].as_array().unwrap();
    assert!(diags.iter().all(|d| d["code"] != "ninja.unmatched" && d["code"] != "ninja-manifest.missing"), "{diags:?}");
    let steps = v["critical_path"]["steps"].as_array().unwrap();
    // An edge's label lists its outputs; the first names it for ninja.
    let names: Vec<String> =
        steps.iter().map(|s| s["output"].as_str().unwrap().split(", ").next().unwrap().to_owned()).collect();
    assert!(names.len() >= 3, "{names:?}");
    for w in names.windows(2) {
        let inputs = waits_for(build, &w[1]);
        assert!(inputs.contains(&w[0]), "{} does not wait for {} (it waits for {inputs:?})", w[1], w[0]);
    }
    let log = std::fs::read_to_string(build.join(".ninja_log")).unwrap();
    let (last, end) = last_to_finish(&log);
    assert_eq!(names.last().unwrap(), &last);
    assert_eq!(steps.last().unwrap()["end_ms"].as_f64().unwrap(), end);
    assert!(names.iter().any(|n| n == header), "the generated header's edge is on the path: {names:?}");
    let text = Command::cargo_bin("longpole").unwrap().arg("analyze").args(&files[..3]).output().unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("Critical path (") && text.contains("Weighted time by extension"), "{text}");
    if std::env::var_os("LONGPOLE_BLESS_NINJA").is_some() {
        let to = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../core/tests/fixtures/ninja").join(fixture);
        let _ = std::fs::remove_dir_all(&to);
        std::fs::create_dir_all(&to).unwrap();
        for f in &files {
            std::fs::copy(f, to.join(f.file_name().unwrap())).unwrap();
        }
    }
}

#[test]
fn a_cmake_build_s_path_is_a_chain_of_real_dependencies() {
    if !have("ninja") || !have("cmake") {
        eprintln!("\n\n!!! SKIPPED: `ninja` or `cmake` is not installed (scripts/setup.sh installs ninja-build and cmake) !!!\n");
        return;
    }
    let dir = fresh("cmake-chain");
    sources(&dir.join("src"));
    let objects: Vec<String> = (1..=OBJECTS).map(|i| format!("src/f{i}.c")).collect();
    std::fs::write(
        dir.join("CMakeLists.txt"),
        format!(
            "cmake_minimum_required(VERSION 3.16)\nproject(chain C)\n\
             add_custom_command(OUTPUT ${{CMAKE_BINARY_DIR}}/gen/config.h\n\
             \x20 COMMAND ${{CMAKE_COMMAND}} -E sleep 1\n\
             \x20 COMMAND ${{CMAKE_COMMAND}} -E make_directory ${{CMAKE_BINARY_DIR}}/gen\n\
             \x20 COMMAND ${{CMAKE_COMMAND}} -E echo \"#define VALUE 42\" > ${{CMAKE_BINARY_DIR}}/gen/config.h\n\
             \x20 VERBATIM)\n\
             add_custom_target(gen_config DEPENDS ${{CMAKE_BINARY_DIR}}/gen/config.h)\n\
             add_executable(app src/main.c {})\n\
             target_include_directories(app PRIVATE ${{CMAKE_BINARY_DIR}}/gen)\n\
             add_dependencies(app gen_config)\n",
            objects.join(" ")
        ),
    )
    .unwrap();
    let build = dir.join("build");
    run(Process::new("cmake").arg("-S").arg(&dir).arg("-B").arg(&build).args(["-G", "Ninja"]));
    check(&build, "gen/config.h", "cmake-chain", &["CMakeFiles/rules.ninja"]);
}

#[test]
fn a_meson_build_s_path_is_a_chain_of_real_dependencies() {
    if !have("ninja") || !have("meson") {
        eprintln!("\n\n!!! SKIPPED: `ninja` or `meson` is not installed (scripts/setup.sh installs ninja-build and meson) !!!\n");
        return;
    }
    let dir = fresh("meson-chain");
    sources(&dir);
    let objects: Vec<String> = (1..=OBJECTS).map(|i| format!("'f{i}.c'")).collect();
    std::fs::write(
        dir.join("meson.build"),
        format!(
            "project('chain', 'c')\n\
             gen = custom_target('config', output: 'config.h', command: [find_program('python3'), '-c',\n\
             \x20 'import sys, time; time.sleep(1); open(sys.argv[1], \"w\").write(\"#define VALUE 42\" + chr(10))', '@OUTPUT@'])\n\
             executable('app', 'main.c', {}, gen)\n",
            objects.join(", ")
        ),
    )
    .unwrap();
    let build = dir.join("build");
    run(Process::new("meson").arg("setup").arg(&build).arg(&dir));
    check(&build, "config.h", "meson-chain", &[]);
}
