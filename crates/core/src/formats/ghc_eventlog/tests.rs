use super::*;
use crate::ingest::{read_bytes, read_bytes_keeping_source};
use crate::test_support::corpus;

/// Every eventlog of the corpus, with its bytes.
fn corpus_logs() -> Vec<(String, Vec<u8>)> {
    let dir = corpus("ghc-eventlog");
    let mut logs: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .expect("the corpus's ghc-eventlog folder")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "eventlog"))
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap()))
        .collect();
    logs.sort();
    assert!(logs.len() >= 20, "expected the corpus's eventlogs, found {}", logs.len());
    logs
}

fn read(name: &str, bytes: &[u8], chunk: usize) -> (Eventlog, Vec<String>) {
    let input = read_bytes_keeping_source(name, bytes, chunk).unwrap();
    assert_eq!(input.info.format, crate::formats::ghc_eventlog::ID);
    let codes = input.info.diagnostics.kept().iter().map(|d| format!("{} {}", d.position, d.code)).collect();
    let Some(read) = input.parsed.into_read::<crate::formats::ghc_eventlog::ReadEventlog>() else {
        panic!("{name}: not read as an eventlog")
    };
    (read.source.expect("the events, kept"), codes)
}

#[test]
fn every_corpus_eventlog_round_trips_byte_for_byte_at_any_chunk_size() {
    for (name, bytes) in corpus_logs() {
        let whole = bytes.len().max(1);
        for chunk in [1, 7, 4096, whole] {
            let (log, _) = read(&name, &bytes, chunk);
            assert!(write(&log) == bytes, "{name} at chunk {chunk}: written bytes differ");
        }
    }
}

#[test]
fn event_counts_match_the_references() {
    for (name, bytes) in corpus_logs() {
        let Ok(reference) = std::fs::read_to_string(corpus(&format!("ghc-eventlog/{name}.reference"))) else {
            continue;
        };
        let (log, codes) = read(&name, &bytes, 4096);
        let listed = reference.split_once("\nEvents:\n").unwrap().1.lines().filter(|l| !l.is_empty()).count();
        assert_eq!(log.events.len(), listed, "{name}");
        assert!(log.ended, "{name}");
        assert!(codes.is_empty(), "{name}: {codes:?}");
    }
}

#[test]
fn a_cut_file_keeps_everything_before_the_cut() {
    let (full, _) = read("testlog.eventlog", &std::fs::read(corpus("ghc-eventlog/testlog.eventlog")).unwrap(), 4096);
    let part = std::fs::read(corpus("ghc-eventlog/testlog-part.eventlog")).unwrap();
    for chunk in [1, 7, 4096, part.len()] {
        let (log, codes) = read("testlog-part.eventlog", &part, chunk);
        assert_eq!(log.events.len(), 718);
        assert_eq!(log.events[..], full.events[..718]);
        assert!(!log.ended);
        assert_eq!(codes.len(), 1);
        assert!(codes[0].ends_with(" ghc-eventlog.truncated"), "{codes:?}");
        assert!(write(&log) == part);
    }
}

#[test]
fn events_carry_their_block_s_capability() {
    let bytes = std::fs::read(corpus("ghc-eventlog/hello-ghc-8.6.5.eventlog")).unwrap();
    let (log, _) = read("hello", &bytes, 4096);
    let markers: Vec<(u64, Option<u16>)> =
        log.events.iter().filter(|e| e.ty == 18).map(|e| (e.offset, e.cap)).collect();
    assert_eq!(markers, [(2075, Some(0)), (2519, None)]);
    assert!(log.events.iter().filter(|e| e.offset > 2075 && e.offset < 2519).all(|e| e.cap == Some(0)));
    assert!(log.events.iter().filter(|e| e.offset > 2519).all(|e| e.cap.is_none()));
}

#[test]
fn a_broken_header_is_an_error_naming_the_position() {
    let bytes = std::fs::read(corpus("ghc-eventlog/unicode.eventlog")).unwrap();
    let mut broken = bytes[..40].to_vec();
    broken[8..12].copy_from_slice(b"xxxx");
    let err = read_bytes("x.eventlog", &broken, 7).unwrap_err().to_string();
    assert!(err.contains("GHC eventlog") && err.contains("byte 8"), "{err}");
    let err = read_bytes("x.eventlog", &bytes[..30], 7).unwrap_err().to_string();
    assert!(err.contains("header ends"), "{err}");
}

#[test]
fn an_undeclared_event_type_ends_the_data_and_keeps_the_rest() {
    let bytes = std::fs::read(corpus("ghc-eventlog/unicode.eventlog")).unwrap();
    let (log, _) = read("u", &bytes, 4096);
    let at = log.events[3].offset as usize;
    let mut edited = bytes.clone();
    edited[at..at + 2].copy_from_slice(&999u16.to_be_bytes());
    let (log, codes) = read("u", &edited, 7);
    assert_eq!(log.events.len(), 3);
    assert_eq!(codes, [format!("byte {at} ghc-eventlog.undeclared-type")]);
    assert!(write(&log) == edited);
}

