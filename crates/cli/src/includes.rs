//! The files a ninja manifest includes (`include`, `subninja`) read from
//! disk when they were not given: ninja resolves them from the build
//! directory, which is the root manifest's.

use crate::read::read_named;
use anyhow::Result;
use longpole_core::formats::ninja_log::manifest::{eval, Manifest};
use longpole_core::formats::Parsed;
use longpole_core::Input;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// Rounds of includes of includes read, at most.
const DEPTH: usize = 64;

/// Adds to `inputs` (read from `paths`) every include and subninja of its
/// manifests that exists on disk and was not given, those of the files
/// added too. An include that is not on disk stays missing: the core
/// reports it.
pub fn read_includes(inputs: &mut Vec<Input>, paths: &[&Path], threads: usize) -> Result<()> {
    let Some(dir) = build_dir(inputs, paths) else { return Ok(()) };
    let mut tried: HashSet<String> = HashSet::new();
    for _ in 0..DEPTH {
        let files: Vec<(&str, &Manifest)> = inputs
            .iter()
            .filter_map(|i| match &i.parsed {
                Parsed::NinjaManifest(m) => Some((i.info.name.as_str(), &**m)),
                _ => None,
            })
            .collect();
        let wanted: Vec<(PathBuf, String)> = eval::missing(&files)
            .into_iter()
            .filter(|p| tried.insert(p.clone()))
            .map(|p| (dir.join(&p), p))
            .filter(|(path, _)| path.is_file())
            .collect();
        if wanted.is_empty() {
            return Ok(());
        }
        let (found, names): (Vec<&Path>, Vec<String>) = wanted.iter().map(|(p, n)| (p.as_path(), n.clone())).unzip();
        inputs.extend(read_named(&found, &names, threads, false)?);
    }
    Ok(())
}

/// The directory of the root manifest given (`build.ninja`, else the first).
fn build_dir(inputs: &[Input], paths: &[&Path]) -> Option<PathBuf> {
    let manifests: Vec<usize> =
        (0..inputs.len().min(paths.len())).filter(|&i| matches!(inputs[i].parsed, Parsed::NinjaManifest(_))).collect();
    let root = manifests
        .iter()
        .copied()
        .find(|&i| paths[i].file_name().is_some_and(|n| n == "build.ninja"))
        .or_else(|| manifests.first().copied())?;
    Some(paths[root].parent().map_or_else(|| PathBuf::from("."), Path::to_path_buf))
}
