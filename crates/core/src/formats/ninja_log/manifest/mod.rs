//! ninja's manifest (`build.ninja` and the files it includes): the build
//! graph whose edges the `.ninja_log` timed.
//!
//! **Who writes it.** CMake's and Meson's Ninja generators, GN (Chromium),
//! Soong/Kati (Android), or a person. ninja reads it at the start of every
//! build (`src/manifest_parser.cc`, `src/lexer.in.cc`).
//!
//! **A statement.**
//!
//! ```text
//! cflags = -O2                          a variable at file level
//! rule cc                               a rule, its bindings indented
//!   command = gcc $cflags -c $in -o $out
//! build obj/a.o | obj/a.d: cc a.c | gen/v.h || gen/stamp
//! ^ outs  ^ implicit out   ^ rule ^ explicit ^ implicit ^ order-only inputs
//!   cflags = -O0                        shadows the file's value for this edge
//! ```
//!
//! Also `pool`, `default`, `include` (same scope), `subninja` (a scope of
//! its own), `|@` validations, and `$` escapes (see [`lexer`]).
//!
//! **What is read.** Every statement, its paths and bindings as unevaluated
//! strings ([`statement::Statement`]); comments and blank lines are not
//! kept. A file is recognised by content (a run of statements that parse,
//! one of them a `rule`, `build`, `pool`, `include`, `subninja` or
//! `ninja_required_version`), so a `rules.ninja` is one too. Evaluating
//! (variables, scopes, includes) waits until all files given together are
//! read ([`eval`]).
//!
//! **Caveats.** A statement ninja would refuse is a diagnostic with its line
//! and bytes, and is skipped (ninja stops at the first).

pub mod eval;
pub mod lexer;
pub mod statement;

use crate::diagnostics::{Diagnostics, Position, Severity};
use crate::error::{quote_bytes, FormatError};
use crate::formats::{Format, FormatId, FormatReader, Parsed, ReadCounts, Sniff, SniffInput};
use crate::lines::LineSplitter;
use statement::{Located, Statement};

/// This format's id: a ninja manifest.
pub const ID: FormatId = FormatId::new("ninja-manifest", "ninja manifest (build.ninja)");

/// One manifest file, read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Manifest {
    /// Its statements, in file order.
    pub statements: Vec<Located>,
}

/// The ninja manifest format.
pub struct NinjaManifestFormat;

/// Statements a sniffer reads before it decides.
const SNIFF_STATEMENTS: usize = 8;

impl Format for NinjaManifestFormat {
    fn id(&self) -> FormatId {
        ID
    }

    /// Yes when the first statements (comments and blank lines aside) all
    /// parse and one of them is a `rule`, `build`, `pool`, `include`,
    /// `subninja` or `ninja_required_version`.
    fn sniff(&self, input: SniffInput<'_>) -> Sniff {
        let mut seen = 0;
        let mut logical: Vec<u8> = Vec::new();
        for line in input.head.split_inclusive(|&b| b == b'\n') {
            if !line.ends_with(b"\n") && !input.at_eof {
                // A cut line says no when it cannot start a statement, or
                // is one word longer than any keyword or variable name.
                let cut = if logical.is_empty() { line } else { &logical[..] };
                let word = cut.iter().take_while(|&&b| ident_byte(b)).count();
                let starts = cut.first().is_none_or(|&b| ident_byte(b) || b == b' ' || b == b'#');
                if !starts || (word == cut.len() && word > LONGEST_WORD) {
                    return Sniff::No;
                }
                break;
            }
            let line = trim_eol(line);
            if logical.is_empty() && is_comment(line) {
                continue;
            }
            logical.extend_from_slice(line);
            if continues(line) {
                logical.push(b'\n');
                continue;
            }
            let line = std::mem::take(&mut logical);
            if is_blank(&line) {
                continue;
            }
            // Indented bindings follow a rule, pool or build, which is a yes.
            let ok = !line.starts_with(b" ")
                && match statement::statement(&line) {
                    Ok(Statement::Binding(b)) if b.name == "ninja_required_version" => return Sniff::Yes,
                    Ok(Statement::Binding(_)) => true,
                    Ok(_) => return Sniff::Yes,
                    Err(_) => false,
                };
            seen += 1;
            if !ok || seen >= SNIFF_STATEMENTS {
                return Sniff::No;
            }
        }
        if input.at_eof {
            Sniff::No
        } else {
            Sniff::NeedMore
        }
    }

    fn reader(&self) -> Box<dyn FormatReader> {
        Box::new(Reader::default())
    }
    /// Measured in a tab (30 MB of manifests, log and deps: 183 MB).
    fn tab_bytes_per_input_byte(&self) -> f64 {
        6.5
    }
}

