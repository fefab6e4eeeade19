//! The statistics of a comparison with several runs a side: Welch's
//! t-test, an exact or sampled permutation test, a bootstrap interval of
//! the relative change, Benjamini–Hochberg's false-discovery-rate
//! correction and the minimum detectable effect. The t distribution is
//! `statrs`'s; resampling uses a fixed-seed generator, so a comparison is
//! the same every time.

use statrs::distribution::{ContinuousCDF, StudentsT};

/// Two-sided significance level of the tests and intervals.
pub const ALPHA: f64 = 0.05;
/// Power at which the minimum detectable effect is given.
pub const POWER: f64 = 0.8;
/// Resamples of the bootstrap.
const BOOTSTRAP: usize = 2_000;
/// Permutations drawn when there are more than this many to enumerate.
const PERMUTATIONS: usize = 10_000;

/// Mean and sample variance (n − 1).
fn mean_var(x: &[f64]) -> (f64, f64) {
    let n = x.len() as f64;
    let mean = x.iter().sum::<f64>() / n;
    let var = if x.len() > 1 { x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0) } else { 0.0 };
    (mean, var)
}

/// The mean of `x`.
pub fn mean(x: &[f64]) -> f64 {
    mean_var(x).0
}

/// Welch's two-sample t-test of `b` against `a`: the two-sided p-value and
/// the Welch–Satterthwaite degrees of freedom; `None` with fewer than two
/// values a side or no variance at all.
pub fn welch(a: &[f64], b: &[f64]) -> Option<(f64, f64)> {
    if a.len() < 2 || b.len() < 2 {
        return None;
    }
    let ((ma, va), (mb, vb)) = (mean_var(a), mean_var(b));
    let (sa, sb) = (va / a.len() as f64, vb / b.len() as f64);
    let se2 = sa + sb;
    if se2 <= 0.0 {
        return None;
    }
    let df = se2 * se2 / (sa * sa / (a.len() as f64 - 1.0) + sb * sb / (b.len() as f64 - 1.0));
    let t = (mb - ma) / se2.sqrt();
    let dist = StudentsT::new(0.0, 1.0, df).ok()?;
    Some(((2.0 * dist.cdf(-t.abs())).min(1.0), df))
}

/// The two-sided permutation test of the difference in means: every
/// split of the pooled values when there are at most 10,000, else 10,000
/// drawn with `rng` (then `(k + 1) / (N + 1)`). `None` with an empty side.
pub fn permutation(a: &[f64], b: &[f64], rng: &mut Rng) -> Option<f64> {
    if a.is_empty() || b.is_empty() {
        return None;
    }
    let pooled: Vec<f64> = a.iter().chain(b).copied().collect();
    let (n, k) = (pooled.len(), b.len());
    let total: f64 = pooled.iter().sum();
    let observed = (mean(b) - mean(a)).abs();
    // A split is as extreme when its difference is at least the observed
    // one, up to rounding.
    let tol = 1e-9 * observed.max(1e-12);
    let diff = |sum_b: f64| (sum_b / k as f64 - (total - sum_b) / (n - k) as f64).abs();
    if binomial(n, k) <= PERMUTATIONS as f64 {
        let (mut extreme, mut all) = (0u64, 0u64);
        let mut pick: Vec<usize> = (0..k).collect();
        loop {
            let sum_b: f64 = pick.iter().map(|&i| pooled[i]).sum();
            all += 1;
            if diff(sum_b) >= observed - tol {
                extreme += 1;
            }
            // The next k-combination of 0..n, in lexicographic order.
            let Some(i) = (0..k).rev().find(|&i| pick[i] < n - k + i) else { break };
            pick[i] += 1;
            for j in i + 1..k {
                pick[j] = pick[j - 1] + 1;
            }
        }
        return Some(extreme as f64 / all as f64);
    }
    let mut idx: Vec<usize> = (0..n).collect();
    let mut extreme = 0u64;
    for _ in 0..PERMUTATIONS {
        for i in 0..k {
            let j = i + rng.below(n - i);
            idx.swap(i, j);
        }
        let sum_b: f64 = idx[..k].iter().map(|&i| pooled[i]).sum();
        if diff(sum_b) >= observed - tol {
            extreme += 1;
        }
    }
    Some((extreme + 1) as f64 / (PERMUTATIONS + 1) as f64)
}

