//! Reading one input as a stream: bytes in at any boundary, decompressed,
//! its format detected from content, fed to that format's reader.
//!
//! Both the browser's worker (slices of a `File`) and the CLI (reads of a
//! file) drive an [`Ingest`] the same way: [`Ingest::feed`] each chunk, then
//! [`Ingest::finish`]. Memory held here is bounded: a few bytes of magic,
//! at most [`SNIFF_LIMIT`] bytes of head while the format is unknown, and
//! the decoder's window.

use crate::decompress::{Compression, CorruptStream, Decoded, Decoder};
use crate::diagnostics::{Diagnostics, Position, Severity};
use crate::error::{Error, FormatError};
use crate::formats::{
    detect, Detection, Format, FormatId, FormatReader, Parsed, Prepared, Preparer, SniffInput, SNIFF_LIMIT,
};
pub use crate::model::InputInfo;
use crate::model::ReadCounts;

/// Bytes of an unrecognised input quoted in its error.
const UNRECOGNISED_EXCERPT: usize = 16;
/// The head's length at which detection first looks.
const FIRST_SNIFF: usize = 64;

/// An input read to its end: what is known of it, and what its reader produced.
#[derive(Debug)]
pub struct Input {
    /// Name, format, sizes, counts, diagnostics.
    pub info: InputInfo,
    /// What the format's reader produced, for reconciliation.
    pub parsed: Parsed,
}

/// Where an [`Ingest`] is, for progress displays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IngestProgress {
    /// Bytes fed so far (compressed).
    pub bytes: u64,
    /// Bytes after decompression so far.
    pub decompressed_bytes: u64,
    /// The compression, once known.
    pub compression: Option<Compression>,
    /// The format, once known.
    pub format: Option<FormatId>,
    /// Lines and events read so far.
    pub counts: ReadCounts,
    /// Diagnostics so far.
    pub diagnostics: u64,
}

enum Stage {
    Detecting(Vec<u8>),
    Reading(&'static dyn Format, Box<dyn FormatReader>),
}

/// Why reading stopped, before the input's name is attached.
enum Stop {
    Corrupt(CorruptStream),
    Format(FormatError),
    Unrecognised(Vec<u8>),
    /// Detection gave up on this format at this line and byte.
    TooLongToTell(&'static str, u64, u64),
    /// The compressed stream was cut before anything recognisable.
    Truncated,
}

impl From<CorruptStream> for Stop {
    fn from(e: CorruptStream) -> Self {
        Stop::Corrupt(e)
    }
}

/// Everything after the decoder, borrowed apart from it.
struct Sink {
    name: String,
    stage: Stage,
    /// The head's length at which detection next looks.
    sniff_at: usize,
    decompressed: u64,
    diags: Diagnostics,
    /// The reader keeps the input's every byte ([`Ingest::keep_source`]).
    keep_source: bool,
}

impl Sink {
    fn decoded(&mut self, bytes: &[u8]) -> Result<(), Stop> {
        self.decompressed += bytes.len() as u64;
        match &mut self.stage {
            Stage::Reading(_, reader) => reader.feed(bytes, &mut self.diags).map_err(Stop::Format),
            Stage::Detecting(head) => {
                head.extend_from_slice(bytes);
                // Sniffers look at the head as it reaches each power of two
                // (up to SNIFF_LIMIT): the same views at any chunk size, and
                // a head read over a few times, not once per chunk.
                while let Stage::Detecting(head) = &self.stage {
                    if head.len() < self.sniff_at {
                        break;
                    }
                    let at = self.sniff_at;
                    self.sniff_at = (at * 2).min(SNIFF_LIMIT.max(at + 1));
                    self.detect_in(at, false)?;
                }
                Ok(())
            }
        }
    }

    /// Detects the format from the whole head, at the end of the input.
    fn detect(&mut self, at_eof: bool) -> Result<(), Stop> {
        self.detect_in(usize::MAX, at_eof)
    }