/// Longer than this, a word that starts a statement is no keyword or name.
const LONGEST_WORD: usize = 256;

fn ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-')
}

fn trim_eol(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

fn is_blank(line: &[u8]) -> bool {
    line.iter().all(|&b| b == b' ')
}

fn is_comment(line: &[u8]) -> bool {
    line.iter().find(|&&b| b != b' ') == Some(&b'#')
}

/// Whether `line` ends in a `$` that escapes its newline (an odd run of `$`).
fn continues(line: &[u8]) -> bool {
    line.iter().rev().take_while(|&&b| b == b'$').count() % 2 == 1
}

#[derive(Default)]
struct Reader {
    lines: LineSplitter,
    manifest: Manifest,
    /// The logical line being joined, and its first line's number.
    pending: Vec<u8>,
    pending_line: u64,
    /// The statement whose indented bindings follow (a rule, pool or build).
    block: Option<usize>,
}

impl Reader {
    fn line(&mut self, no: u64, line: &[u8], diags: &mut Diagnostics) {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if self.pending.is_empty() {
            if is_comment(line) {
                return;
            }
            self.pending_line = no;
        }
        self.pending.extend_from_slice(line);
        if continues(line) {
            self.pending.push(b'\n');
            return;
        }
        let logical = std::mem::take(&mut self.pending);
        self.logical(&logical, diags);
        self.pending = logical;
        self.pending.clear();
    }

    fn logical(&mut self, line: &[u8], diags: &mut Diagnostics) {
        let no = self.pending_line;
        if is_blank(line) {
            self.block = None;
            return;
        }
        let failed = |diags: &mut Diagnostics, e: lexer::LexError| {
            let shown = &line[e.at.min(line.len())..];
            diags.report(
                Severity::Warning,
                "ninja-manifest.syntax",
                Position::Line(no),
                format!(
                    "{} at byte {} of the statement, at {}; the statement is skipped (ninja would stop here)",
                    e.message,
                    e.at,
                    quote_bytes(&shown[..shown.len().min(60)])
                ),
            );
        };
        if line.starts_with(b" ") {
            let bound = match statement::binding(line) {
                Ok(b) => b,
                Err(e) => return failed(diags, e),
            };
            let target = self.block.and_then(|i| self.manifest.statements.get_mut(i));
            match target.map(|l| &mut l.statement) {
                Some(
                    Statement::Rule { bindings, .. }
                    | Statement::Pool { bindings, .. }
                    | Statement::Build { bindings, .. },
                ) => bindings.push(bound),
                _ => diags.report(
                    Severity::Warning,
                    "ninja-manifest.indent",
                    Position::Line(no),
                    format!("unexpected indent: `{}` follows no rule, pool or build; skipped", bound.name),
                ),
            }
            return;
        }
        match statement::statement(line) {
            Ok(statement) => {
                let opens =
                    matches!(statement, Statement::Rule { .. } | Statement::Pool { .. } | Statement::Build { .. });
                self.block = opens.then_some(self.manifest.statements.len());
                self.manifest.statements.push(Located { line: no, statement });
            }
            Err(e) => {
                self.block = None;
                failed(diags, e)
            }
        }
    }
}

impl FormatReader for Reader {
    fn feed(&mut self, chunk: &[u8], diags: &mut Diagnostics) -> Result<(), FormatError> {
        let mut lines = std::mem::take(&mut self.lines);
        lines.feed(chunk, |no, line| {
            self.line(no, line, diags);
            Ok::<(), FormatError>(())
        })?;
        self.lines = lines;
        Ok(())
    }

    fn end_of_input(&mut self, diags: &mut Diagnostics) -> Result<(), FormatError> {
        let mut lines = std::mem::take(&mut self.lines);
        lines.finish(|no, line| {
            self.line(no, line, diags);
            Ok::<(), FormatError>(())
        })?;
        self.lines = lines;
        if !self.pending.is_empty() {
            // The file ends on a `$` newline: the statement ends there.
            let logical = std::mem::take(&mut self.pending);
            self.logical(&logical, diags);
        }
        Ok(())
    }

    fn finish(mut self: Box<Self>, diags: &mut Diagnostics) -> Result<Parsed, FormatError> {
        self.end_of_input(diags)?;
        Ok(Parsed::NinjaManifest(Box::new(std::mem::take(&mut self.manifest))))
    }

    fn counts(&self) -> ReadCounts {
        ReadCounts { lines: self.lines.lines(), events: self.manifest.statements.len() as u64 }
    }
}

#[cfg(test)]
mod tests;
