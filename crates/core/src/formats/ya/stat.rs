//! The numbers of ya's build statistics (`ya make --stat`), from the model.
//!
//! Each section follows ya's `devtools/ya/build/stat/statistics.py`: which
//! tasks count, the sort keys and the tie-breaking (Python's stable sorts),
//! so that the report reads as ya's does. The text itself is written by
//! [`super::report`].

use crate::analysis::critical_path::Path;
use crate::analysis::task_totals::{Tally, TypeTotal, TOP};
use crate::analysis::top::Top;
use crate::model::{Model, Nanos, Role, TaskId};

/// ya's cache line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// All run tasks, timed or not.
    pub run_tasks: u64,
    /// Results from the local cache (prepare tasks `get from local cache`).
    pub local: u64,
    /// Results from the dist cache (prepare tasks `get from dist cache`).
    pub dist: u64,
    /// Run tasks that really ran: not from cache, with a non-zero duration.
    pub not_cached: u64,
    /// Of those, the ones that run tests.
    pub tests: u64,
    /// Failed run tasks.
    pub failed: u64,
}

impl CacheStats {
    /// Results from any cache.
    pub fn cached(&self) -> u64 {
        self.local + self.dist
    }

    /// Run tasks that did not have to run.
    pub fn not_executed(&self) -> u64 {
        self.run_tasks - self.not_cached
    }

    /// Not executed and not from a cache either.
    pub fn avoided(&self) -> u64 {
        self.not_executed().saturating_sub(self.cached())
    }

    /// `part` as a percentage of all run tasks (0 when there are none).
    pub fn percent(&self, part: u64) -> f64 {
        if self.run_tasks > 0 {
            100.0 * part as f64 / self.run_tasks as f64
        } else {
            0.0
        }
    }
}

/// Wall time by what was running (ya's `execution_stages_msec`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StageTimes {
    /// Only tests ran.
    pub tests_only: Nanos,
    /// Tests ran with other tasks.
    pub tests_with_other: Nanos,
    /// Only build tasks ran.
    pub build_only: Nanos,
    /// Build tasks ran with downloads or service tasks.
    pub build_with_other: Nanos,
    /// Only downloads ran.
    pub download_only: Nanos,
    /// Downloads ran with service tasks.
    pub download_with_other: Nanos,
    /// Only service tasks (prepare, copy) ran.
    pub service_only: Nanos,
}

/// Failed, test and total run time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Run time of failed tasks.
    pub failed: Nanos,
    /// Run time of test tasks.
    pub tests: Nanos,
    /// Run time of all run tasks.
    pub run: Nanos,
}

/// Everything ya's report holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct YaStat {
    /// The cache line.
    pub cache: CacheStats,
    /// The longest tasks, longest first (at most [`TOP`]).
    pub longest: Vec<TaskId>,
    /// The biggest copies, biggest first (at most [`TOP`]).
    pub biggest_copies: Vec<TaskId>,
    /// Time by type, largest first.
    pub by_type: Vec<TypeTotal>,
    /// Wall time by stage.
    pub stages: StageTimes,
    /// From the first start to the last end of the tasks with a duration.
    pub task_execution: Nanos,
    /// Failed, test and run time.
    pub totals: Totals,
}

fn node_type(model: &Model, id: TaskId) -> Option<&str> {
    model.meta(id).and_then(|m| m.node_type.as_deref())
}

/// Which of ya's stage counters a task feeds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Test,
    Build,
    Download,
    Service,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stage {
    TestsOnly,
    TestsWithOther,
    BuildOnly,
    BuildWithOther,
    DownloadOnly,
    DownloadWithOther,
    ServiceOnly,
    Idle,
}

fn classify(model: &Model, id: TaskId, download_kind: &[bool]) -> Class {
    let t = model.task(id);
    if t.role == Role::Work {
        match node_type(model, id) {
            Some("test") => Class::Test,
            Some("download") => Class::Download,
            _ => Class::Build,
        }
    } else if download_kind[t.kind.index()] {
        Class::Download
    } else {
        Class::Service
    }
}