    /// Detects the format from the head's first `limit` bytes (and at most
    /// [`SNIFF_LIMIT`]).
    fn detect_in(&mut self, limit: usize, at_eof: bool) -> Result<(), Stop> {
        let Stage::Detecting(head) = &mut self.stage else { return Ok(()) };
        let shown = &head[..head.len().min(SNIFF_LIMIT).min(limit)];
        let input = SniffInput { head: shown, at_eof: at_eof && shown.len() == head.len(), name: &self.name };
        match detect(input) {
            Detection::NeedMore => Ok(()),
            // Wait for a whole excerpt, so the error reads the same at any chunk size.
            Detection::Unrecognised if !at_eof && shown.len() < UNRECOGNISED_EXCERPT => Ok(()),
            Detection::Unrecognised => Err(Stop::Unrecognised(head[..head.len().min(UNRECOGNISED_EXCERPT)].to_vec())),
            Detection::GaveUp(format) => {
                let line = memchr::memchr_iter(b'\n', shown).count() as u64 + 1;
                Err(Stop::TooLongToTell(format.id().title(), line, shown.len() as u64))
            }
            Detection::Found(format) => {
                let head = std::mem::take(head);
                let mut reader = if self.keep_source { format.reader_keeping_source() } else { format.reader() };
                reader.feed(&head, &mut self.diags).map_err(Stop::Format)?;
                self.stage = Stage::Reading(format, reader);
                Ok(())
            }
        }
    }
}

/// Input bytes read before a reader is told the share they are of the
/// whole ([`FormatReader::expect`]): enough to extrapolate from.
pub const EXPECT_AFTER: u64 = 8 << 20;

/// The streaming reader of one input.
pub struct Ingest {
    bytes: u64,
    /// The input's whole size, while the reader has not been told its share.
    expected: Option<u64>,
    magic: Vec<u8>,
    decoder: Option<Decoder>,
    sink: Sink,
}

impl Ingest {
    /// Starts reading an input called `name` (the name is only a hint to detection).
    pub fn new(name: &str) -> Self {
        Ingest {
            bytes: 0,
            expected: None,
            magic: Vec::new(),
            decoder: None,
            sink: Sink {
                name: name.to_owned(),
                stage: Stage::Detecting(Vec::new()),
                sniff_at: FIRST_SNIFF,
                decompressed: 0,
                diags: Diagnostics::new(),
                keep_source: false,
            },
        }
    }

    /// Keeps the input's every byte, for [`Parsed::write_back`] and dumps
    /// (see [`Format::reader_keeping_source`]); call before the first feed.
    pub fn keep_source(&mut self) {
        self.sink.keep_source = true;
    }

    /// Says how big the whole input is (a file's size), so that its reader
    /// can size its lists once [`EXPECT_AFTER`] bytes are read.
    pub fn expect_bytes(&mut self, total: u64) {
        self.expected = Some(total);
    }

    /// Feeds the next chunk of the input.
    pub fn feed(&mut self, chunk: &[u8]) -> Result<(), Error> {
        self.bytes += chunk.len() as u64;
        let r = self.feed_inner(chunk);
        r.map_err(|stop| self.error(stop))?;
        self.tell_share();
        Ok(())
    }

    /// Once the format is known, for an input that is not compressed and
    /// whose reader can take chunks read ahead (lines, events): the pure
    /// function that reads a chunk ahead, for [`Ingest::feed_prepared`]. A
    /// caller with threads runs it on the next chunks while this one is
    /// read; the result is the same as feeding the chunks.
    pub fn preparer(&self) -> Option<Preparer> {
        match (&self.decoder, &self.sink.stage) {
            (Some(d), Stage::Reading(_, reader)) if d.codec() == Compression::None => reader.preparer(),
            _ => None,
        }
    }

    /// Feeds the next chunk of the input, with what [`Ingest::preparer`]'s
    /// function made of it: the same as [`Ingest::feed`] of the chunk,
    /// which it falls back to when what was prepared cannot be used.
    pub fn feed_prepared(&mut self, chunk: &[u8], prepared: &Prepared) -> Result<(), Error> {
        let plain = self.decoder.as_ref().is_some_and(|d| d.codec() == Compression::None);
        let Stage::Reading(_, reader) = &mut self.sink.stage else { return self.feed(chunk) };
        if !plain {
            return self.feed(chunk);
        }
        self.bytes += chunk.len() as u64;
        self.sink.decompressed += chunk.len() as u64;
        let r = reader.feed_prepared(chunk, prepared, &mut self.sink.diags);
        r.map_err(|e| self.error(Stop::Format(e)))?;
        self.tell_share();
        Ok(())
    }

    /// Tells the reader, once [`EXPECT_AFTER`] bytes are read, which share
    /// of the whole input that was.
    fn tell_share(&mut self) {
        if let (Some(total), Stage::Reading(_, reader)) = (self.expected, &mut self.sink.stage) {
            if self.bytes >= EXPECT_AFTER {
                self.expected = None;
                if self.bytes < total {
                    reader.expect(self.bytes as f64 / total as f64);
                }
            }
        }
    }

