//! The Haskell threads of a log while it is read, by id. GHC numbers its
//! threads from 1 up, so most ids index a list directly (a scheduler-heavy
//! log looks a thread up at every one of its millions of runs); an id far
//! past the threads seen so far (a damaged or hostile log) goes to a map,
//! so that memory grows with the threads, not with their ids.

use super::run::ThreadStats;
use crate::hash::FastMap;
use crate::model::Sym;

/// A thread while the log is read: its numbers, the capabilities it ran on,
/// and its uid and name in the model's string table once made.
#[derive(Default)]
pub(super) struct Thread {
    pub stats: ThreadStats,
    pub caps: Vec<Option<u16>>,
    pub syms: Option<(Sym, Option<Sym>)>,
}

/// Ids below this always go to the list.
const DENSE_FLOOR: usize = 1 << 12;

/// Every thread met so far.
#[derive(Default)]
pub(super) struct Threads {
    /// By id, for ids within reach of the count.
    dense: Vec<Option<Thread>>,
    /// The others.
    sparse: FastMap<u32, Thread>,
    count: usize,
}

fn new_thread(id: u32) -> Thread {
    Thread { stats: ThreadStats { id, ..ThreadStats::default() }, ..Thread::default() }
}

impl Threads {
    /// Thread `id`, made when first met.
    pub(super) fn get(&mut self, id: u32) -> &mut Thread {
        let i = id as usize;
        let reach = DENSE_FLOOR.max(2 * self.count);
        if i >= self.dense.len() && i < reach {
            // Grown at least twofold, so that moving mapped threads in is rare.
            self.dense.resize_with((i + 1).max((2 * self.dense.len()).min(reach)), || None);
            let len = self.dense.len();
            let moved: Vec<u32> = self.sparse.keys().copied().filter(|&k| (k as usize) < len).collect();
            for k in moved {
                if let (Some(t), Some(slot)) = (self.sparse.remove(&k), self.dense.get_mut(k as usize)) {
                    *slot = Some(t);
                }
            }
        }
        match self.dense.get_mut(i) {
            Some(slot) => {
                if slot.is_none() {
                    self.count += 1;
                }
                slot.get_or_insert_with(|| new_thread(id))
            }
            None => {
                let count = &mut self.count;
                self.sparse.entry(id).or_insert_with(|| {
                    *count += 1;
                    new_thread(id)
                })
            }
        }
    }

    /// Every thread, by id.
    pub(super) fn into_sorted(self) -> Vec<Thread> {
        let mut all: Vec<Thread> = self.dense.into_iter().flatten().chain(self.sparse.into_values()).collect();
        all.sort_unstable_by_key(|t| t.stats.id);
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_id_is_one_thread_whether_listed_or_mapped() {
        let mut t = Threads::default();
        for id in [3, u32::MAX, 1, 3, 70_000, u32::MAX, 5000, 1].into_iter().chain(10..40_000).chain([70_000]) {
            t.get(id).stats.runs += 1;
        }
        let got: Vec<(u32, u64)> = t.into_sorted().iter().map(|t| (t.stats.id, t.stats.runs)).collect();
        assert_eq!(got.len(), 39_994);
        assert_eq!(got[..3], [(1, 2), (3, 2), (10, 1)]);
        assert_eq!(got.iter().find(|t| t.0 == 5000), Some(&(5000, 2)));
        // 70,000 was mapped, then met again once the list had grown past it.
        assert_eq!(got[got.len() - 3..], [(39_999, 1), (70_000, 2), (u32::MAX, 2)]);
    }
}
