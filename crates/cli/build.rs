//! Embeds the web bundle in the `longpole` binary (`longpole serve`,
//! `longpole open`): every file of the workspace's `dist/` (built by
//! `scripts/build.sh`), or of the folder `LONGPOLE_DIST` names, listed in
//! `$OUT_DIR/bundle.rs` with `include_bytes!`. Without a built bundle the
//! list is empty, and the binary says how to get one.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    println!("cargo:rerun-if-env-changed=LONGPOLE_DIST");
    let dist = std::env::var_os("LONGPOLE_DIST").map(PathBuf::from).unwrap_or_else(|| {
        Path::new(&std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR")).join("../../dist")
    });
    // A folder is watched whole; one that does not exist yet reruns this.
    println!("cargo:rerun-if-changed={}", dist.display());
    let mut files = Vec::new();
    if dist.join("index.html").is_file() {
        walk(&dist, "", &mut files);
    }
    files.sort();
    let mut out = String::from("/// Every file of the bundle, by its path under `dist/`, sorted.\n");
    out.push_str("pub static FILES: &[(&str, &[u8])] = &[\n");
    for (name, path) in &files {
        let path = path.canonicalize().expect("a file just listed can be found");
        writeln!(out, "    ({name:?}, include_bytes!({:?})),", path.display().to_string()).expect("writes to a String");
    }
    out.push_str("];\n");
    let target = Path::new(&std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("bundle.rs");
    std::fs::write(target, out).expect("OUT_DIR is writable");
}

/// Lists the files under `dir` (named `prefix` + their path) into `files`.
fn walk(dir: &Path, prefix: &str, files: &mut Vec<(String, PathBuf)>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
    for entry in entries {
        let entry = entry.unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
        let Ok(name) = entry.file_name().into_string() else { continue };
        let path = entry.path();
        if path.is_dir() {
            walk(&path, &format!("{prefix}{name}/"), files);
        } else {
            files.push((format!("{prefix}{name}"), path));
        }
    }
}
