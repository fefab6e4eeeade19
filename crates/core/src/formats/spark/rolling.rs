//! Which files are one rolling event log, and in which order: the rule the
//! CLI (a folder given) and the app (files or a folder dropped) share.
//!
//! With `spark.eventLog.rolling.enabled`, Spark writes an application's log
//! into a folder `eventlog_v2_<app>` (`<app>` being the application's id,
//! and `_<attempt>` if it has one) as files `events_<N>_<app>[.<codec>]`,
//! N counting from 1, beside an empty `appstatus_<app>[.inprogress]`. Its
//! compactor may replace parts 1 to N by one file `events_N_<app>….compact`
//! (apache/spark, `RollingEventLogFilesWriter` and `EventLogFileCompactor`).
//! Read one after the other in the order of N, the parts are the whole log.
//!
//! Here, names are paths with `/` between folders: a part's folder is the
//! one just above it. What would be lost is said, never dropped in silence:
//! a missing part (`spark.rolling-gap`), a part of another application
//! (`spark.rolling-other-app`), two parts of one number
//! (`spark.rolling-duplicate-part`), parts a compacted file replaces
//! (`spark.rolling-compacted`), a file in the folder that is no part
//! (`spark.rolling-stray-file`), and an application that was still running
//! (`spark.rolling-in-progress`).

use crate::diagnostics::{Diagnostic, Position, Severity};

/// How a rolling log's folder's name starts.
pub const FOLDER_PREFIX: &str = "eventlog_v2_";
/// How a part's name starts.
const PART_PREFIX: &str = "events_";
/// How the status file's name starts.
const STATUS_PREFIX: &str = "appstatus_";
/// The end of a compacted part's name.
const COMPACTED: &str = ".compact";
/// The end of the status file's name while the application runs.
const IN_PROGRESS: &str = ".inprogress";

/// A part of a rolling log, as its name says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Part<'a> {
    /// Its number, N of `events_N_…`.
    pub index: u64,
    /// The application (and attempt) it belongs to.
    pub app: &'a str,
    /// Whether it is a compacted file, standing for every part up to it.
    pub compacted: bool,
}

impl<'a> Part<'a> {
    /// The part a file's name (its last path component) names, if any.
    pub fn of(path: &'a str) -> Option<Self> {
        let rest = file_name(path).strip_prefix(PART_PREFIX)?;
        let (index, app) = rest.split_once('_')?;
        let index = index.parse().ok().filter(|&n: &u64| n > 0)?;
        // Spark's ids hold no dot: what follows one is the codec or `.compact`.
        let app_end = app.find('.').unwrap_or(app.len());
        Some(Part { index, app: &app[..app_end], compacted: app.ends_with(COMPACTED) })
    }
}

/// The last component of a path.
fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// The application whose rolling log's folder holds `path`, if it is in one.
fn folder_app(path: &str) -> Option<&str> {
    let mut components = path.rsplit('/');
    components.next();
    components.next()?.strip_prefix(FOLDER_PREFIX)
}

/// One rolling log among the files given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RollingLog {
    /// Its name: its folder's, `eventlog_v2_<app>`.
    pub name: String,
    /// The files read as the log, one after the other: indices into the
    /// names given, in the order of the parts' numbers.
    pub parts: Vec<usize>,
    /// What is missing or left out, each for the log as a whole.
    pub diagnostics: Vec<Diagnostic>,
}

/// What the files given are: rolling logs, and files that are inputs of
/// their own, in the order given (a log where its first file was).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Grouped {
    /// The parts of one rolling log, read as one input.
    Rolling(RollingLog),
    /// A file read on its own (index into the names given).
    Single(usize),
}

/// Groups `paths` by the rule above. The parts given (and the files of
/// rolling logs' folders) make one log, of the application most of them
/// name; the parts of any other application are left out of it, and said.
pub fn group(paths: &[&str]) -> Vec<Grouped> {
    let in_log = |p: &str| Part::of(p).is_some() || folder_app(p).is_some();
    let Some(first) = paths.iter().position(|p| in_log(p)) else {
        return (0..paths.len()).map(Grouped::Single).collect();
    };
    let app = chosen_app(paths);
    let log = rolling_log(paths, app);
    let mut grouped = Vec::with_capacity(paths.len());
    for (i, p) in paths.iter().enumerate() {
        if i == first {
            grouped.push(Grouped::Rolling(log.clone()));
        } else if !in_log(p) {
            grouped.push(Grouped::Single(i));
        }
    }
    grouped
}

