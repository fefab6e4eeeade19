//! Numbers as people read them: sizes in KiB/MiB, times in ms or m s,
//! thousands separators. Plain functions, tested natively.

pub use longpole_core::numbers::{bytes, group};

/// A duration given in milliseconds, as the core writes durations.
pub fn millis(ms: f64) -> String {
    if ms.is_finite() {
        longpole_core::numbers::duration_label((ms * 1e6).round() as i64)
    } else {
        "–".to_owned()
    }
}

/// A rate in MB/s: `412 MB/s`, `3.2 MB/s`.
pub fn rate(mb_per_s: f64) -> String {
    if mb_per_s >= 100.0 {
        format!("{mb_per_s:.0} MB/s")
    } else {
        format!("{mb_per_s:.1} MB/s")
    }
}

/// Time left at the current rate, in ms, if it can be told.
pub fn eta_ms(done: u64, total: u64, elapsed_ms: f64) -> Option<f64> {
    (done > 0 && total >= done && elapsed_ms > 0.0).then(|| (total - done) as f64 * elapsed_ms / done as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(millis(12.4), "12.4 ms");
        assert_eq!(millis(4730.0), "4.73 s");
        assert_eq!(millis(f64::NAN), "–");
    }

    #[test]
    fn rates_and_eta() {
        assert_eq!(rate(412.3), "412 MB/s");
        assert_eq!(rate(3.21), "3.2 MB/s");
        assert_eq!(eta_ms(25, 100, 1000.0), Some(3000.0));
        assert_eq!(eta_ms(0, 100, 1000.0), None);
    }
}
