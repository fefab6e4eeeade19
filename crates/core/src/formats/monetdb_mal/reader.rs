//! The chunked reader: lines → objects → events and heartbeats.

use super::json::{RawObject, RawVar};
use super::objects::{ObjectSplitter, Piece};
use super::trace::{Generation, Heartbeat, MalEvent, MalTrace, State, VarName, VarUse};
use crate::diagnostics::{Diagnostics, Position, Severity};
use crate::error::FormatError;
use crate::formats::{FormatReader, Parsed, ReadCounts};
use crate::lines::LineSplitter;
use std::borrow::Cow;

/// The format's title in errors.
const TITLE: &str = "MonetDB MAL trace";

/// Reads a trace fed in chunks cut anywhere.
#[derive(Default)]
pub struct Reader {
    lines: LineSplitter,
    objects: Objects,
}

/// Lines to objects to events.
#[derive(Default)]
struct Objects {
    splitter: ObjectSplitter,
    trace: MalTrace,
    /// Offset of the next line's first byte.
    offset: u64,
    pieces: Vec<Piece>,
    reported_unknown: bool,
}

impl FormatReader for Reader {
    fn feed(&mut self, chunk: &[u8], diags: &mut Diagnostics) -> Result<(), FormatError> {
        let raw = &mut self.objects.trace.raw;
        if let Some(at) = memchr::memchr(0, chunk) {
            let pos = raw.len() + at;
            return Err(FormatError::new(
                TITLE,
                Position::Byte(pos as u64),
                "a NUL byte: this is binary data, no longer a JSON trace",
                &chunk[at..],
            ));
        }
        raw.extend_from_slice(chunk);
        let Reader { lines, objects } = self;
        lines
            .feed::<()>(chunk, |no, line| {
                objects.line(no, line, 1, diags);
                Ok(())
            })
            .ok();
        Ok(())
    }

    fn end_of_input(&mut self, diags: &mut Diagnostics) -> Result<(), FormatError> {
        let Reader { lines, objects } = self;
        lines
            .finish::<()>(|no, line| {
                objects.line(no, line, 0, diags);
                Ok(())
            })
            .ok();
        let end = objects.trace.raw.len() as u64;
        objects.pieces.extend(objects.splitter.finish(end));
        objects.take_pieces(diags);
        Ok(())
    }

    fn finish(mut self: Box<Self>, diags: &mut Diagnostics) -> Result<Parsed, FormatError> {
        // A no-op when the ingest already called it.
        self.end_of_input(diags)?;
        let trace = &mut self.objects.trace;
        if trace.events.is_empty() && trace.heartbeats.is_empty() {
            diags.report(Severity::Warning, "mal.empty", Position::Whole, "the trace has no profiler events");
        }
        Ok(Parsed::MonetdbMal(Box::new(std::mem::take(trace))))
    }

    fn counts(&self) -> ReadCounts {
        let trace = &self.objects.trace;
        ReadCounts { lines: self.lines.lines(), events: (trace.events.len() + trace.heartbeats.len()) as u64 }
    }
}

impl Objects {
    /// One line (`newline` is 1 when a newline follows it). A whole object on
    /// its own line, the server's way, is parsed straight away; anything else
    /// goes through the [`ObjectSplitter`].
    fn line(&mut self, no: u64, line: &[u8], newline: u64, diags: &mut Diagnostics) {
        let start = self.offset;
        self.offset += line.len() as u64 + newline;
        if !self.splitter.is_open() && line.first() == Some(&b'{') && line.trim_ascii_end().last() == Some(&b'}') {
            if let Ok(text) = std::str::from_utf8(line) {
                if let Ok(o) = serde_json::from_str::<RawObject>(text) {
                    let end = start + line.trim_ascii_end().len() as u64;
                    return self.object(o, no, start..end, line.as_ptr() as usize, diags);
                }
            }
        }
        self.splitter.line(no, start, line, &mut self.pieces);
        if !self.pieces.is_empty() {
            self.take_pieces(diags);
        }
    }

    fn take_pieces(&mut self, diags: &mut Diagnostics) {
        let raw = std::mem::take(&mut self.trace.raw);
        for piece in std::mem::take(&mut self.pieces) {
            match piece {
                Piece::Nothing => {}
                Piece::Broken { line, reason, .. } => self.reject(line, reason, diags),
                Piece::Object { start, end, line } => {
                    let text = &raw[start as usize..end as usize];
                    match serde_json::from_slice::<RawObject>(text) {
                        Ok(o) => self.object(o, line, start..end, text.as_ptr() as usize, diags),
                        Err(e) => {
                            let reason = format!("not valid JSON ({e})");
                            self.reject(line, &reason, diags)
                        }
                    }
                }
            }
        }
        self.trace.raw = raw;
    }

