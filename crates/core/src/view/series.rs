//! A figure over time (a server's load, the actions running), thinned for
//! a chart: shared by every format that samples one.

use super::SERIES_POINTS;
use crate::model::Nanos;
use serde::{Deserialize, Serialize};

/// A figure over time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Series {
    /// Its name (`running instructions`, `rss MB`, `cpu load %`).
    pub name: String,
    /// (time ns, value), in time order; at most [`SERIES_POINTS`], keeping
    /// each bucket's largest value.
    pub points: Vec<(Nanos, i64)>,
    /// Samples before thinning.
    pub samples: u64,
    /// The largest value.
    pub max: i64,
}

impl Series {
    /// A series of `samples` (in time order), thinned for drawing.
    pub fn of(name: &str, samples: &[(Nanos, i64)]) -> Option<Series> {
        if samples.is_empty() {
            return None;
        }
        let per = samples.len().div_ceil(SERIES_POINTS);
        let points = samples.chunks(per).filter_map(|c| c.iter().max_by_key(|s| s.1).copied()).collect();
        let max = samples.iter().map(|s| s.1).max().unwrap_or(0);
        Some(Series { name: name.to_owned(), points, samples: samples.len() as u64, max })
    }
}