    fn feed_inner(&mut self, chunk: &[u8]) -> Result<(), Stop> {
        let sink = &mut self.sink;
        let r = match &mut self.decoder {
            Some(d) => d.push(chunk, &mut |b| sink.decoded(b)),
            None => {
                self.magic.extend_from_slice(chunk);
                let Some(codec) = Compression::sniff(&self.magic, false) else { return Ok(()) };
                let mut d = Decoder::new(codec);
                let magic = std::mem::take(&mut self.magic);
                let r = d.push(&magic, &mut |b| sink.decoded(b));
                self.decoder = Some(d);
                r
            }
        };
        self.note_damage();
        r
    }

    /// Reports the damage the decoder read through (`input.checksum`, at
    /// the damaged block's offset in the compressed input).
    fn note_damage(&mut self) {
        let Some(d) = &mut self.decoder else { return };
        for e in d.take_damage() {
            let at = Position::Byte(e.offset);
            self.sink.diags.report(Severity::Warning, "input.checksum", at, e.to_string());
        }
    }

    /// Progress so far.
    pub fn progress(&self) -> IngestProgress {
        let (format, counts) = match &self.sink.stage {
            Stage::Detecting(_) => (None, ReadCounts::default()),
            Stage::Reading(f, r) => (Some(f.id()), r.counts()),
        };
        IngestProgress {
            bytes: self.bytes,
            decompressed_bytes: self.sink.decompressed,
            compression: self.decoder.as_ref().map(Decoder::codec),
            format,
            counts,
            diagnostics: self.sink.diags.total(),
        }
    }

    /// Ends the input: flushes the decoder, settles detection, finishes the reader.
    pub fn finish(mut self) -> Result<Input, Error> {
        let r = self.finish_inner();
        match r {
            Ok((format, mut reader)) => {
                let mut diags = std::mem::take(&mut self.sink.diags);
                reader.end_of_input(&mut diags).map_err(|e| self.error(Stop::Format(e)))?;
                let counts = reader.counts();
                let parsed = reader.finish(&mut diags).map_err(|e| self.error(Stop::Format(e)))?;
                let info = InputInfo {
                    name: self.sink.name,
                    format: format.id(),
                    compression: self.decoder.as_ref().map_or(Compression::None, Decoder::codec),
                    bytes: self.bytes,
                    decompressed_bytes: self.sink.decompressed,
                    counts,
                    diagnostics: diags,
                };
                Ok(Input { info, parsed })
            }
            Err(stop) => Err(self.error(stop)),
        }
    }

    fn finish_inner(&mut self) -> Result<(&'static dyn Format, Box<dyn FormatReader>), Stop> {
        let sink = &mut self.sink;
        if self.decoder.is_none() {
            let codec = Compression::sniff(&self.magic, true).unwrap_or(Compression::None);
            let mut d = Decoder::new(codec);
            let magic = std::mem::take(&mut self.magic);
            let r = d.push(&magic, &mut |b| sink.decoded(b));
            self.decoder = Some(d);
            self.note_damage();
            r?;
        }
        let sink = &mut self.sink;
        let truncated = self.decoder.as_ref().filter(|d| d.finish() == Decoded::Truncated).map(Decoder::codec);
        if let Some(codec) = truncated {
            sink.diags.report(
                Severity::Warning,
                "input.truncated",
                Position::Byte(self.bytes),
                format!(
                    "truncated {codec} data after {} bytes: the file was cut short; everything before the cut was read",
                    self.bytes
                ),
            );
        }
        match sink.detect(true) {
            // Nothing recognisable before the cut: the cut is the error.
            Err(Stop::Unrecognised(_)) if truncated.is_some() => return Err(Stop::Truncated),
            r => r?,
        }
        match std::mem::replace(&mut sink.stage, Stage::Detecting(Vec::new())) {
            Stage::Reading(format, reader) => Ok((format, reader)),
            Stage::Detecting(_) if truncated.is_some() => Err(Stop::Truncated),
            Stage::Detecting(head) => Err(Stop::Unrecognised(head[..head.len().min(UNRECOGNISED_EXCERPT)].to_vec())),
        }
    }

