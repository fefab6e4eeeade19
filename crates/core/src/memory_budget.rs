//! Whether an input's model will fit in the memory a reader may use.
//!
//! A browser tab gives WebAssembly at most 4 GiB, and a growing list that
//! doubles near the top fails before that. Rather than letting the tab die,
//! the reader projects its need from what it has read so far: the memory
//! grown since the run began, scaled from the bytes read to the whole
//! input. Once at least a sixteenth of the input is read, a projection over
//! the limit stops the run with the figures and the command that reads the
//! same file natively, where memory is the machine's.

use std::fmt;

/// What a WebAssembly reader may use: 3 GiB of the 4 GiB a tab can map, so
/// that the last doubling of a list still fits.
pub const WASM_LIMIT: u64 = 3 << 30;

/// The memory a run started with, and the most it may grow to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryBudget {
    /// Memory in use when the run began, bytes.
    pub baseline: u64,
    /// The most memory the run may end with, bytes.
    pub limit: u64,
}

/// A projection over the budget, with its figures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OverBudget {
    /// Bytes of input read.
    pub read: u64,
    /// Bytes of input in all.
    pub total: u64,
    /// Memory in use now, bytes.
    pub used: u64,
    /// Memory the whole input would need, projected, bytes.
    pub need: u64,
    /// The limit, bytes.
    pub limit: u64,
}

impl MemoryBudget {
    /// Checks, after `read` of `total` input bytes with `used` bytes of
    /// memory in use, that the whole input is projected to fit.
    pub fn check(&self, read: u64, total: u64, used: u64) -> Result<(), OverBudget> {
        if read == 0 || read.saturating_mul(16) < total {
            return Ok(());
        }
        let grown = used.saturating_sub(self.baseline) as u128;
        let need = self.baseline as u128 + grown * total.max(read) as u128 / read as u128;
        let need = u64::try_from(need).unwrap_or(u64::MAX);
        if need <= self.limit {
            Ok(())
        } else {
            Err(OverBudget { read, total, used, need, limit: self.limit })
        }
    }
}

/// What a tab would need for an input of `decompressed` bytes whose
/// format takes `per_byte` bytes of memory for each
/// ([`crate::formats::Format::tab_bytes_per_input_byte`]): a projection
/// before reading, to choose where to read (`longpole open`).
pub fn projected_need(decompressed: u64, per_byte: f64) -> u64 {
    // f64 to u64 saturates: an absurd size projects to u64::MAX, not a wrap.
    (decompressed as f64 * per_byte.max(0.0)) as u64
}

/// Bytes in MiB, as people read memory (a decimal below 10 MiB).
pub fn mib(bytes: u64) -> String {
    let m = bytes as f64 / f64::from(1 << 20);
    if m < 10.0 {
        format!("{m:.1} MiB")
    } else {
        format!("{m:.0} MiB")
    }
}

impl OverBudget {
    /// What the page says: the figures, and the CLI command for `files`.
    pub fn message(&self, files: &[String]) -> String {
        let quoted: Vec<String> = files.iter().map(|f| shell_quote(f)).collect();
        format!("{self}. Read it natively, where memory is the machine's: longpole analyze {}", quoted.join(" "))
    }
}

impl fmt::Display for OverBudget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "too big for this browser tab: after reading {} of {}, memory in use is {}, and the whole input would need about {}, over the tab's limit of {}; stopped before the tab runs out",
            mib(self.read),
            mib(self.total),
            mib(self.used),
            mib(self.need),
            mib(self.limit)
        )
    }
}

/// A file name as one shell word.
pub fn shell_quote(name: &str) -> String {
    if name.bytes().all(|b| b.is_ascii_alphanumeric() || b"._-+/=,@".contains(&b)) {
        name.to_owned()
    } else {
        format!("'{}'", name.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIB: u64 = 1 << 20;

    #[test]
    fn the_need_is_the_growth_so_far_scaled_to_the_whole_input() {
        let budget = MemoryBudget { baseline: 20 * MIB, limit: 1000 * MIB };
        // A tenth read, 60 MiB grown: the whole needs 20 + 600 MiB; fits.
        assert_eq!(budget.check(100 * MIB, 1000 * MIB, 80 * MIB), Ok(()));
        // 100 MiB grown: 20 + 1000 MiB, over.
        let over = budget.check(100 * MIB, 1000 * MIB, 120 * MIB).unwrap_err();
        assert_eq!(over.need, 1020 * MIB);
        assert_eq!(
            over.message(&["big log.txt".into()]),
            "too big for this browser tab: after reading 100 MiB of 1000 MiB, memory in use is 120 MiB, and the whole input would need about 1020 MiB, over the tab's limit of 1000 MiB; stopped before the tab runs out. Read it natively, where memory is the machine's: longpole analyze 'big log.txt'"
        );
    }

    #[test]
    fn a_projection_before_reading_scales_the_input_by_its_format() {
        assert_eq!(projected_need(1000 * MIB, 0.5), 500 * MIB);
        assert_eq!(projected_need(1000 * MIB, 2.7), 2700 * MIB);
        assert_eq!(projected_need(u64::MAX, 4.0), u64::MAX);
        assert_eq!(projected_need(MIB, -1.0), 0);
    }

    #[test]
    fn too_little_read_projects_nothing() {
        let budget = MemoryBudget { baseline: 0, limit: MIB };
        assert_eq!(budget.check(0, 1000, 500 * MIB), Ok(()));
        assert_eq!(budget.check(62, 1000, 500 * MIB), Ok(()));
        assert!(budget.check(63, 1000, 500 * MIB).is_err());
    }
}
