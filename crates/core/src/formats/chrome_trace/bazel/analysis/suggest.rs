//! Plain-word suggestions for a Bazel profile, made where EngFlow's
//! bazel_invocation_analyzer makes one, on the same thresholds (its
//! suggestion providers: garbage collection, critical path not dominant,
//! bottlenecks, `--jobs`, remote caching, remote queuing, local actions
//! beside remote execution, building without the bytes, merged events,
//! unusual phase durations, incomplete profiles, Skymeld, remote cache
//! misses, actions that skip the cache).

use super::summary::{saturating_sum, BazelSummary};
use crate::model::{Model, Nanos, TaskId};
use crate::numbers::duration_label;
use serde::{Deserialize, Serialize};

/// Major collections worth a word: this share of the run, % (EngFlow's 5).
const MAJOR_GC_PERCENT: f64 = 5.0;
/// The critical path dominates the execution phase above this share, %.
const DOMINANT_PERCENT: f64 = 75.0;
/// Shorter execution phases, and bottlenecks, are not judged, ns.
const JUDGED: Nanos = 5_000_000_000;
/// A bottleneck must save this share of the run, %.
const BOTTLENECK_GAIN_PERCENT: f64 = 5.0;
/// … with fewer than this share of the jobs busy.
const BOTTLENECK_BUSY: f64 = 0.9;
/// Phases that may take time; the others should not, past 30 s runs.
const BUSY_PHASES: [&str; 4] = [
    "target pattern evaluation",
    "interleaved loading-and-analysis",
    "interleaved loading, analysis and execution",
    "execution",
];
/// A quiet phase is unusual above this share of a run of 30 s or more, %.
const QUIET_PHASE_PERCENT: f64 = 2.0;

/// One suggestion.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Suggestion {
    /// EngFlow's suggestion id (`IncreaseJavaHeapSize`).
    pub id: String,
    /// What to do.
    pub title: String,
    /// Why, with the profile's figures.
    pub text: String,
}

fn percent(part: Nanos, whole: Nanos) -> f64 {
    if whole > 0 {
        part as f64 * 100.0 / whole as f64
    } else {
        0.0
    }
}

fn push(out: &mut Vec<Suggestion>, id: &str, title: &str, text: String) {
    out.push(Suggestion { id: id.to_owned(), title: title.to_owned(), text });
}

