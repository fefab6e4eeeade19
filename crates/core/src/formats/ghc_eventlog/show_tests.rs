//! `show` against ghc-events' own output, and decode/encode round trips.

use proptest::prelude::*;
use proptest::strategy::Union;

use super::decode::{decode, encode, Decoded, Event};
use super::show::{haskell_show_string, show, show_event};
use super::*;
use crate::ingest::read_bytes_keeping_source;
use crate::test_support::corpus;

/// Every eventlog of the corpus: its name and the log read from it.
fn corpus_logs() -> Vec<(String, Eventlog)> {
    let dir = corpus("ghc-eventlog");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("the corpus's ghc-eventlog folder")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".eventlog"))
        .collect();
    names.sort();
    assert!(names.len() >= 20, "expected the corpus's eventlogs, found {}", names.len());
    names
        .into_iter()
        .map(|name| (name.clone(), read_log(&name, &std::fs::read(dir.join(&name)).unwrap(), 4096)))
        .collect()
}

fn read_log(name: &str, bytes: &[u8], chunk: usize) -> Eventlog {
    let Some(read) = read_bytes_keeping_source(name, bytes, chunk)
        .unwrap()
        .parsed
        .into_read::<crate::formats::ghc_eventlog::ReadEventlog>()
    else {
        panic!("{name}: not read as an eventlog")
    };
    read.source.expect("the events, kept")
}

#[test]
fn show_matches_every_ghc_events_reference_byte_for_byte() {
    let mut checked = 0;
    for (name, log) in corpus_logs() {
        let Ok(reference) = std::fs::read(corpus(&format!("ghc-eventlog/{name}.reference"))) else { continue };
        let mut out = String::new();
        show(&log, &mut out);
        if out.as_bytes() != reference {
            let reference = String::from_utf8_lossy(&reference);
            let (line, (ours, theirs)) =
                out.lines().zip(reference.lines()).enumerate().find(|(_, (a, b))| a != b).unwrap_or((0, ("", "")));
            panic!("{name}: differs at line {}:\n ours:   {ours}\n theirs: {theirs}", line + 1);
        }
        checked += 1;
    }
    assert!(checked >= 18, "only {checked} references");
}

#[test]
fn every_corpus_event_decodes_and_encodes_back_to_its_bytes() {
    for (name, log) in corpus_logs() {
        let mut unknown = std::collections::BTreeSet::new();
        // Re-decoding needs the same declarations; block markers are not pushed again.
        let mut again = Eventlog::new(log.types.iter().filter(|t| t.id != 18).cloned().collect());
        for e in &log.events {
            let d = decode(&log, e);
            if let Event::Unknown { ty } = d.event {
                unknown.insert(ty);
            }
            let (ty, bytes) = encode(&d.event, d.extra);
            let payload = log.payload(e);
            assert_eq!(ty, e.ty, "{name} at {}", e.offset);
            // The only layout written longer than read: a stop event without its block info.
            let short_stop = e.ty == 2 && payload.len() == 6 && bytes[..6] == *payload && bytes[6..] == [0; 4];
            assert!(bytes == payload || short_stop, "{name} at {}: {:?} encodes to other bytes", e.offset, d.event);
            if ty == 18 {
                continue; // pushing a block marker sizes it to its block: its bytes were compared above
            }
            again.push(ty, e.time, &bytes);
            let redone = decode(&again, again.events.last().unwrap());
            assert_eq!(redone.event, d.event, "{name} at {}", e.offset);
            assert_eq!(redone.extra, d.extra, "{name} at {}", e.offset);
        }
        // Only the types ghc-events cannot read either stay unknown.
        unknown.remove(&59);
        assert!(unknown.is_empty(), "{name}: unknown types {unknown:?}");
    }
}

#[test]
fn old_logs_decode_their_old_event_set() {
    let (_, log) = corpus_logs().into_iter().find(|(n, _)| n == "testlog.eventlog").unwrap();
    let events: Vec<Event> = log.events.iter().map(|e| decode(&log, e).event).collect();
    assert!(events.contains(&Event::Startup { n_caps: 4 }));
    assert!(events.contains(&Event::StopThread { thread: 2, status: 6, blocked_on: 0 }));
    assert!(events.iter().any(|e| matches!(e, Event::RunSpark { .. })));
    let stop = log.events.iter().find(|e| e.ty == 2).unwrap();
    let mut line = String::new();
    show_event(&log, stop, &mut line);
    assert!(line.ends_with("stopping thread 2 (making a foreign call)"), "{line}");
}