    fn error(&self, stop: Stop) -> Error {
        let input = self.sink.name.clone();
        match stop {
            Stop::Corrupt(error) => Error::Corrupt { input, error },
            Stop::Format(error) => Error::Format { input, error },
            Stop::Unrecognised(head) => Error::Unrecognised { input, head },
            Stop::TooLongToTell(format, line, at) => {
                Error::TooLongToTell { input, limit: SNIFF_LIMIT, format, line, at }
            }
            Stop::Truncated => Error::Truncated {
                input,
                codec: self.decoder.as_ref().map_or(Compression::None, Decoder::codec).name(),
                after: self.bytes,
                decoded: self.sink.decompressed,
            },
        }
    }
}

/// Reads a whole in-memory input in chunks of `chunk` bytes (tests, small samples).
pub fn read_bytes(name: &str, data: &[u8], chunk: usize) -> Result<Input, Error> {
    read_chunks(Ingest::new(name), data, chunk)
}

/// [`read_bytes`], keeping the input's every byte ([`Ingest::keep_source`]).
pub fn read_bytes_keeping_source(name: &str, data: &[u8], chunk: usize) -> Result<Input, Error> {
    let mut ingest = Ingest::new(name);
    ingest.keep_source();
    read_chunks(ingest, data, chunk)
}

fn read_chunks(mut ingest: Ingest, data: &[u8], chunk: usize) -> Result<Input, Error> {
    for c in data.chunks(chunk.max(1)) {
        ingest.feed(c)?;
    }
    ingest.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_bytes_are_unrecognised_with_an_excerpt() {
        let data: Vec<u8> = (0..5000u32).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8).collect();
        let err = read_bytes("random.bin", &data, 7).unwrap_err();
        assert!(matches!(&err, Error::Unrecognised { head, .. } if head.len() == UNRECOGNISED_EXCERPT), "{err}");
        assert!(err.to_string().starts_with("random.bin: not a format longpole reads"));
    }

    #[test]
    fn an_empty_input_says_so() {
        let err = read_bytes("empty.log", b"", 1).unwrap_err();
        assert_eq!(err.to_string(), "empty.log: the file is empty");
    }

    #[test]
    fn a_compressed_input_is_read_through_its_decoder() {
        let data = std::fs::read(crate::test_support::corpus("distbuild/example.log")).unwrap();
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        std::io::Write::write_all(&mut gz, &data).unwrap();
        let gz = gz.finish().unwrap();
        for chunk in [1, 7, 4096] {
            let input = read_bytes("example.log.gz", &gz, chunk).unwrap().info;
            assert_eq!(input.compression, Compression::Gzip);
            assert_eq!(input.format, crate::formats::ya::distbuild::ID);
            assert_eq!(input.decompressed_bytes, data.len() as u64);
            assert_eq!(input.counts.lines, 23);
        }
        let cut = read_bytes("cut.log.gz", &gz[..gz.len() - 12], 4096).unwrap();
        assert_eq!(cut.info.diagnostics.count_of("input.truncated"), 1);
        let warning = &cut.info.diagnostics.kept()[0];
        assert!(warning.message.starts_with(&format!("truncated gzip data after {} bytes", gz.len() - 12)));
    }

    /// A bzip2 stream cut inside its first block decodes nothing: the cut
    /// is the error, never "the file is empty". So for zstd.
    #[test]
    fn a_compressed_input_cut_before_anything_decodes_says_truncated() {
        let data = std::fs::read(crate::test_support::corpus("distbuild/example.log")).unwrap();
        let mut bz = Vec::new();
        std::io::Read::read_to_end(&mut bzip2::read::BzEncoder::new(&data[..], bzip2::Compression::default()), &mut bz)
            .unwrap();
        let zst =
            std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples/evobench-sum_of_fibs.log.zstd")).unwrap();
        for (name, bytes, codec) in [("cut.log.bz2", &bz, "bzip2"), ("cut.log.zst", &zst, "zstd")] {
            for chunk in [1, 7, 4096] {
                let err = read_bytes(name, &bytes[..100], chunk).unwrap_err();
                assert!(
                    err.to_string().starts_with(&format!("{name}: truncated {codec} data after 100 bytes")),
                    "{err}"
                );
            }
        }
    }

    /// A first line longer than detection reads names the format it looked
    /// like and where detection gave up.
    #[test]
    fn an_over_long_first_line_names_the_format_it_looked_like() {
        let mut trace = b"[{\"name\":\"".to_vec();
        trace.resize(SNIFF_LIMIT + 1000, b'a');
        for chunk in [7, 4096, trace.len()] {
            let err = read_bytes("long.json", &trace, chunk).unwrap_err();
            assert_eq!(
                err.to_string(),
                "long.json: it looks like a Chrome trace, but line 1 is longer than the 64 KiB read to recognise a format; gave up at line 1, byte 65536"
            );
        }
        // A line of nothing in particular is no format at all.
        let err = read_bytes("x.txt", &vec![b'x'; SNIFF_LIMIT + 10], 4096).unwrap_err();
        assert!(err.to_string().starts_with("x.txt: not a format longpole reads"), "{err}");
    }
}
