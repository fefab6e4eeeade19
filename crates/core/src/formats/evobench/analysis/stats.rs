//! Descriptive statistics of weighted integer values, computed exactly as
//! evobench's evaluator computes them (shared spec §3, "The evaluator's
//! conventions"):
//!
//! - `count` = Σ weights, `sum` = Σ value × weight;
//! - `mean` = sum / count, rounded half up;
//! - `stdev`: the weighted population variance in fixed point with 32
//!   fractional bits (every product and quotient truncated, as the
//!   evaluator's `FixedU128<U32>` arithmetic does), its square root in
//!   `f64`, plus 0.5, truncated;
//! - `median`: the middle of the weight-expanded sorted values; for an even
//!   count `(a + b + 1) / 2` of the two middle ones;
//! - percentile q (0..=100): the value at index `⌊q/100 × (N−1) + 0.5⌋` of
//!   the weight-expanded sorted values (nearest rank, no interpolation).
//!
//! Values are never expanded: a span of weight 100,000 is one entry.

use serde::{Deserialize, Serialize};

/// Percentiles per row: 0 to 100 inclusive.
pub const PERCENTILES: usize = 101;

/// The statistics of one set of weighted values.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stats {
    /// Σ weights (calls, with `EVOBENCH_SCOPE_EVERY` spans counted n times).
    pub count: u64,
    /// Σ value × weight (saturating at `u64::MAX`).
    pub sum: u64,
    /// sum / count, rounded half up.
    pub mean: u64,
    /// Weighted population standard deviation, rounded half up.
    pub stdev: u64,
    /// The median ((a + b + 1) / 2 for an even count).
    pub median: u64,
    /// Percentiles 0 (min) to 100 (max), nearest rank.
    pub percentiles: Vec<u64>,
}

/// One value with its weight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Weighted {
    /// The value.
    pub value: u64,
    /// How many calls it stands for (at least 1).
    pub weight: u32,
}

const FRAC: u32 = 32;

/// ⌊d² / 2³²⌋ for a fixed-point d with 32 fractional bits, without a
/// 256-bit intermediate; `None` past `u128`.
fn fixed_square(d: u128) -> Option<u128> {
    let hi = d >> FRAC;
    let lo = d & ((1u128 << FRAC) - 1);
    let a = hi.checked_mul(hi)?.checked_mul(1u128 << FRAC)?;
    let b = hi.checked_mul(lo)?.checked_mul(2)?;
    a.checked_add(b)?.checked_add((lo * lo) >> FRAC)
}

/// The fixed-point variance (raw, 32 fractional bits), or `None` when it
/// leaves the evaluator's number range.
fn fixed_variance(values: &[Weighted], sum: u128, count: u64) -> Option<u128> {
    let mean = sum.checked_mul(1u128 << FRAC)? / u128::from(count);
    let mut sse: u128 = 0;
    for w in values {
        let v = u128::from(w.value) << FRAC;
        let d = v.abs_diff(mean);
        // Below 2⁶⁴, d² fits in u128 and is squared directly.
        let square = match u64::try_from(d) {
            Ok(d) => (u128::from(d) * u128::from(d)) >> FRAC,
            Err(_) => fixed_square(d)?,
        };
        sse = sse.checked_add(square.checked_mul(u128::from(w.weight))?)?;
    }
    Some(sse / u128::from(count))
}

/// The variance in `f64` when the fixed-point one overflows (values far
/// beyond what a benchmark measures).
fn float_variance(values: &[Weighted], sum: u128, count: u64) -> f64 {
    let mean = sum as f64 / count as f64;
    values.iter().map(|w| (w.value as f64 - mean).powi(2) * f64::from(w.weight)).sum::<f64>() / count as f64
}

/// Sorted weighted values read as if each were repeated `weight` times,
/// at nondecreasing indices, in one sweep.
struct Sweep<'a> {
    sorted: &'a [Weighted],
    /// The value under the cursor.
    at: usize,
    /// Σ weights up to and including it.
    end: u64,
}

impl<'a> Sweep<'a> {
    fn new(sorted: &'a [Weighted]) -> Self {
        Sweep { sorted, at: 0, end: sorted.first().map_or(0, |w| u64::from(w.weight)) }
    }

