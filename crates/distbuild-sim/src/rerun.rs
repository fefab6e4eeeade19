//! The same build run again: the same graph and the same work, on its own
//! schedule (other hosts for each node, other copy and queueing times),
//! with each node's time jittered, and chosen nodes slowed by a chosen
//! factor. Two such runs are what a comparison of builds is tested on:
//! what it must find is known.

use crate::{Config, Node, Rng};

/// What makes this run of the build its own.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Rerun {
    /// Seed of this run's schedule and jitter.
    pub seed: u64,
    /// Each node's time is its base time (drawn from the graph's seed, the
    /// same in every run) times a factor drawn evenly in `1 ± jitter`.
    pub jitter: f64,
    /// Nodes slowed, by index, and the factor their time is multiplied by.
    pub slow: Vec<(usize, f64)>,
}

impl Rerun {
    /// Each node's run time in this run, ms (at least 1).
    pub fn durations(&self, cfg: &Config, nodes: &[Node]) -> Vec<i64> {
        let mut work = Rng::new(cfg.seed ^ 0x05EE_D0FB_011D);
        let mut jitter = Rng::new(self.seed ^ 0x0717_7E12);
        nodes
            .iter()
            .enumerate()
            .map(|(i, n)| {
                let base = work.around(f64::from(n.kind.median_ms));
                let j = 1.0 + self.jitter * (2.0 * jitter.unit() - 1.0);
                let slow = self.slow.iter().filter(|(s, _)| *s == i).map(|(_, f)| f).product::<f64>();
                ((base * j * slow).round() as i64).max(1)
            })
            .collect()
    }
}

/// `nodes` with new uids drawn from `seed` (another build graph of the same
/// build names its nodes anew).
pub fn renamed(nodes: &[Node], seed: u64) -> Vec<Node> {
    let mut rng = Rng::new(seed ^ 0x00BA_D1D5);
    nodes.iter().map(|n| Node { uid: crate::uid(&mut rng), ..n.clone() }).collect()
}