    fn reject(&mut self, line: u64, reason: &str, diags: &mut Diagnostics) {
        self.trace.rejected += 1;
        diags.report(
            Severity::Warning,
            "mal.W001",
            Position::Line(line),
            format!("W001 Ignoring object that contains errors: {reason}"),
        );
    }

    /// One parsed object whose text starts at stream offset `bytes.start`
    /// and at address `base` (for names borrowed from the text).
    fn object(
        &mut self,
        o: RawObject<'_>,
        line: u64,
        bytes: std::ops::Range<u64>,
        base: usize,
        diags: &mut Diagnostics,
    ) {
        let source = o.source.as_deref();
        let heartbeat = source == Some("heartbeat")
            || (source.is_none() && o.pc.is_none() && (o.state.as_deref() == Some("ping") || o.cpuload.is_some()));
        if heartbeat {
            let session = o.session.as_deref().map(|s| self.trace.strings.intern(s));
            self.trace.heartbeats.push(Heartbeat {
                line,
                session,
                clk: o.clk,
                ctime: o.ctime,
                rss: o.rss,
                nvcsw: o.nvcsw,
                cpuload: o.cpuload.unwrap_or_default().iter().filter_map(|c| c.0).collect(),
            });
            return;
        }
        let trace = source == Some("trace") || (source.is_none() && (o.pc.is_some() || o.phase.is_some()));
        if !trace {
            self.trace.unknown += 1;
            if !self.reported_unknown {
                self.reported_unknown = true;
                diags.report(
                    Severity::Info,
                    "mal.unknown-object",
                    Position::Line(line),
                    "an object that is neither an instruction event nor a heartbeat is kept but not interpreted (reported once)",
                );
            }
            return;
        }
        let generation = if o.phase.is_some() || o.sessionid.is_some() {
            Generation::Sep2022
        } else if o.args.is_some() || o.program.is_some() || o.mclk.is_some() {
            Generation::Jun2020
        } else {
            Generation::Y2018
        };
        let Some(session) = o.session.as_deref().or(o.sessionid.as_deref()) else {
            return self.reject(line, "the event has no session", diags);
        };
        if o.tag.is_none() {
            return self.reject(line, "the event has no tag", diags);
        }
        let strings = &mut self.trace.strings;
        let session = strings.intern(session);
        let (function, instruction) = match generation {
            Generation::Y2018 => (o.function.as_deref(), o.instruction.as_deref()),
            _ => (o.program.as_deref(), o.function.as_deref()),
        };
        let module_text = o.module.as_deref().unwrap_or("");
        let instruction_text = instruction.unwrap_or("");
        let module = strings.intern(module_text);
        let instruction = strings.intern(instruction_text);
        let function = strings.intern(function.unwrap_or(""));
        let operator = o.operator.as_deref().map(|s| strings.intern(s));
        let state = match (generation, o.state.as_deref()) {
            (_, Some("start")) => State::Start,
            (_, Some("done")) => State::Done,
            (_, Some("pause")) => State::Pause,
            (Generation::Sep2022, _) => State::Once,
            _ => State::Other,
        };
        let phase = o.phase.as_deref().filter(|p| *p != "mal_engine").map(|p| strings.intern(p));
        let (time, epoch) = match generation {
            Generation::Y2018 => o.ctime.map(|t| (Some(t), true)).unwrap_or((o.clk, false)),
            Generation::Jun2020 => o.clk.map(|t| (Some(t), true)).unwrap_or((o.mclk, false)),
            Generation::Sep2022 => (o.clk, false),
        };
        let label = match (&o.short, &o.operator, &o.phase) {
            (Some(short), _, _) => strings.intern(short),
            (None, _, Some(p)) if p != "mal_engine" => strings.intern(p),
            (None, Some(op), _) => {
                strings.intern(&format!("{op} {}", o.program.as_deref().unwrap_or(instruction_text)))
            }
            (None, None, _) if module_text.is_empty() && instruction_text.is_empty() => {
                strings.intern("(no instruction)")
            }
            (None, None, _) => strings.intern(&format!("{module_text}.{instruction_text}")),
        };
        let defines = match generation {
            Generation::Y2018 => o.short.as_deref().is_some_and(|s| s.starts_with("function")),
            _ => o.operator.as_deref() == Some("function"),
        };
        let version = o.version.as_deref().map(|v| strings.intern(v));
        let vars_from = self.trace.vars.len() as u32;
        // Values are needed only to pair remote plans and to find the SQL text.
        let keep_values =
            matches!((module_text, instruction_text), ("remote", "register_supervisor") | ("querylog", "define"));
        let var = |v: &RawVar, ret: bool, strings: &mut crate::intern::Interner| -> Option<VarUse> {
            let name = match v.name.as_ref().or(v.var.as_ref())? {
                Cow::Borrowed(n) => VarName::Raw(bytes.start + (n.as_ptr() as usize - base) as u64, n.len() as u32),
                Cow::Owned(n) => VarName::Interned(strings.intern(n)),
            };
            Some(VarUse {
                name,
                index: v.index.or(v.ret).or(v.arg),
                ret,
                constant: v.constant == Some(1),
                eol: v.eol == Some(1),
                value: v.value.as_ref().filter(|_| keep_values).map(|s| strings.intern(&s.python_str())),
            })
        };
        let mut unnamed = false;
        let mut uses = Vec::new();
        for (list, ret) in [(&o.ret, Some(true)), (&o.arg, Some(false)), (&o.args, None)] {
            for v in list.iter().flatten() {
                let is_ret = ret.unwrap_or(v.ret.is_some());
                match var(v, is_ret, strings) {
                    Some(u) => uses.push(u),
                    None => unnamed = true,
                }
            }
        }
        if unnamed {
            diags.report(
                Severity::Warning,
                "mal.unnamed-variable",
                Position::Line(line),
                "a variable without a name is left out (mal_analytics stops with \"Unnamed variable\")",
            );
        }
        let query = if module_text == "querylog" && instruction_text == "define" {
            match generation {
                Generation::Y2018 => o.short.as_deref().and_then(query_from_short),
                _ => uses.iter().find(|u| !u.ret && u.index == Some(1)).and_then(|u| u.value).map(|v| {
                    let text = strings.name(v);
                    let text = text.strip_prefix('"').and_then(|t| t.strip_suffix('"')).unwrap_or(text);
                    text.to_owned()
                }),
            }
        } else {
            o.query.as_deref().map(str::to_owned)
        };
        let query = query.map(|q| strings.intern(&q));
        self.trace.vars.extend(uses);
        let vars = vars_from..self.trace.vars.len() as u32;
        let prereq_from = self.trace.prereqs.len() as u32;
        self.trace.prereqs.extend(o.prereq.iter().flatten().map(|p| p.int().unwrap_or(-1)));
        let prereq = prereq_from..self.trace.prereqs.len() as u32;
        self.trace.events.push(MalEvent {
            line,
            bytes,
            generation,
            session,
            tag: o.tag,
            pc: o.pc,
            state,
            phase,
            time,
            epoch,
            thread: o.thread,
            module,
            instruction,
            function,
            operator,
            usec: o.usec,
            rss: o.rss,
            size: o.size,
            version,
            label,
            defines,
            query,
            prereq,
            vars,
        });
    }
}

