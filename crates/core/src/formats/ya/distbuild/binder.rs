//! Binding worker ids to host names in bounded memory, as ya does.
//!
//! Prepare events carry only a worker id. A `deploy` line pairs a uid with a
//! worker id; a `deployed`/`started`/`finished` line pairs the same uid with a
//! host. Each half waits in a pending map only until its counterpart comes;
//! once a worker is bound, every pending pair of that worker and of that host
//! is dropped, and the first binding of a worker or a host wins.

use crate::hash::{FastMap, FastSet};

/// Worker id → host, learned from uid pairs. Hosts and uids are interned ids.
#[derive(Debug, Default)]
pub(super) struct Binder {
    worker_host: FastMap<i64, u32>,
    bound_hosts: FastSet<u32>,
    uid_worker: FastMap<u32, i64>,
    uid_host: FastMap<u32, u32>,
}

impl Binder {
    /// A `deploy` line: `uid` was sent to `worker`.
    pub(super) fn uid_on_worker(&mut self, uid: u32, worker: i64) {
        if self.worker_host.contains_key(&worker) {
            return;
        }
        if let Some(&host) = self.uid_host.get(&uid) {
            self.bind(worker, host);
            return;
        }
        self.uid_worker.insert(uid, worker);
    }

    /// A `deployed`/`started`/`finished` line: `uid` ran on `host`.
    pub(super) fn uid_on_host(&mut self, uid: u32, host: u32) {
        if self.bound_hosts.contains(&host) {
            return;
        }
        if let Some(&worker) = self.uid_worker.get(&uid) {
            self.bind(worker, host);
            return;
        }
        self.uid_host.insert(uid, host);
    }

    /// The host bound to `worker`, if any.
    pub(super) fn host(&self, worker: i64) -> Option<u32> {
        self.worker_host.get(&worker).copied()
    }

    /// Pairs still waiting for their counterpart (a measure of memory use).
    #[cfg(test)]
    pub(super) fn pending(&self) -> usize {
        self.uid_worker.len() + self.uid_host.len()
    }

    fn bind(&mut self, worker: i64, host: u32) {
        self.worker_host.insert(worker, host);
        self.bound_hosts.insert(host);
        self.uid_host.retain(|_, h| *h != host);
        self.uid_worker.retain(|_, w| *w != worker);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binds_in_either_order_and_forgets_pending_pairs() {
        let mut b = Binder::default();
        b.uid_on_worker(1, 7);
        b.uid_on_worker(2, 7);
        assert_eq!(b.pending(), 2);
        b.uid_on_host(1, 100);
        assert_eq!(b.host(7), Some(100));
        assert_eq!(b.pending(), 0, "worker 7's other pairs are dropped");
        // host first, then worker
        b.uid_on_host(3, 200);
        b.uid_on_worker(3, 8);
        assert_eq!(b.host(8), Some(200));
        // first binding wins: host 100 is taken, worker 7 is taken
        b.uid_on_worker(4, 9);
        b.uid_on_host(4, 100);
        assert_eq!(b.host(9), None);
        b.uid_on_host(5, 300);
        b.uid_on_worker(5, 7);
        assert_eq!(b.host(7), Some(100));
    }
}
