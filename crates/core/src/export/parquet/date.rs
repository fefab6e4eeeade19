//! The partition a run's rows go to: `dt=YYYY-MM-DD`, the UTC date it
//! started, or Hive's partition for no value when its times are not dates.

/// The partition directory's name for a run that started at `micros`
/// (µs since 1970, UTC), or without a date: Hive's default partition,
/// which Spark, Trino and DuckDB read as a null `dt`.
pub fn partition(micros: Option<i64>) -> String {
    match micros {
        Some(us) => {
            let (y, m, d) = civil(us.div_euclid(86_400_000_000));
            format!("dt={y:04}-{m:02}-{d:02}")
        }
        None => "dt=__HIVE_DEFAULT_PARTITION__".to_owned(),
    }
}

/// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard
/// Hinnant's `civil_from_days`).
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::partition;

    #[test]
    fn dates_match_the_calendar() {
        // `date -u -d @…` for each.
        assert_eq!(partition(Some(0)), "dt=1970-01-01");
        assert_eq!(partition(Some(1_545_129_648_316_181)), "dt=2018-12-18");
        assert_eq!(partition(Some(951_782_400_000_000)), "dt=2000-02-29");
        assert_eq!(partition(Some(4_107_542_399_000_000)), "dt=2100-02-28");
        assert_eq!(partition(Some(-1)), "dt=1969-12-31");
        assert_eq!(partition(None), "dt=__HIVE_DEFAULT_PARTITION__");
    }
}
