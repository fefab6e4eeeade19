//! What the tests that run real tools (ninja, cmake, meson, ghc) share:
//! whether a tool is installed, and running one that must succeed.

use std::process::Command;

/// Whether `tool --version` runs and succeeds.
pub fn have(tool: &str) -> bool {
    Command::new(tool).arg("--version").output().is_ok_and(|o| o.status.success())
}

/// Runs `cmd`, which must succeed, and gives its standard output.
pub fn run(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{cmd:?}: {text}{}", String::from_utf8_lossy(&out.stderr));
    text
}