/// ya's `_transform_timeline`: a sweep over the intervals of the tasks with
/// a positive duration, given as their starts and their ends with their
/// class. Starts and ends are sorted apart (in any order on a tie: every
/// change at one time is applied before the stage is read).
fn stages(mut starts: Vec<(Nanos, Class)>, mut ends: Vec<(Nanos, Class)>) -> StageTimes {
    starts.sort_unstable_by_key(|e| e.0);
    ends.sort_unstable_by_key(|e| e.0);
    let mut count = [0i64; 4];
    let idx = |c: Class| c as usize;
    let mut totals = [0 as Nanos; 8];
    let mut current: Option<(Stage, Nanos)> = None;
    let (mut i, mut j) = (0, 0);
    loop {
        let t = match (starts.get(i), ends.get(j)) {
            (Some(s), Some(e)) => s.0.min(e.0),
            (Some(s), None) => s.0,
            (None, Some(e)) => e.0,
            (None, None) => break,
        };
        while let Some(&(_, c)) = starts.get(i).filter(|s| s.0 == t) {
            count[idx(c)] += 1;
            i += 1;
        }
        while let Some(&(_, c)) = ends.get(j).filter(|e| e.0 == t) {
            count[idx(c)] -= 1;
            j += 1;
        }
        let (tests, build, download, service) = (count[0], count[1], count[2], count[3]);
        let stage = if tests > 0 && build == 0 && download == 0 && service == 0 {
            Stage::TestsOnly
        } else if tests > 0 {
            Stage::TestsWithOther
        } else if build > 0 && download == 0 && service == 0 {
            Stage::BuildOnly
        } else if build > 0 {
            Stage::BuildWithOther
        } else if download > 0 && service == 0 {
            Stage::DownloadOnly
        } else if download > 0 {
            Stage::DownloadWithOther
        } else if service > 0 {
            Stage::ServiceOnly
        } else {
            Stage::Idle
        };
        match current {
            Some((s, _)) if s == stage => {}
            Some((s, since)) => {
                totals[s as usize] += t - since;
                current = Some((stage, t));
            }
            None => current = Some((stage, t)),
        }
    }
    StageTimes {
        tests_only: totals[Stage::TestsOnly as usize],
        tests_with_other: totals[Stage::TestsWithOther as usize],
        build_only: totals[Stage::BuildOnly as usize],
        build_with_other: totals[Stage::BuildWithOther as usize],
        download_only: totals[Stage::DownloadOnly as usize],
        download_with_other: totals[Stage::DownloadWithOther as usize],
        service_only: totals[Stage::ServiceOnly as usize],
    }
}

/// Computes ya's statistics of a model, in one pass over its tasks.
pub fn ya_stat(model: &Model) -> YaStat {
    let mut cache = CacheStats::default();
    let mut totals = Totals::default();
    // The longest tasks and the time by type, in ya's orders.
    let mut tally = Tally::new(model);
    let mut biggest_copies = Top::new(TOP);
    // Starts and ends of the tasks with a positive duration, for the stages;
    // room for every task at once, as lists grown by doubling would at
    // times hold twice that.
    let mut starts = Vec::with_capacity(model.tasks().len());
    let mut ends = Vec::with_capacity(model.tasks().len());
    // A task that is not a run is a download when its type (its kind: the
    // cached mark is only for runs) says it came from the dist cache.
    let download_kind: Vec<bool> = model.kinds().iter().map(|k| k.name.contains("from dist cache")).collect();
    // The first start and the last end of those with a positive duration.
    let mut window: Option<(Nanos, Nanos)> = None;
    // One pass over the tasks gathers every section.
    for (i, t) in model.tasks().iter().enumerate() {
        let id = TaskId(i as u32);
        let dur = t.duration();
        match t.role {
            Role::Work => {
                cache.run_tasks += 1;
                cache.failed += u64::from(t.failed);
                if !t.cached && dur.is_some_and(|d| d != 0) {
                    cache.not_cached += 1;
                    cache.tests += u64::from(model.meta(id).is_some_and(|m| m.runs_test));
                }
                if let Some(d) = dur {
                    totals.run += d;
                    if t.failed {
                        totals.failed += d;
                    }
                    if node_type(model, id) == Some("test") {
                        totals.tests += d;
                    }
                }
            }
            Role::Setup => match model.kinds()[t.kind.index()].name.as_str() {
                "prepare:get from local cache" => cache.local += 1,
                "prepare:get from dist cache" => cache.dist += 1,
                _ => {}
            },
            _ => {}
        }
        let Some(d) = dur.filter(|_| t.role != Role::Phase) else { continue };
        tally.offer(model, id, t, d);
        if t.role == Role::Transfer {
            biggest_copies.offer((std::cmp::Reverse(model.bytes(id).unwrap_or(0)), id), id);
        }
        if d > 0 {
            let class = classify(model, id, &download_kind);
            starts.push((t.start.get().unwrap_or(0), class));
            ends.push((t.end.get().unwrap_or(0), class));
            if let (Some(s), Some(e)) = (t.start.get(), t.end.get()) {
                window = Some(window.map_or((s, e), |(a, z)| (a.min(s), z.max(e))));
            }
        }
    }
    let (longest, by_type) = tally.finish();

    let task_execution = window.map_or(0, |(a, b)| b - a);
    YaStat {
        cache,
        longest,
        biggest_copies: biggest_copies.into_vec(),
        by_type,
        stages: stages(starts, ends),
        task_execution,
        totals,
    }
}

/// The sum of the durations of a path's tasks (ya's "time elapsed by graph").
pub fn path_time(model: &Model, path: &Path) -> Nanos {
    path.tasks.iter().map(|&t| model.task(t).duration().unwrap_or(0)).sum()
}