#[test]
fn events_larger_than_a_chunk_are_read_whole_at_any_cut() {
    let mut log = Eventlog::new(vec![
        EventType { id: 19, size: None, description: "User message".into(), extra: Vec::new() },
        EventType { id: 1, size: Some(4), description: "Run thread".into(), extra: Vec::new() },
    ]);
    log.push_block(0, Some(0));
    for i in 0..40u32 {
        let len = [0usize, 1, 4095, 4096, 60_000, 65_535][i as usize % 6];
        log.push(19, u64::from(i) * 10, &vec![b'a' + (i % 26) as u8; len]);
        log.push(1, u64::from(i) * 10 + 5, &i.to_be_bytes());
    }
    let bytes = write(&log);
    for chunk in [1000, 4096, 65_547, 70_000, bytes.len()] {
        let (read, codes) = read("big.eventlog", &bytes, chunk);
        assert!(codes.is_empty(), "{codes:?}");
        assert_eq!(read.events, log.events, "chunk {chunk}");
        assert!(write(&read) == bytes, "chunk {chunk}");
    }
}

#[test]
fn impossible_sizes_are_named_with_their_figures_at_any_chunk_size() {
    let bytes = std::fs::read(corpus("ghc-eventlog/unicode.eventlog")).unwrap();
    let etb = bytes.windows(4).position(|w| w == b"etb\0").unwrap() + 4;
    // An event type declaring a 4 GB description: one error, the same whatever the chunks.
    let mut huge = bytes.clone();
    huge[etb + 4..etb + 8].copy_from_slice(&0xFFFF_FFF0u32.to_be_bytes());
    let errors: Vec<String> =
        [1, 7, 4096, huge.len()].iter().map(|&c| read_bytes("h.eventlog", &huge, c).unwrap_err().to_string()).collect();
    assert!(errors[0].contains("event type 0 at byte 8 declares a description of 4294967280 bytes"), "{}", errors[0]);
    assert!(errors[0].contains(&format!("the file ends after {} bytes", huge.len())), "{}", errors[0]);
    assert!(errors.iter().all(|e| *e == errors[0]), "{errors:?}");
    // An event type declaring 32,767-byte events: the events before the first are kept.
    let mut big = bytes.clone();
    big[etb + 2..etb + 4].copy_from_slice(&32_767u16.to_be_bytes());
    let messages: Vec<Vec<String>> = [1, 7, 4096, big.len()]
        .iter()
        .map(|&c| {
            read_bytes("b.eventlog", &big, c)
                .unwrap()
                .info
                .diagnostics
                .kept()
                .iter()
                .map(|d| d.message.clone())
                .collect()
        })
        .collect();
    assert_eq!(messages[0].len(), 1);
    assert!(messages[0][0].contains("that declares 32767 bytes of payload"), "{:?}", messages[0]);
    assert!(messages.iter().all(|m| *m == messages[0]));
}

#[test]
fn analysis_keeps_no_event_and_builds_the_same_model_as_a_kept_read() {
    for (name, bytes) in corpus_logs() {
        for chunk in [1, 7, 4096, bytes.len().max(1)] {
            let lean = read_bytes(&name, &bytes, chunk).unwrap();
            let kept = read_bytes_keeping_source(&name, &bytes, chunk).unwrap();
            assert_eq!(lean.info.counts, kept.info.counts, "{name} at chunk {chunk}");
            assert!(lean.parsed.write_back().is_none(), "{name}: the source is not kept unless asked for");
            let (Some(lean), Some(kept)) = (
                lean.parsed.into_read::<crate::formats::ghc_eventlog::ReadEventlog>(),
                kept.parsed.into_read::<crate::formats::ghc_eventlog::ReadEventlog>(),
            ) else {
                panic!("{name}: not read as an eventlog")
            };
            assert!(lean.source.is_none());
            assert_eq!((lean.model, lean.run), (kept.model, kept.run), "{name} at chunk {chunk}");
        }
    }
}

#[test]
fn hot_events_read_as_their_whole_decoding_does() {
    use super::decode::{decode, decode_hot, Event, Hot};
    let mut checked = 0;
    for (name, bytes) in corpus_logs() {
        let (log, _) = read(&name, &bytes, 4096);
        for e in &log.events {
            let whole = match decode(&log, e).event {
                Event::CreateThread { thread } => Some(Hot::CreateThread(thread)),
                Event::RunThread { thread } => Some(Hot::RunThread(thread)),
                Event::StopThread { thread, .. } => Some(Hot::StopThread(thread)),
                Event::StartGc => Some(Hot::StartGc),
                Event::EndGc => Some(Hot::EndGc),
                _ => None,
            };
            assert_eq!(decode_hot(&log, e.ty, log.payload(e)), whole, "{name} at byte {}", e.offset);
            checked += usize::from(whole.is_some());
        }
    }
    assert!(checked > 10_000, "only {checked} hot events in the corpus");
}

#[test]
fn user_messages_and_markers_read_as_their_whole_decoding_does() {
    use super::decode::{decode, decode_text, Event};
    let mut checked = 0;
    for (name, bytes) in corpus_logs() {
        let (log, _) = read(&name, &bytes, 4096);
        for e in &log.events {
            let whole = match decode(&log, e).event {
                Event::UserMessage { message } => Some((message, false)),
                Event::UserMarker { marker } => Some((marker, true)),
                _ => None,
            };
            let text = decode_text(&log, e.ty, log.payload(e)).map(|(t, m)| (t.to_owned(), m));
            assert_eq!(text, whole, "{name} at byte {}", e.offset);
            checked += usize::from(whole.is_some());
        }
    }
    assert!(checked > 0, "no user message or marker in the corpus");
}