/// The SQL text of a 2018 `querylog.define` from its short statement, as
/// mal_analytics scrapes it: `define(<text>, <pipe>, <n>)`, the last two
/// arguments cut at the last two commas, the quotes removed.
pub fn query_from_short(short: &str) -> Option<String> {
    // The regular expression `^define\((.+)\)`: `.` stops at a newline.
    let first_line = short.split('\n').next().unwrap_or("");
    let inner = first_line.strip_prefix("define(")?;
    let args = &inner[..inner.rfind(')')?];
    if args.is_empty() {
        return None;
    }
    // Python's `rfind` gives -1 when there is no comma, and `[:-1]` then
    // drops the last character.
    let before_last_two = args.rfind(',').and_then(|last| args[..last].rfind(','));
    let end = before_last_two.unwrap_or_else(|| args.char_indices().next_back().map_or(0, |(i, _)| i));
    let text = args[..end].trim();
    let mut chars = text.chars();
    chars.next();
    chars.next_back();
    Some(chars.as_str().to_owned())
}

#[cfg(test)]
mod tests {
    use super::query_from_short;

    #[test]
    fn query_text_is_scraped_as_mal_analytics_does() {
        assert_eq!(
            query_from_short("define( \"select 1, 2;\", \"default_pipe\", 149)").as_deref(),
            Some("select 1, 2;")
        );
        assert_eq!(query_from_short("pack(1)"), None);
    }
}