/// The suggestions for a profile summarised as `s`, most telling first.
pub fn suggestions(m: &Model, s: &BazelSummary) -> Vec<Suggestion> {
    let mut out = Vec::new();
    let total = s.total;
    if s.critical_path == 0 {
        push(&mut out, "AnalyzeDifferentProfile", "Analyze the profile of a build", "The profile has no critical path: Bazel ran no actions. Profile a build-like command (`bazel build`, `bazel test`) to see what limits it.".to_owned());
    }
    if let Some(exec) = s.execution.filter(|&e| e >= JUDGED && s.critical_path > 0) {
        let share = percent(s.critical_path, exec);
        if share <= DOMINANT_PERCENT {
            let minimum = total.saturating_sub(exec).saturating_add(s.critical_path);
            let cores = s.cores.used.map_or(String::new(), |j| {
                let optimal = (f64::from(j) * total as f64 / minimum.max(1) as f64).ceil();
                format!(" {j} evaluator threads ran actions; about {optimal} would let the critical path set the pace.")
            });
            let (id, title) = if s.remote_execution {
                ("IncreaseValueOfJobsFlag", "Raise --jobs")
            } else {
                ("IncreaseNumberOfCores", "Use more cores (a bigger machine or remote execution)")
            };
            push(&mut out, id, title, format!(
                "The critical path takes {} of the execution phase's {} ({share:.1}%): actions were not run as much in parallel as they could be. With enough parallelism the run could take {} instead of {}.{cores}",
                duration_label(s.critical_path), duration_label(exec), duration_label(minimum), duration_label(total)));
        }
    }
    if let Some(jobs) = s.cores.used {
        for b in bottleneck_suggestions(m, s, jobs) {
            out.push(b);
        }
    }
    let major = percent(s.gc.major_total, total);
    if major >= MAJOR_GC_PERCENT {
        push(&mut out, "IncreaseJavaHeapSize", "Give Bazel more memory, or make the rules use less", format!(
            "Major garbage collection took {} ({major:.1}% of the run) in {} pauses that stop every Bazel thread. A larger heap (`--host_jvm_args=-Xmx…`) or rules that keep less in memory would save up to that time.",
            duration_label(s.gc.major_total), s.gc.major_count));
    }
    let c = &s.cores;
    if let (Some(bound), Some(cores), Some(_)) = (c.jobs_at_least, c.available, c.used) {
        if !s.remote_execution && !s.remote_cache && c.jobs_likely_set {
            let (direction, why) = if cores < bound {
                ("too high", "more jobs than cores add Bazel overhead without speeding a local build")
            } else {
                ("too low", "fewer jobs than cores hold back parallel work")
            };
            push(&mut out, "UnsetJobsFlag", "Leave --jobs unset for local builds", format!(
                "The evaluator threads say --jobs was at least {bound} while the machine has about {cores} cores (the threads busy in analysis), so --jobs looks set and {direction}: {why}. For a local build Bazel picks a value from the machine's cores when the flag is unset or `auto`."));
        }
    }
    if !s.remote_cache {
        push(&mut out, "UseRemoteCaching", "Use a disk or remote cache", "No action checked a cache. `--disk_cache` (and `--remote_cache` for a shared one) let Bazel reuse outputs instead of running the actions again.".to_owned());
    }
    if !s.cores.skymeld && !s.phases.is_empty() {
        push(&mut out, "UseSkymeld", "Let analysis and execution overlap (Skymeld)", "Bazel analysed every target before running any action. `--experimental_merged_skyframe_analysis_execution` (Skymeld; Bazel 6 and later, on by default from 7) starts a target's actions as soon as it is analysed.".to_owned());
    }
    let listed = |items: &[(u32, Nanos)]| -> String {
        items
            .iter()
            .map(|&(t, d)| format!("\"{}\" ({})", m.label(TaskId(t)), duration_label(d)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let k = &s.caching;
    if s.remote_cache && k.misses > 0 {
        push(&mut out, "InvestigateRemoteCacheMisses", "Find out why actions missed the cache", format!(
            "{} of the {} actions that checked the cache missed it. The longest to run: {}. Bazel's execution log (`--execution_log_compact_file`) compared between two builds shows what differed.",
            k.misses, k.checked, listed(&k.longest_misses)));
    }
    if s.remote_cache && !k.longest_unchecked.is_empty() {
        push(&mut out, "NoCacheActions", "Let the actions that skip the cache use it", format!(
            "Remote caching was in use, yet {} actions did not check the cache; the longest: {}. Their targets likely carry a `no-cache` or `no-remote-cache` tag.",
            k.unchecked, listed(&k.longest_unchecked)));
    }
    let queued: Nanos =
        saturating_sum(s.activities.iter().filter(|r| r.what == "Remote execution queuing time").map(|r| r.total));
    if queued > 0 {
        push(&mut out, "IncreaseRemoteExecutionClusterSize", "Look at the remote execution cluster's size", format!(
            "Actions queued for remote execution for {} in all. The cluster may have been overloaded: more workers or its autoscaling settings would shorten the wait.", duration_label(queued)));
    }
    if s.remote_execution {
        let local: Vec<_> = s.activities.iter().filter(|r| r.group == "local execution").collect();
        if !local.is_empty() {
            push(&mut out, "LocalActionsWithRemoteExecution", "Move the locally run actions to remote execution", format!(
                "Remote execution was in use, yet {} local executions took {} in all. Running them remotely too would speed up later builds and keep them hermetic.",
                local.iter().map(|r| r.count).sum::<u64>(), duration_label(saturating_sum(local.iter().map(|r| r.total)))));
        }
        push(&mut out, "BuildWithoutTheBytes", "Build without the bytes", "Remote execution was in use: `--remote_download_minimal` downloads only the outputs you need (the profile does not tell whether it is already set).".to_owned());
    }
    if s.merged_events > 0 {
        push(&mut out, "DisableMergedEvents", "Profile with --noslim_profile", format!(
            "Bazel merged short events into {} `merged N events` slices, which hides what they were. `--noslim_profile` keeps them apart (the profile grows).", s.merged_events));
    }
    if total >= 6 * JUDGED {
        for p in s.phases.iter().filter(|p| !BUSY_PHASES.contains(&p.nick.as_str()) && p.percent > QUIET_PHASE_PERCENT)
        {
            push(
                &mut out,
                "UnusualPhaseDuration",
                &format!("Look into the \"{}\" phase", p.name),
                format!(
                    "The {} phase took {} ({:.1}% of the run); it is usually negligible.",
                    p.nick,
                    duration_label(p.time),
                    p.percent
                ),
            );
        }
    }
    out
}

/// EngFlow's bottleneck suggestions: stretches of 5 s or more where the
/// actions in flight stayed below 90% of the jobs, that would save 5% of
/// the run if they ran at full width.
fn bottleneck_suggestions(m: &Model, s: &BazelSummary, jobs: u32) -> Vec<Suggestion> {
    let mut found: Vec<(f64, Suggestion)> = s
        .bottlenecks
        .iter()
        .filter(|b| b.end.saturating_sub(b.start) >= JUDGED && b.average / f64::from(jobs) < BOTTLENECK_BUSY)
        .filter_map(|b| {
            let d = b.end.saturating_sub(b.start);
            let optimal = d.saturating_mul(b.average.ceil() as Nanos) / Nanos::from(jobs);
            let after = s.total.saturating_sub(d).saturating_add(optimal);
            let gain = 100.0 - percent(after, s.total);
            let names: Vec<String> = b.actions.iter().map(|&t| format!("\"{}\"", m.label(TaskId(t)))).collect();
            (gain >= BOTTLENECK_GAIN_PERCENT).then(|| (gain, Suggestion {
                id: "BreakDownBottleneckActions".to_owned(),
                title: "Break down the actions that hold the build back".to_owned(),
                text: format!(
                    "For {} only {:.2} actions ran on average, {:.0}% of the {jobs} jobs: the build waited on {}. Smaller actions could run side by side; the run could drop from {} to about {} ({gain:.1}% less).",
                    duration_label(d), b.average, b.average * 100.0 / f64::from(jobs), names.join(", "),
                    duration_label(s.total), duration_label(after)),
            }))
        })
        .collect();
    found.sort_by(|a, b| b.0.total_cmp(&a.0));
    found.into_iter().take(5).map(|f| f.1).collect()
}