/// n choose k, as a float (large values only need to compare with 10,000).
fn binomial(n: usize, k: usize) -> f64 {
    (0..k.min(n - k)).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
}

/// The 95 % percentile-bootstrap interval of the relative change
/// `mean(b) / mean(a) − 1`, resampling each side with `rng`; `None` when a
/// side is empty or A's mean is not positive.
pub fn bootstrap_relative(a: &[f64], b: &[f64], rng: &mut Rng) -> Option<(f64, f64)> {
    if a.is_empty() || b.is_empty() || mean(a) <= 0.0 {
        return None;
    }
    let resample = |x: &[f64], rng: &mut Rng| (0..x.len()).map(|_| x[rng.below(x.len())]).sum::<f64>() / x.len() as f64;
    let mut changes: Vec<f64> = (0..BOOTSTRAP)
        .filter_map(|_| {
            let (ma, mb) = (resample(a, rng), resample(b, rng));
            (ma > 0.0).then(|| mb / ma - 1.0)
        })
        .collect();
    if changes.is_empty() {
        return None;
    }
    changes.sort_by(f64::total_cmp);
    let at = |q: f64| changes[((q * (changes.len() - 1) as f64).round() as usize).min(changes.len() - 1)];
    Some((at(ALPHA / 2.0), at(1.0 - ALPHA / 2.0)))
}

/// Benjamini–Hochberg adjusted p-values (q-values) of `p`, in its order;
/// a missing p-value stays missing and does not count.
pub fn benjamini_hochberg(p: &[Option<f64>]) -> Vec<Option<f64>> {
    let mut order: Vec<(usize, f64)> = p.iter().enumerate().filter_map(|(i, v)| v.map(|v| (i, v))).collect();
    order.sort_by(|x, y| x.1.total_cmp(&y.1));
    let m = order.len() as f64;
    let mut q = vec![None; p.len()];
    let mut running = 1.0f64;
    for (rank, &(i, v)) in order.iter().enumerate().rev() {
        running = running.min(v * m / (rank + 1) as f64);
        q[i] = Some(running.min(1.0));
    }
    q
}

/// The smallest difference in means a two-sided Welch test at [`ALPHA`]
/// would find with [`POWER`], in the values' unit; `None` with fewer than
/// two values a side.
pub fn minimum_detectable(a: &[f64], b: &[f64]) -> Option<f64> {
    if a.len() < 2 || b.len() < 2 {
        return None;
    }
    let ((_, va), (_, vb)) = (mean_var(a), mean_var(b));
    let (sa, sb) = (va / a.len() as f64, vb / b.len() as f64);
    let se2 = sa + sb;
    let df = if se2 > 0.0 {
        se2 * se2 / (sa * sa / (a.len() as f64 - 1.0) + sb * sb / (b.len() as f64 - 1.0))
    } else {
        (a.len() + b.len() - 2) as f64
    };
    let dist = StudentsT::new(0.0, 1.0, df).ok()?;
    Some((dist.inverse_cdf(1.0 - ALPHA / 2.0) + dist.inverse_cdf(POWER)) * se2.sqrt())
}

