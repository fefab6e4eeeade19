//! Which of the files sent to the worker are read as one input: the parts
//! of a rolling Spark event log, by the core's rule
//! ([`longpole_core::formats::spark::rolling`], which the CLI follows for a
//! folder), and every other file on its own.

use js_sys::Reflect;
use longpole_core::diagnostics::Diagnostic;
use longpole_core::formats::spark::rolling::{group, Grouped};
use wasm_bindgen::JsValue;
use web_sys::File;

/// Files read one after the other as one input.
pub struct Unit {
    /// Its files, in the order they are read (none for a rolling log's
    /// folder without a part).
    pub files: Vec<File>,
    /// The index of its first file among those sent, for progress.
    pub first: usize,
    /// The input's name: the file's, or the rolling log's folder's.
    pub name: String,
    /// What the rule says is missing or left out.
    pub said: Vec<Diagnostic>,
}

/// A file's path as the page gives it: within the folder picked or dropped
/// (`webkitRelativePath`, or a name the page gave with its folder), else its name.
fn path_of(file: &File) -> String {
    Reflect::get(file, &JsValue::from_str("webkitRelativePath"))
        .ok()
        .and_then(|p| p.as_string())
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| file.name())
}

/// The inputs `files` make, in the order sent.
pub fn units(files: &[File]) -> Vec<Unit> {
    let paths: Vec<String> = files.iter().map(path_of).collect();
    let refs: Vec<&str> = paths.iter().map(String::as_str).collect();
    group(&refs)
        .into_iter()
        .filter_map(|g| match g {
            Grouped::Single(i) => Some(Unit {
                files: vec![files.get(i)?.clone()],
                first: i,
                name: files.get(i)?.name(),
                said: Vec::new(),
            }),
            Grouped::Rolling(log) => Some(Unit {
                files: log.parts.iter().filter_map(|&i| files.get(i).cloned()).collect(),
                first: log.parts.first().copied().unwrap_or(0),
                name: log.name,
                said: log.diagnostics,
            }),
        })
        .collect()
}
