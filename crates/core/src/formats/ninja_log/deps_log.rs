//! ninja's deps log (`.ninja_deps`): the dependencies each edge discovered
//! while it ran (a compiler's headers, from its depfile or `/showIncludes`).
//!
//! **Who writes it.** ninja, in the build directory, for edges with
//! `deps = gcc` or `deps = msvc` (`src/deps_log.cc`).
//!
//! **Layout.** The text `# ninjadeps\n`, a 4-byte version (3 or 4), then
//! records, every integer 4 bytes in the writer's byte order (little-endian
//! on every machine ninja is built for):
//!
//! ```text
//! size | 0x80000000  out-id  mtime  in-id in-id …   a deps record (mtime: 4 bytes in v3, 8 in v4)
//! size             path… NUL-padded to 4  ~id       a path record: node `id` is the n-th path
//! ```
//!
//! `size` counts the bytes after it (a multiple of 4, under 512 KiB). A
//! later deps record of an output replaces an earlier one (ninja appends
//! and recompacts).
//!
//! **What is read.** Every path and every output's latest inputs. A record
//! that ninja would take for corruption (a bad size or checksum, an id not
//! yet defined, a cut last record) ends the reading with a diagnostic at
//! its byte, as ninja stops there too; what came before is kept.

use super::canon::canonical;
use crate::diagnostics::{Diagnostics, Position, Severity};
use crate::error::FormatError;
use crate::formats::{Format, FormatId, FormatReader, Parsed, ReadCounts, Sniff, SniffInput};
use crate::hash::FastMap;

/// This format's id: ninja's deps log.
pub const ID: FormatId = FormatId::new("ninja-deps", "ninja deps log (.ninja_deps)");

const SIGNATURE: &[u8] = b"# ninjadeps\n";
/// ninja's `kMaxRecordSize`.
const MAX_RECORD: u32 = (1 << 19) - 1;

/// A deps log, read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DepsLog {
    /// The header's version (3 or 4).
    pub version: u32,
    /// Every path, by id, canonical.
    pub paths: Vec<String>,
    /// Each output's latest inputs: where they lie in `inputs`.
    deps: FastMap<u32, (u32, u32)>,
    inputs: Vec<u32>,
    /// Deps records read (replaced ones too).
    pub records: u64,
}

impl DepsLog {
    /// The inputs (path ids) recorded for the output `id`, if any.
    pub fn deps_of(&self, id: u32) -> Option<&[u32]> {
        self.deps.get(&id).map(|&(at, n)| &self.inputs[at as usize..(at + n) as usize])
    }

    /// The outputs that have inputs recorded, by path id, in id order.
    pub fn outputs(&self) -> Vec<u32> {
        let mut v: Vec<u32> = self.deps.keys().copied().collect();
        v.sort_unstable();
        v
    }
}

/// The deps log format.
pub struct NinjaDepsFormat;

impl Format for NinjaDepsFormat {
    fn id(&self) -> FormatId {
        ID
    }

    /// Yes when the input starts with `# ninjadeps\n`.
    fn sniff(&self, input: SniffInput<'_>) -> Sniff {
        input.starts_with(SIGNATURE)
    }

    fn reader(&self) -> Box<dyn FormatReader> {
        Box::new(Reader::default())
    }
}

#[derive(Default)]
struct Reader {
    buf: Vec<u8>,
    /// Offset of `buf[0]` in the stream.
    offset: u64,
    header: bool,
    stopped: bool,
    log: DepsLog,
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

impl Reader {
    fn stop(&mut self, at: usize, message: String, diags: &mut Diagnostics) {
        diags.report(
            Severity::Warning,
            "ninja-deps.corrupt",
            Position::Byte(self.offset + at as u64),
            format!("{message}; ninja stops reading here, and so does longpole"),
        );
        self.stopped = true;
    }