/// A small fixed-seed generator (SplitMix64) for resampling.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next() >> 11) as f64 / (1u64 << 53) as f64 * n as f64) as usize % n.max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// By hand: means 10 and 12, variances 0.5 and 0.625, so t = 2 /
    /// sqrt(0.225) = 4.2164 on 7.9024 degrees of freedom
    /// (Welch–Satterthwaite), and the two tails beyond it, integrated
    /// numerically from the t density, hold p = 0.003012.
    #[test]
    fn welch_matches_the_textbook_computation() {
        let a = [10.0, 11.0, 9.0, 10.0, 10.0];
        let b = [12.0, 13.0, 11.0, 12.5, 11.5];
        let (p, df) = welch(&a, &b).unwrap();
        assert!((df - 7.9024).abs() < 1e-3, "{df}");
        assert!((p - 0.003012).abs() < 1e-5, "{p}");
        assert_eq!(welch(&[1.0], &b), None);
        assert_eq!(welch(&[1.0, 1.0], &[1.0, 1.0]), None);
    }

    #[test]
    fn the_exact_permutation_test_counts_splits() {
        // Pooled 1..6, B = {4,5,6}: of the 20 splits, only B = {4,5,6} and
        // B = {1,2,3} are as extreme: p = 2/20.
        let p = permutation(&[1.0, 2.0, 3.0], &[4.0, 5.0, 6.0], &mut Rng::new(1)).unwrap();
        assert!((p - 0.1).abs() < 1e-12, "{p}");
        // All tied: every split is as extreme.
        assert_eq!(permutation(&[2.0, 2.0], &[2.0, 2.0], &mut Rng::new(1)), Some(1.0));
    }

    #[test]
    fn a_sampled_permutation_test_finds_a_clear_shift() {
        let a: Vec<f64> = (0..12).map(|i| 100.0 + f64::from(i % 3)).collect();
        let b: Vec<f64> = (0..12).map(|i| 110.0 + f64::from(i % 3)).collect();
        let p = permutation(&a, &b, &mut Rng::new(7)).unwrap();
        assert!(p < 0.001, "{p}");
    }

    #[test]
    fn the_bootstrap_interval_holds_the_true_change() {
        let a: Vec<f64> = (0..20).map(|i| 100.0 + f64::from(i % 5)).collect();
        let b: Vec<f64> = a.iter().map(|v| v * 1.2).collect();
        let (lo, hi) = bootstrap_relative(&a, &b, &mut Rng::new(3)).unwrap();
        assert!(lo < 0.2 && 0.2 < hi && hi - lo < 0.05, "{lo} {hi}");
    }

    /// The worked example of Benjamini and Hochberg's adjustment, as R's
    /// `p.adjust(c(0.01, 0.04, 0.03, 0.005), "BH")` gives it:
    /// 0.02, 0.04, 0.04, 0.02.
    #[test]
    fn benjamini_hochberg_matches_r() {
        let q = benjamini_hochberg(&[Some(0.01), Some(0.04), None, Some(0.03), Some(0.005)]);
        let want = [Some(0.02), Some(0.04), None, Some(0.04), Some(0.02)];
        for (q, w) in q.iter().zip(want) {
            assert_eq!(q.map(|v| (v * 1e9).round()), w.map(|v: f64| (v * 1e9).round()));
        }
    }

    #[test]
    fn the_minimum_detectable_effect_shrinks_with_more_runs() {
        let few = minimum_detectable(&[10.0, 12.0, 11.0], &[11.0, 9.0, 10.0]).unwrap();
        let a: Vec<f64> = (0..30).map(|i| [10.0, 12.0, 11.0][i % 3]).collect();
        let b: Vec<f64> = (0..30).map(|i| [11.0, 9.0, 10.0][i % 3]).collect();
        let many = minimum_detectable(&a, &b).unwrap();
        // 30 a side, each with variance 20/29: (t(0.975, 58) + t(0.8, 58)) ·
        // sqrt(2 · (20/29) / 30) = (2.0017 + 0.8480) · 0.21442 = 0.6110.
        assert!((many - 0.6110).abs() < 0.001, "{many}");
        assert!(few > 2.0 * many, "{few} {many}");
    }
}
