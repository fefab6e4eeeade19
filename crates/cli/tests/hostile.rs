//! Hostile inputs through the CLI: each of `tests/hostile/generate.py`'s
//! inputs gives either a result whose report matches its expectation, or
//! exactly one error (exit status 1) matching it — never a panic, a hang or
//! a crash.

use assert_cmd::Command;
use regex::Regex;
use std::path::{Path, PathBuf};
use std::time::Duration;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Generates the suite into a fresh directory and returns it.
fn generate() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("longpole-hostile-{}", std::process::id()));
    let status = std::process::Command::new("python3")
        .arg(repo().join("tests/hostile/generate.py"))
        .arg(&dir)
        .status()
        .expect("python3 runs the generator");
    assert!(status.success());
    dir
}

fn check(dir: &Path, file: &str, outcome: &str, message: &str) -> Result<(), String> {
    let out = Command::cargo_bin("longpole")
        .unwrap()
        .current_dir(dir)
        .args(["analyze", file])
        .timeout(Duration::from_secs(60))
        .output()
        .map_err(|e| format!("{file}: {e}"))?;
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    if stderr.contains("panicked") {
        return Err(format!("{file}: panicked: {stderr}"));
    }
    let text = match (outcome, out.status.code()) {
        ("read", Some(0)) => stdout.into_owned(),
        ("error", Some(1)) => {
            let lines: Vec<&str> = stderr.lines().collect();
            if lines.len() != 1 || !lines[0].starts_with("longpole: ") {
                return Err(format!("{file}: not exactly one error: {stderr}"));
            }
            lines[0]["longpole: ".len()..].to_owned()
        }
        (_, code) => return Err(format!("{file}: expected {outcome}, exit status {code:?}: {stderr}{stdout}")),
    };
    let pattern = Regex::new(&format!("(?m){message}")).map_err(|e| format!("{file}: {e}"))?;
    if pattern.is_match(&text) {
        Ok(())
    } else {
        Err(format!("{file}: {text:?} does not match {message:?}"))
    }
}

#[test]
fn every_hostile_input_gives_a_result_or_one_exact_error() {
    let dir = generate();
    let expected: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("expected.json")).unwrap()).unwrap();
    let list = expected.as_array().unwrap();
    assert!(list.len() >= 20);
    let failures: Vec<String> = list
        .iter()
        .filter_map(|e| {
            let s = |k: &str| e[k].as_str().unwrap().to_owned();
            check(&dir, &s("file"), &s("outcome"), &s("message")).err()
        })
        .collect();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