    /// The value at `index` of the weight-expanded values (the last value
    /// past their end); `index` is at least the last one asked for.
    fn at(&mut self, index: u64) -> u64 {
        while self.end <= index {
            let Some(next) = self.sorted.get(self.at + 1) else { break };
            self.at += 1;
            self.end += u64::from(next.weight);
        }
        self.sorted.get(self.at).map_or(0, |w| w.value)
    }
}

impl Stats {
    /// The statistics of `values` (sorted in place); `None` when there are
    /// none. Weights of 0 count as 1.
    pub fn of(values: &mut [Weighted]) -> Option<Stats> {
        for w in values.iter_mut() {
            w.weight = w.weight.max(1);
        }
        values.sort_unstable();
        Stats::of_sorted(values)
    }

    /// The statistics of `values`, which are sorted and weigh at least 1
    /// each; `None` when there are none.
    pub fn of_sorted(values: &[Weighted]) -> Option<Stats> {
        if values.is_empty() {
            return None;
        }
        let count: u64 = values.iter().map(|w| u64::from(w.weight)).sum();
        let sum: u128 = values.iter().map(|w| u128::from(w.value) * u128::from(w.weight)).sum();
        let c = u128::from(count);
        let mean = sum / c + u128::from((sum % c) * 2 >= c);
        let variance = match fixed_variance(values, sum, count) {
            Some(raw) => raw as f64 / (1u64 << FRAC) as f64,
            None => float_variance(values, sum, count),
        };
        let stdev = (variance.sqrt() + 0.5) as u64;
        let mut middle = Sweep::new(values);
        let median = if count % 2 == 0 {
            let (a, b) = (middle.at(count / 2 - 1), middle.at(count / 2));
            (u128::from(a) + u128::from(b)).div_ceil(2) as u64
        } else {
            middle.at(count / 2)
        };
        let distances = (count - 1) as f64;
        let mut sweep = Sweep::new(values);
        let percentiles = (0..PERCENTILES)
            .map(|i| sweep.at((i as f64 / (PERCENTILES - 1) as f64 * distances + 0.5) as u64))
            .collect();
        Some(Stats {
            count,
            sum: u64::try_from(sum).unwrap_or(u64::MAX),
            mean: u64::try_from(mean).unwrap_or(u64::MAX),
            stdev,
            median,
            percentiles,
        })
    }

    /// The statistics of unweighted values.
    pub fn of_values(values: impl IntoIterator<Item = u64>) -> Option<Stats> {
        let mut v: Vec<Weighted> = values.into_iter().map(|value| Weighted { value, weight: 1 }).collect();
        Stats::of(&mut v)
    }

    /// Percentile `q` (0..=100; larger is 100).
    pub fn percentile(&self, q: u8) -> u64 {
        self.percentiles.get(usize::from(q.min(100))).copied().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(value: u64, weight: u32) -> Weighted {
        Weighted { value, weight }
    }

    #[test]
    fn weights_expand_without_copies() {
        let s = Stats::of(&mut [w(10, 3), w(1, 1)]).unwrap();
        assert_eq!((s.count, s.sum, s.mean), (4, 31, 8));
        assert_eq!(s.median, 10);
        assert_eq!((s.percentile(0), s.percentile(25), s.percentile(100)), (1, 10, 10));
        // population stdev of [1, 10, 10, 10]: 3.897…
        assert_eq!(s.stdev, 4);
    }

    #[test]
    fn even_medians_round_up_and_percentiles_take_the_nearest_rank() {
        let s = Stats::of_values([1, 2]).unwrap();
        assert_eq!((s.median, s.mean, s.stdev), (2, 2, 1));
        let s = Stats::of_values(0..=10).unwrap();
        assert_eq!((s.percentile(4), s.percentile(5), s.percentile(90)), (0, 1, 9));
        assert_eq!(Stats::of(&mut []), None);
    }

    #[test]
    fn huge_values_fall_back_to_floating_point() {
        let s = Stats::of_values([0, u64::MAX]).unwrap();
        assert_eq!(s.percentile(100), u64::MAX);
        assert!(s.stdev > 1 << 62);
    }
}