#[test]
fn a_type_declared_with_a_size_too_small_for_its_layout_is_unknown_and_keeps_its_bytes() {
    let types = vec![
        EventType { id: 0, size: Some(2), description: "Create thread".into(), extra: vec![] },
        EventType { id: 53, size: Some(62), description: "GC statistics".into(), extra: vec![] },
        EventType { id: 44, size: Some(8), description: "Thread label".into(), extra: vec![] },
        EventType { id: 19, size: None, description: "User message".into(), extra: vec![] },
    ];
    let mut log = Eventlog::new(types);
    log.push(0, 1, &[0, 7]);
    log.push(53, 2, &[1; 62]);
    log.push(44, 3, &[0; 8]);
    log.push(19, 4, &[0xFF, 0xFE]);
    let d: Vec<Decoded> = log.events.iter().map(|e| decode(&log, e)).collect();
    assert_eq!(d[0].event, Event::Unknown { ty: 0 });
    assert_eq!(d[0].extra, [0, 7]);
    // A newer, longer GC statistics event: the 58-byte layout, then 4 extra bytes.
    assert!(matches!(d[1].event, Event::GcStatsGhc { par_balanced_copied: Some(_), .. }));
    assert_eq!(d[1].extra, [1; 4]);
    // A variable-size type declared fixed, and text that is not UTF-8.
    assert_eq!(d[2].event, Event::Unknown { ty: 44 });
    assert_eq!(d[3].event, Event::Unknown { ty: 19 });
    let mut out = String::new();
    show_event(&log, &log.events[2], &mut out);
    assert_eq!(out, "3: Thread label");
}