    /// Reads the whole records in `buf`; returns the bytes consumed.
    fn records(&mut self, diags: &mut Diagnostics) -> Result<usize, FormatError> {
        let mut at = 0;
        if !self.header {
            if self.buf.len() < SIGNATURE.len() + 4 {
                return Ok(0);
            }
            let version = u32_at(&self.buf, SIGNATURE.len());
            if !(3..=4).contains(&version) {
                return Err(FormatError::new(
                    "ninja deps log",
                    Position::Byte(SIGNATURE.len() as u64),
                    format!("version {version}: ninja writes 3 and 4 (older logs it discards)"),
                    &self.buf[SIGNATURE.len()..SIGNATURE.len() + 4],
                ));
            }
            self.log.version = version;
            self.header = true;
            at = SIGNATURE.len() + 4;
        }
        let mtime = if self.log.version == 4 { 8 } else { 4 };
        while !self.stopped && at + 4 <= self.buf.len() {
            let head = u32_at(&self.buf, at);
            let (is_deps, size) = (head & 0x8000_0000 != 0, head & 0x7fff_ffff);
            if size > MAX_RECORD || size % 4 != 0 || size < 4 {
                self.stop(at, format!("a record of {size} bytes (a multiple of 4 up to {MAX_RECORD})"), diags);
                break;
            }
            let end = at + 4 + size as usize;
            if end > self.buf.len() {
                break;
            }
            let body = &self.buf[at + 4..end];
            if is_deps {
                if body.len() < 4 + mtime {
                    self.stop(at, format!("a deps record of {size} bytes, too short for its output and mtime"), diags);
                    break;
                }
                let out = u32_at(body, 0);
                let ids: Vec<u32> = body[4 + mtime..].chunks_exact(4).map(|c| u32_at(c, 0)).collect();
                let known = self.log.paths.len() as u32;
                if let Some(bad) = std::iter::once(out).chain(ids.iter().copied()).find(|&i| i >= known) {
                    self.stop(at, format!("a deps record names node {bad}, but only {known} paths are defined"), diags);
                    break;
                }
                let start = self.log.inputs.len() as u32;
                self.log.inputs.extend_from_slice(&ids);
                self.log.deps.insert(out, (start, ids.len() as u32));
                self.log.records += 1;
            } else {
                let id = self.log.paths.len() as u32;
                let checksum = u32_at(body, body.len() - 4);
                if checksum != !id {
                    self.stop(at, format!("path record {id} has checksum {checksum:#x}, not {:#x}", !id), diags);
                    break;
                }
                let name = &body[..body.len() - 4];
                let name = &name[..name.len() - name.iter().rev().take(3).take_while(|&&b| b == 0).count()];
                self.log.paths.push(canonical(&String::from_utf8_lossy(name)));
            }
            at = end;
        }
        Ok(at)
    }
}

impl FormatReader for Reader {
    fn feed(&mut self, chunk: &[u8], diags: &mut Diagnostics) -> Result<(), FormatError> {
        if self.stopped {
            return Ok(());
        }
        self.buf.extend_from_slice(chunk);
        let used = self.records(diags)?;
        self.buf.drain(..used);
        self.offset += used as u64;
        Ok(())
    }

    fn finish(mut self: Box<Self>, diags: &mut Diagnostics) -> Result<Parsed, FormatError> {
        if !self.header {
            return Err(FormatError::new(
                "ninja deps log",
                Position::Byte(0),
                "the input ends inside its header",
                &self.buf,
            ));
        }
        if !self.stopped && !self.buf.is_empty() {
            let n = self.buf.len();
            diags.report(
                Severity::Warning,
                "ninja-deps.cut",
                Position::Byte(self.offset),
                format!("the last record is cut ({n} bytes of it); ninja drops it too"),
            );
        }
        Ok(Parsed::NinjaDeps(Box::new(std::mem::take(&mut self.log))))
    }

    fn counts(&self) -> ReadCounts {
        ReadCounts { lines: 0, events: self.log.paths.len() as u64 + self.log.records }
    }
}

/// Writes a deps log of `version` (3 or 4): `paths`, then each output's
/// inputs (path ids), as ninja lays them out. For tests and benchmarks.
pub fn write(version: u32, paths: &[&str], deps: &[(u32, &[u32])]) -> Vec<u8> {
    let mut out = SIGNATURE.to_vec();
    out.extend_from_slice(&version.to_le_bytes());
    for (id, p) in paths.iter().enumerate() {
        let pad = (4 - p.len() % 4) % 4;
        out.extend_from_slice(&((p.len() + pad + 4) as u32).to_le_bytes());
        out.extend_from_slice(p.as_bytes());
        out.extend(std::iter::repeat_n(0u8, pad));
        out.extend_from_slice(&(!(id as u32)).to_le_bytes());
    }
    let mtime = if version == 4 { 8 } else { 4 };
    for (o, ins) in deps {
        out.extend_from_slice(&((4 + mtime + 4 * ins.len()) as u32 | 0x8000_0000).to_le_bytes());
        out.extend_from_slice(&o.to_le_bytes());
        out.extend(std::iter::repeat_n(7u8, mtime));
        for i in *ins {
            out.extend_from_slice(&i.to_le_bytes());
        }
    }
    out
}

#[cfg(test)]
mod tests;
