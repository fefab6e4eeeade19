//! An allocator that counts: the bytes live and the most live since last
//! asked, for the probes that say where memory goes (`mem-probe`,
//! `compare-probe`). A binary makes it its allocator with
//! `#[global_allocator] static A: Counting = Counting;`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::time::Instant;

/// The system allocator, counting the bytes live and their peak.
pub struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let live = LIVE.fetch_add(layout.size(), Relaxed) + layout.size();
            PEAK.fetch_max(live, Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        unsafe { System.dealloc(p, layout) };
        LIVE.fetch_sub(layout.size(), Relaxed);
    }

    unsafe fn realloc(&self, p: *mut u8, layout: Layout, size: usize) -> *mut u8 {
        let q = unsafe { System.realloc(p, layout, size) };
        if !q.is_null() {
            // A move holds both copies for a moment.
            let live = LIVE.fetch_add(size, Relaxed) + size;
            PEAK.fetch_max(live, Relaxed);
            LIVE.fetch_sub(layout.size(), Relaxed);
        }
        q
    }
}

/// Prints a step: its time, the bytes live after it and the most during it
/// (counted by [`Counting`], which must be the allocator).
pub fn step(name: &str, began: Instant) {
    let mb = |b: usize| b as f64 / 1e6;
    println!(
        "{name:<28} {:>8.0} ms  live {:>7.1} MB  peak {:>7.1} MB",
        began.elapsed().as_secs_f64() * 1000.0,
        mb(LIVE.load(Relaxed)),
        mb(PEAK.swap(LIVE.load(Relaxed), Relaxed))
    );
}