#[test]
fn haskell_strings_are_escaped_as_show_does() {
    let mut out = String::new();
    haskell_show_string("a\"b\\c\u{e9}1\u{e9}x\x0eH\x0e\t\x7f\x01", &mut out);
    assert_eq!(out, r#""a\"b\\c\233\&1\233x\SO\&H\SO\t\DEL\SOH""#);
}

/// The type ids whose layout is variable-size.
const VARIABLE: [u16; 19] = [16, 19, 23, 24, 29, 30, 31, 42, 44, 58, 140, 160, 161, 163, 164, 167, 169, 181, 210];

fn text() -> impl Strategy<Value = String> {
    "\\PC{0,12}"
}

/// Strings without NULs, as NUL-terminated fields need.
fn field() -> impl Strategy<Value = String> {
    "[^\u{0}]{0,10}"
}

fn events() -> impl Strategy<Value = Event> {
    use Event::*;
    let u32s = any::<u32>;
    let u64s = any::<u64>;
    let u16s = any::<u16>;
    Union::new(vec![
        u32s().prop_map(|thread| CreateThread { thread }).boxed(),
        u32s().prop_map(|thread| RunThread { thread }).boxed(),
        (u32s(), 0..25u16, u32s())
            .prop_map(|(thread, status, blocked_on)| StopThread { thread, status, blocked_on })
            .boxed(),
        (u32s(), u16s()).prop_map(|(thread, new_cap)| MigrateThread { thread, new_cap }).boxed(),
        (u32s(), u16s()).prop_map(|(thread, other_cap)| WakeupThread { thread, other_cap }).boxed(),
        Just(StartGc).boxed(),
        Just(EndGc).boxed(),
        Just(GlobalSyncGc).boxed(),
        text().prop_map(|message| Message { message }).boxed(),
        text().prop_map(|message| UserMessage { message }).boxed(),
        text().prop_map(|marker| UserMarker { marker }).boxed(),
        (u32s(), text()).prop_map(|(thread, label)| ThreadLabel { thread, label }).boxed(),
        (u32s(), u16s()).prop_map(|(capset, capset_type)| CapsetCreate { capset, capset_type }).boxed(),
        (u32s(), proptest::collection::vec(field(), 1..4), 0..3u16)
            .prop_map(|(capset, mut args, trailing_nuls)| {
                while args.len() > 1 && args.last().is_some_and(|a| a.is_empty()) {
                    args.pop();
                }
                ProgramArgs { capset, args, trailing_nuls }
            })
            .boxed(),
        (u32s(), u64s(), u32s()).prop_map(|(capset, sec, nsec)| WallClockTime { capset, sec, nsec }).boxed(),
        (u32s(), u64s()).prop_map(|(heap_capset, size)| HeapSize { heap_capset, size }).boxed(),
        (u32s(), u64s()).prop_map(|(heap_capset, live)| HeapLive { heap_capset, live }).boxed(),
        (u32s(), u64s()).prop_map(|(heap_capset, alloc)| HeapAllocated { heap_capset, alloc }).boxed(),
        (u32s(), u16s(), u64s(), u64s(), u64s(), u32s(), u64s(), u64s(), u64s())
            .prop_map(|(heap_capset, gen, copied, slop, frag, par_n_threads, par_max_copied, par_tot_copied, b)| {
                GcStatsGhc {
                    heap_capset,
                    gen,
                    copied,
                    slop,
                    frag,
                    par_n_threads,
                    par_max_copied,
                    par_tot_copied,
                    par_balanced_copied: Some(b),
                }
            })
            .boxed(),
        (u64s(), u16s(), u64s()).prop_map(|(task, cap, kernel_thread)| TaskCreate { task, cap, kernel_thread }).boxed(),
        (u64s(), u64s(), u64s(), u64s(), u64s(), u64s(), u64s())
            .prop_map(|(created, dud, overflowed, converted, gcd, fizzled, remaining)| SparkCounters {
                created,
                dud,
                overflowed,
                converted,
                gcd,
                fizzled,
                remaining,
            })
            .boxed(),
        (proptest::collection::vec(any::<u8>(), 0..8), u32s())
            .prop_map(|(string, id)| InternString { string, id })
            .boxed(),
        (any::<u8>(), u64s(), 1..=9u32, proptest::collection::vec(field(), 7))
            .prop_map(|(id, sampling_period, breakdown, f)| HeapProfBegin {
                id,
                sampling_period,
                breakdown,
                module_filter: f[0].clone(),
                closure_descr_filter: f[1].clone(),
                type_descr_filter: f[2].clone(),
                cost_centre_filter: f[3].clone(),
                cost_centre_stack_filter: f[4].clone(),
                retainer_filter: f[5].clone(),
                biography_filter: f[6].clone(),
            })
            .boxed(),
        (u32s(), field(), field(), field(), any::<u8>())
            .prop_map(|(id, label, module, src_loc, flags)| HeapProfCostCentre { id, label, module, src_loc, flags })
            .boxed(),
        (any::<u8>(), u64s(), proptest::collection::vec(u32s(), 0..6))
            .prop_map(|(id, residency, stack)| HeapProfSampleCostCentre { id, residency, stack })
            .boxed(),
        (any::<u8>(), u64s(), field())
            .prop_map(|(id, residency, label)| HeapProfSampleString { id, residency, label })
            .boxed(),
        (u32s(), u64s(), proptest::collection::vec(u32s(), 0..6))
            .prop_map(|(cap, ticks, stack)| ProfSampleCostCentre { cap, ticks, stack })
            .boxed(),
        (u64s(), field(), u32s(), field(), field(), field(), field())
            .prop_map(|(info, table_name, n, ty_desc, label, module, src_loc)| InfoTableProv {
                info,
                table_name,
                closure_desc: n.to_string(),
                ty_desc,
                label,
                module,
                src_loc,
            })
            .boxed(),
        proptest::collection::vec(any::<u8>(), 0..16).prop_map(|payload| UserBinaryMessage { payload }).boxed(),
        (u16s(), u32s(), u32s(), u32s())
            .prop_map(|(blk_size, active_segs, filled_segs, live_blocks)| NonmovingHeapCensus {
                blk_size,
                blk_size_log2: None,
                active_segs,
                filled_segs,
                live_blocks,
            })
            .boxed(),
        (u32s(), u32s())
            .prop_map(|(pruned_segments, free_segments)| NonmovingPrunedSegments { pruned_segments, free_segments })
            .boxed(),
        (u64s(), u16s(), field(), field(), proptest::option::of((u64s(), proptest::option::of(field()))))
            .prop_map(|(id, arity, kinds, name, tail)| TickyCounterDef {
                id,
                arity,
                kinds,
                name,
                info_table: tail.as_ref().map(|t| t.0),
                json_desc: tail.and_then(|t| t.1),
            })
            .boxed(),
        (u64s(), u64s(), u64s(), u64s())
            .prop_map(|(id, entry_count, allocs, allocd)| TickyCounterSample { id, entry_count, allocs, allocd })
            .boxed(),
        (any::<u8>(), u32s(), u32s(), u16s(), u32s(), u32s())
            .prop_map(|(tag, sender_process, sender_thread, receiver_machine, receiver_process, receiver_inport)| {
                SendMessage { tag, sender_process, sender_thread, receiver_machine, receiver_process, receiver_inport }
            })
            .boxed(),
        (u64s(), u32s()).prop_map(|(future_id, name_id)| MerFutureCreate { future_id, name_id }).boxed(),
        (u32s(), u64s(), u64s()).prop_map(|(perf_num, tid, period)| PerfCounter { perf_num, tid, period }).boxed(),
        (u32s(), text()).prop_map(|(perf_num, name)| PerfName { perf_num, name }).boxed(),
        (u32s(), u32s(), u32s(), u32s())
            .prop_map(|(heap_capset, current, needed, returned)| MemReturn { heap_capset, current, needed, returned })
            .boxed(),
    ])
}

/// What a generated event stream says: optional block switches, times, events, extra bytes.
type Stream = Vec<(Option<Option<u16>>, u64, Event, Vec<u8>)>;

fn streams() -> impl Strategy<Value = Stream> {
    let block = proptest::option::weighted(0.2, proptest::option::of(0..4u16));
    proptest::collection::vec((block, any::<u64>(), events(), proptest::collection::vec(any::<u8>(), 0..3)), 0..40)
}

/// Whether extra bytes after `event`'s fields read back as extra bytes.
fn keeps_extra(event: &Event) -> bool {
    use Event::*;
    matches!(
        event,
        HeapProfBegin { .. }
            | HeapProfCostCentre { .. }
            | HeapProfSampleCostCentre { .. }
            | HeapProfSampleString { .. }
            | ProfSampleCostCentre { .. }
            | InfoTableProv { .. }
    )
}

proptest! {
    #[test]
    fn built_logs_write_read_and_decode_back(stream in streams()) {
        let mut types: Vec<EventType> = Vec::new();
        let mut pushed = Vec::new();
        for (block, time, event, extra) in &stream {
            let extra: &[u8] = if keeps_extra(event) { extra } else { &[] };
            let (ty, payload) = encode(event, extra);
            if !types.iter().any(|t| t.id == ty) {
                let size = (!VARIABLE.contains(&ty)).then_some(payload.len() as u16);
                types.push(EventType { id: ty, size, description: format!("type {ty}"), extra: vec![] });
            }
            pushed.push((ty, *time, payload, block));
        }
        types.push(EventType { id: 59, size: Some(0), description: "Empty event for bug #9003".into(), extra: vec![] });
        let mut log = Eventlog::new(types);
        for (ty, time, payload, block) in &pushed {
            if let Some(cap) = block {
                log.push_block(*time, *cap);
            }
            log.push(*ty, *time, payload);
        }
        let bytes = write(&log);
        for chunk in [1, 7, 4096] {
            let back = read_log("built.eventlog", &bytes, chunk);
            prop_assert_eq!(&back.events, &log.events);
            let mut decoded = back.events.iter().filter(|e| e.ty != 18).map(|e| decode(&back, e));
            for (_, _, event, extra) in &stream {
                let d = decoded.next().unwrap();
                prop_assert_eq!(&d.event, event);
                if keeps_extra(event) {
                    prop_assert_eq!(d.extra, &extra[..]);
                }
            }
            prop_assert!(write(&back) == bytes);
        }
        let mut a = String::new();
        show(&log, &mut a);
        prop_assert!(a.starts_with("Event Types:\n"));
    }

    #[test]
    fn any_payload_of_any_type_decodes_and_shows_without_panicking(
        ty in 0..260u16,
        fixed in proptest::option::of(0..70u16),
        payload in proptest::collection::vec(any::<u8>(), 0..80),
    ) {
        let types = vec![EventType { id: ty, size: fixed, description: "t".into(), extra: vec![] }];
        let mut log = Eventlog::new(types);
        log.push(ty, 5, &payload);
        let d = decode(&log, &log.events[0]);
        let (ty2, bytes) = encode(&d.event, d.extra);
        prop_assert_eq!(ty2, ty);
        prop_assert!(bytes.len() >= d.extra.len());
        let mut out = String::new();
        show(&log, &mut out);
    }
}

#[test]
fn pushed_block_markers_cover_the_events_after_them() {
    let types = vec![EventType { id: 0, size: Some(4), description: "Create thread".into(), extra: vec![] }];
    let mut log = Eventlog::new(types);
    log.push(0, 1, &[0, 0, 0, 1]);
    log.push_block(2, Some(3));
    log.push(0, 9, &[0, 0, 0, 2]);
    log.push(0, 4, &[0, 0, 0, 3]);
    log.push_block(5, None);
    log.push(0, 6, &[0, 0, 0, 4]);
    let caps: Vec<Option<u16>> = log.events.iter().map(|e| e.cap).collect();
    assert_eq!(caps, [None, Some(3), Some(3), Some(3), None, None]);
    assert_eq!(
        decode(&log, &log.events[1]).event,
        Event::EventBlock { end_time: 9, cap: Some(3), block_size: 24 + 28 }
    );
    let back = read_log("b.eventlog", &write(&log), 3);
    assert_eq!(back.events, log.events);
    let mut out = String::new();
    show(&log, &mut out);
    assert!(out.contains("\n2: cap 3: event block: cap 3, end time: 9\n\n4: cap 3: creating thread 3\n"), "{out}");
}
