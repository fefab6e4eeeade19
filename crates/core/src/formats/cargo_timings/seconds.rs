//! Cargo's times, seconds as JSON numbers, as nanoseconds.

use crate::model::Nanos;

/// The longest time taken as real: a year, in seconds.
const MAX_SECONDS: f64 = 366.0 * 86_400.0;

/// `s` seconds as nanoseconds, rounded; `None` when `s` is negative, not
/// finite, or over a year.
pub fn nanos(s: f64) -> Option<Nanos> {
    (s.is_finite() && (0.0..=MAX_SECONDS).contains(&s)).then(|| (s * 1e9).round() as Nanos)
}

#[cfg(test)]
mod tests {
    use super::nanos;

    #[test]
    fn seconds_become_rounded_nanoseconds_and_nonsense_none() {
        assert_eq!(nanos(0.33), Some(330_000_000));
        assert_eq!(nanos(0.24000000000000002), Some(240_000_000));
        assert_eq!(nanos(-0.1), None);
        assert_eq!(nanos(f64::NAN), None);
        assert_eq!(nanos(1e12), None);
    }
}
