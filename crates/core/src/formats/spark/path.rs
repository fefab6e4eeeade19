//! The path over the stage DAG: back from the stage that completed last,
//! each step to the parent (`Parent IDs`) that completed last. A parent
//! that was skipped (its shuffle's output was there already, from an
//! earlier job) stands for the stage that computed that shuffle: the one
//! whose own RDD is the skipped stage's, which ran.

use super::log::StageAttempt;
use crate::hash::FastMap;
use serde::{Deserialize, Serialize};

/// One stage of the path.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// The stage attempt that ran (an index into the log's stages).
    pub stage: usize,
    /// The skipped stage id it stands for, when it was reached through one.
    pub for_skipped: Option<i64>,
}

/// Which attempt of each stage ran, and which ran stage each skipped one stands for.
pub struct StageGraph<'a> {
    stages: &'a [StageAttempt],
    /// A stage id's attempt that ran last (submitted and completed).
    ran: FastMap<i64, usize>,
    /// A skipped stage's id and the attempt it stands for.
    stand_ins: FastMap<i64, usize>,
    /// Skipped stages no ran stage stands for (their RDD was computed by none).
    pub unresolved: Vec<i64>,
}

impl<'a> StageGraph<'a> {
    /// The graph of `stages`.
    pub fn new(stages: &'a [StageAttempt]) -> StageGraph<'a> {
        let mut ran: FastMap<i64, usize> = FastMap::default();
        for (i, s) in stages.iter().enumerate() {
            if s.submitted.is_some() && s.completed.is_some() {
                let rank = |s: &StageAttempt| (s.failure.is_none(), s.completed, s.attempt);
                let later = ran.get(&s.stage_id).and_then(|&j| stages.get(j)).is_none_or(|o| rank(o) < rank(s));
                if later {
                    ran.insert(s.stage_id, i);
                }
            }
        }
        // The ran stage that computed each RDD last.
        let mut by_rdd: FastMap<i64, usize> = FastMap::default();
        for &i in ran.values() {
            let Some(s) = stages.get(i) else { continue };
            if let Some(r) = s.output_rdd() {
                let keep = by_rdd.get(&r).and_then(|&j| stages.get(j)).is_none_or(|o| o.completed < s.completed);
                if keep {
                    by_rdd.insert(r, i);
                }
            }
        }
        let mut stand_ins = FastMap::default();
        let mut unresolved = Vec::new();
        for s in stages {
            if ran.contains_key(&s.stage_id) || stand_ins.contains_key(&s.stage_id) || s.submitted.is_some() {
                continue;
            }
            match s.output_rdd().and_then(|r| by_rdd.get(&r)) {
                Some(&i) => {
                    stand_ins.insert(s.stage_id, i);
                }
                None if !unresolved.contains(&s.stage_id) => unresolved.push(s.stage_id),
                None => {}
            }
        }
        unresolved.sort_unstable();
        StageGraph { stages, ran, stand_ins, unresolved }
    }

    /// The attempt of stage `id` that ran, or that it stands for, with
    /// whether it was reached through a skipped stage.
    pub fn resolve(&self, id: i64) -> Option<(usize, bool)> {
        match self.ran.get(&id) {
            Some(&i) => Some((i, false)),
            None => self.stand_ins.get(&id).map(|&i| (i, true)),
        }
    }

    /// The attempts that ran, in the log's order.
    pub fn ran(&self) -> Vec<usize> {
        let mut v: Vec<usize> = self.ran.values().copied().collect();
        v.sort_unstable();
        v
    }

    /// The ran attempts stage attempt `i` waited for: its parents, resolved.
    pub fn parents(&self, i: usize) -> Vec<(usize, Option<i64>)> {
        let mut out: Vec<(usize, Option<i64>)> = Vec::new();
        let Some(s) = self.stages.get(i) else { return out };
        for &p in &s.parents {
            if let Some((j, skipped)) = self.resolve(p) {
                if j != i && !out.iter().any(|&(k, _)| k == j) {
                    out.push((j, skipped.then_some(p)));
                }
            }
        }
        out
    }

    /// The path: back from the stage that completed last, through the
    /// parent that completed last; first stage first.
    pub fn path(&self) -> Vec<Step> {
        let completed = |i: usize| self.stages.get(i).and_then(|s| s.completed).unwrap_or(i64::MIN);
        let Some(mut at) = self.ran().into_iter().max_by_key(|&i| (completed(i), i)) else { return Vec::new() };
        let mut steps = vec![Step { stage: at, for_skipped: None }];
        loop {
            let next = self.parents(at).into_iter().max_by_key(|&(j, _)| (completed(j), j));
            match next {
                Some((j, skipped)) if !steps.iter().any(|s| s.stage == j) => {
                    steps.push(Step { stage: j, for_skipped: skipped });
                    at = j;
                }
                _ => break,
            }
        }
        steps.reverse();
        steps
    }
}