/// The application the log is of: the one most parts claim (by their
/// folder, or by their own name outside one); on a tie, the first named.
fn chosen_app<'a>(paths: &[&'a str]) -> &'a str {
    let claims: Vec<&str> = paths.iter().filter_map(|p| Some(folder_app(p).unwrap_or(Part::of(p)?.app))).collect();
    let count = |app: &str| claims.iter().filter(|&&c| c == app).count();
    claims.iter().fold("", |best, &c| if count(c) > count(best) { c } else { best })
}

/// The log of `app` among `paths`, with what is wrong with it.
fn rolling_log(paths: &[&str], app: &str) -> RollingLog {
    let mut diagnostics = Vec::new();
    let mut say =
        |severity, code, message: String| diagnostics.push(Diagnostic::new(severity, code, Position::Whole, message));
    let mut parts: Vec<(Part, usize)> = Vec::new();
    for (i, &p) in paths.iter().enumerate() {
        let name = file_name(p);
        match Part::of(p) {
            Some(part) if part.app != app => say(
                Severity::Warning,
                "spark.rolling-other-app",
                format!("{p} is a part of application {}'s log, not of {app}'s: it was not read", part.app),
            ),
            Some(part) => parts.push((part, i)),
            None if folder_app(p).is_none() => {}
            None if name.starts_with(STATUS_PREFIX) && name.ends_with(IN_PROGRESS) => say(
                Severity::Warning,
                "spark.rolling-in-progress",
                format!("{p} says the application was still running: its log may end early"),
            ),
            None if name.starts_with(STATUS_PREFIX) => {}
            None => say(
                Severity::Info,
                "spark.rolling-stray-file",
                format!("{p} is not a part of the rolling event log (events_N_…): it was not read"),
            ),
        }
    }
    parts.sort_by_key(|&(part, i)| (part.index, !part.compacted, i));
    let mut kept: Vec<(Part, usize)> = Vec::with_capacity(parts.len());
    for (part, i) in parts {
        match kept.last() {
            Some(&(last, j)) if last.index == part.index => say(
                Severity::Warning,
                "spark.rolling-duplicate-part",
                format!("{} and {} are both part {}: only the first was read", paths[j], paths[i], part.index),
            ),
            _ => kept.push((part, i)),
        }
    }
    if let Some(c) = kept.iter().rposition(|(part, _)| part.compacted) {
        let compacted = kept.get(c).map_or(0, |(p, _)| p.index);
        for (part, i) in kept.drain(..c) {
            say(
                Severity::Info,
                "spark.rolling-compacted",
                format!(
                    "{} (part {}) is in the compacted part {compacted}: it was not read again",
                    paths[i], part.index
                ),
            );
        }
    }
    let mut expected = 1;
    for &(part, _) in &kept {
        // A compacted part holds every part up to its own.
        if part.index > expected && !part.compacted {
            let missing = if part.index - expected == 1 {
                format!("part {expected} is")
            } else {
                format!("parts {expected} to {} are", part.index - 1)
            };
            say(
                Severity::Error,
                "spark.rolling-gap",
                format!("{missing} missing from {app}'s rolling event log: the events written there are not read"),
            );
        }
        expected = part.index + 1;
    }
    RollingLog { name: format!("{FOLDER_PREFIX}{app}"), parts: kept.into_iter().map(|(_, i)| i).collect(), diagnostics }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(log: &RollingLog) -> Vec<&str> {
        log.diagnostics.iter().map(|d| d.code.as_ref()).collect()
    }

    fn only_log(paths: &[&str]) -> RollingLog {
        match group(paths).as_slice() {
            [Grouped::Rolling(log)] => log.clone(),
            other => panic!("one rolling log expected, got {other:?}"),
        }
    }

    #[test]
    fn names_say_the_number_the_application_and_compaction() {
        let p = Part::of("d/events_12_app-2026_1.zstd").expect("a part");
        assert_eq!((p.index, p.app, p.compacted), (12, "app-2026_1", false));
        let c = Part::of("events_3_local-1.lz4.compact").expect("a part");
        assert_eq!((c.index, c.app, c.compacted), (3, "local-1", true));
        assert_eq!(Part::of("events_x_app"), None);
        assert_eq!(Part::of("events_0_app"), None);
        assert_eq!(Part::of("appstatus_app"), None);
        assert_eq!(Part::of("events_1"), None);
    }

    #[test]
    fn parts_given_in_any_order_are_read_in_the_order_of_their_numbers() {
        let log = only_log(&["events_10_a", "events_2_a", "events_1_a", "events_9_a", "events_3_a", "events_4_a"]);
        assert_eq!(log.name, "eventlog_v2_a");
        assert_eq!(log.parts, vec![2, 1, 4, 5, 3, 0]);
        // 5 to 8 were not given.
        assert_eq!(codes(&log), vec!["spark.rolling-gap"]);
        assert!(log.diagnostics[0].message.contains("parts 5 to 8 are missing"), "{}", log.diagnostics[0].message);
    }

    #[test]
    fn a_log_without_its_first_parts_is_said_to_miss_them() {
        let log = only_log(&["events_2_a", "events_3_a"]);
        assert_eq!(log.parts, vec![0, 1]);
        assert_eq!(codes(&log), vec!["spark.rolling-gap"]);
        assert!(log.diagnostics[0].message.contains("part 1 is missing"));
    }

    #[test]
    fn a_folder_s_files_make_its_log_and_other_files_stay_inputs_of_their_own() {
        let paths = [
            "graph.json",
            "eventlog_v2_a/appstatus_a",
            "eventlog_v2_a/events_2_a.zstd",
            "eventlog_v2_a/events_1_a.zstd",
            "eventlog_v2_a/.events_1_a.zstd.crc",
            "other.log",
        ];
        let grouped = group(&paths);
        let Some(Grouped::Rolling(log)) = grouped.get(1) else { panic!("{grouped:?}") };
        assert_eq!(log.parts, vec![3, 2]);
        assert_eq!(codes(log), vec!["spark.rolling-stray-file"]);
        assert_eq!(grouped[0], Grouped::Single(0));
        assert_eq!(grouped[2], Grouped::Single(5));
        assert_eq!(grouped.len(), 3);
    }

    #[test]
    fn a_part_of_another_application_is_left_out_and_said() {
        let log = only_log(&["events_1_b", "events_1_a", "events_2_a"]);
        assert_eq!(log.name, "eventlog_v2_a");
        assert_eq!(log.parts, vec![1, 2]);
        assert_eq!(codes(&log), vec!["spark.rolling-other-app"]);
        // In a folder, the folder names the application.
        let log = only_log(&["eventlog_v2_a/events_1_a", "eventlog_v2_a/events_2_b"]);
        assert_eq!((log.parts.as_slice(), codes(&log)), (&[0][..], vec!["spark.rolling-other-app"]));
    }

    #[test]
    fn a_compacted_part_replaces_the_parts_before_it() {
        let log = only_log(&["events_1_a", "events_3_a.compact", "events_4_a", "events_2_a"]);
        assert_eq!(log.parts, vec![1, 2]);
        assert_eq!(codes(&log), vec!["spark.rolling-compacted", "spark.rolling-compacted"]);
        // Alone, it is the whole log up to its number: no gap.
        assert_eq!(codes(&only_log(&["events_5_a.compact", "events_6_a"])), Vec::<&str>::new());
    }

    #[test]
    fn a_number_given_twice_is_read_once_and_said() {
        let log = only_log(&["x/events_1_a", "y/events_1_a", "events_2_a"]);
        assert_eq!(log.parts, vec![0, 2]);
        assert_eq!(codes(&log), vec!["spark.rolling-duplicate-part"]);
    }

    #[test]
    fn a_running_application_s_log_is_said_to_be_unfinished() {
        let log = only_log(&["eventlog_v2_a/events_1_a", "eventlog_v2_a/appstatus_a.inprogress"]);
        assert_eq!((log.parts.as_slice(), codes(&log)), (&[0][..], vec!["spark.rolling-in-progress"]));
    }

    #[test]
    fn files_of_no_rolling_log_are_each_their_own_input() {
        assert_eq!(group(&["a.log", "events.json"]), vec![Grouped::Single(0), Grouped::Single(1)]);
    }
}
