//! Which of many files are read together as one run, for exporting a
//! fleet of logs: the inputs `reconcile` joins, found among the files of
//! one folder. A distbuild log or a ya event log goes with its folder's
//! build graph (the n-th log with the n-th graph, the last graph when
//! there are fewer, as `reconcile` pairs them); a ninja log with its
//! folder's manifests and deps logs; a folder's MonetDB MAL traces (a
//! distributed query's supervisor and workers) are one run, and so are a
//! folder's dbt artifacts (`run_results.json` with `manifest.json`); every other
//! file is a run of its own.

use crate::formats::ya::{distbuild, evlog, graph};
use crate::formats::{dbt, monetdb_mal, ninja_log};
use crate::model::FormatId;

/// One file: the folder it lies in and its format, if it was told.
#[derive(Clone, Copy, Debug)]
pub struct FileFormat<'a> {
    /// The folder (any text that is equal for files of the same folder).
    pub folder: &'a str,
    /// Its format, or `None` when it could not be told.
    pub format: Option<FormatId>,
}

/// The order in which `longpole export FOLDER` reads `inputs` (each its
/// name and format) lying alone in one folder: by name, then as [`groups`]
/// groups a run's files (a log before its graph or its manifests), each
/// once, where it first comes. Indices into `inputs`.
pub fn folder_order(inputs: &[(&str, FormatId)]) -> Vec<usize> {
    let mut by_name: Vec<usize> = (0..inputs.len()).collect();
    by_name.sort_by(|&a, &b| inputs[a].0.cmp(inputs[b].0));
    let files: Vec<FileFormat<'_>> =
        by_name.iter().map(|&i| FileFormat { folder: "", format: Some(inputs[i].1) }).collect();
    let mut seen = vec![false; inputs.len()];
    groups(&files)
        .into_iter()
        .flatten()
        .filter(|&k| !std::mem::replace(&mut seen[k], true))
        .map(|k| by_name[k])
        .collect()
}

/// What a file is to the grouping.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Timed,
    Graph,
    NinjaLog,
    NinjaCompanion,
    Mal,
    Dbt,
    Alone,
}

fn role(format: Option<FormatId>) -> Role {
    match format {
        Some(f) if f == distbuild::ID || f == evlog::ID => Role::Timed,
        Some(f) if f == graph::ID => Role::Graph,
        Some(f) if f == ninja_log::ID => Role::NinjaLog,
        Some(f) if f == ninja_log::manifest::ID || f == ninja_log::deps_log::ID => Role::NinjaCompanion,
        Some(f) if f == monetdb_mal::ID => Role::Mal,
        Some(f) if f == dbt::ID => Role::Dbt,
        _ => Role::Alone,
    }
}

/// The groups of `files` (indices, in the order given), ordered by their
/// first file. Every file is in exactly one group, but a companion (a
/// graph, a manifest) that serves several logs is in each of theirs, and
/// one that serves none is a group of its own (reading it says why it
/// holds no run).
pub fn groups(files: &[FileFormat<'_>]) -> Vec<Vec<usize>> {
    let mut folders: Vec<&str> = files.iter().map(|f| f.folder).collect();
    folders.sort_unstable();
    folders.dedup();
    let mut out: Vec<Vec<usize>> = Vec::new();
    for folder in folders {
        let of = |r: Role| -> Vec<usize> {
            (0..files.len()).filter(|&i| files[i].folder == folder && role(files[i].format) == r).collect()
        };
        let (timed, graphs) = (of(Role::Timed), of(Role::Graph));
        for (n, &log) in timed.iter().enumerate() {
            out.push(std::iter::once(log).chain(graphs.get(n.min(graphs.len().saturating_sub(1))).copied()).collect());
        }
        out.extend(graphs.iter().skip(timed.len()).map(|&g| vec![g]));
        let (ninja, companions) = (of(Role::NinjaLog), of(Role::NinjaCompanion));
        out.extend(ninja.iter().map(|&log| std::iter::once(log).chain(companions.iter().copied()).collect()));
        if ninja.is_empty() {
            out.extend(companions.iter().map(|&c| vec![c]));
        }
        for together in [of(Role::Mal), of(Role::Dbt)] {
            if !together.is_empty() {
                out.push(together);
            }
        }
        out.extend(of(Role::Alone).into_iter().map(|i| vec![i]));
    }
    out.sort_unstable_by_key(|g| g[0]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn companions_join_their_folders_logs_and_the_rest_stand_alone() {
        let f = |folder, format| FileFormat { folder, format };
        let files = [
            f("a", Some(distbuild::ID)),
            f("a", Some(graph::ID)),
            f("a", Some(distbuild::ID)),
            f("b", Some(monetdb_mal::ID)),
            f("b", Some(monetdb_mal::ID)),
            f("b", None),
            f("c", Some(ninja_log::manifest::ID)),
            f("c", Some(ninja_log::ID)),
            f("d", Some(graph::ID)),
            f("e", Some(ninja_log::deps_log::ID)),
            f("f", Some(dbt::ID)),
            f("f", Some(dbt::ID)),
        ];
        assert_eq!(
            groups(&files),
            vec![vec![0, 1], vec![2, 1], vec![3, 4], vec![5], vec![7, 6], vec![8], vec![9], vec![10, 11]]
        );
    }

    #[test]
    fn a_folder_is_read_by_name_with_each_log_before_its_companions_and_each_file_once() {
        let inputs = [
            ("b.graph.json", graph::ID),
            ("c.ninja_log", ninja_log::ID),
            ("a.log", distbuild::ID),
            ("z.log", distbuild::ID),
            ("build.ninja", ninja_log::manifest::ID),
        ];
        // By name: a.log, b.graph.json, build.ninja, c.ninja_log, z.log. The
        // graph serves both logs and comes once, after the first; the
        // manifest comes after its log, before z.log.
        assert_eq!(folder_order(&inputs), [2, 0, 1, 4, 3]);
        assert_eq!(folder_order(&[]), Vec::<usize>::new());
    }
}
