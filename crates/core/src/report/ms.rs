//! Milliseconds as ya's reports print them: exact, an integer when whole.

use crate::model::{Nanos, NANOS_PER_MS};
use serde_json::{json, Value};
use std::fmt;

/// Nanoseconds shown as milliseconds: exact, as an integer when whole.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ms(pub Nanos);

impl Ms {
    /// As a JSON number: an integer when whole, else a float.
    pub fn json(self) -> Value {
        if self.0 % NANOS_PER_MS == 0 {
            json!(self.0 / NANOS_PER_MS)
        } else {
            json!(self.0 as f64 / NANOS_PER_MS as f64)
        }
    }

    /// Rounded to whole milliseconds (Python's `{:.0f}`).
    pub fn rounded(self) -> String {
        format!("{:.0}", self.0 as f64 / NANOS_PER_MS as f64)
    }
}

impl fmt::Display for Ms {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::numbers::ms(self.0))
    }
}
