//! The text `ghc-events show` prints (raw times), byte for byte.
//!
//! The event types in header order, then every event, block markers
//! included, stably sorted by time: `<time>: [cap <n>: ]<text>`. Types that
//! do not decode print their header description.

use std::fmt::Write;

use super::decode::{decode, Event, USER_MARKER};
use super::{EventRecord, Eventlog};

/// Writes what `ghc-events show` prints for `log`, the final newline included.
pub fn show(log: &Eventlog, out: &mut String) {
    out.push_str("Event Types:\n");
    for t in &log.types {
        let _ = write!(out, "{}: {} (size ", t.id, t.description);
        match t.size {
            Some(n) => {
                let _ = write!(out, "{n}");
            }
            None => out.push_str("variable"),
        }
        out.push_str(")\n");
    }
    out.push_str("\nEvents:\n");
    let mut order: Vec<&EventRecord> = log.events.iter().collect();
    order.sort_by_key(|e| e.time);
    for e in order {
        show_event(log, e, out);
        out.push('\n');
    }
    out.push('\n');
}

/// Writes one event's line, without its newline: `<time>: [cap <n>: ]<text>`.
pub fn show_event(log: &Eventlog, e: &EventRecord, out: &mut String) {
    let _ = write!(out, "{}: ", e.time);
    if let Some(cap) = e.cap {
        let _ = write!(out, "cap {cap}: ");
    }
    match decode(log, e).event {
        Event::Unknown { ty } => {
            if let Some(t) = log.event_type(ty) {
                out.push_str(&t.description);
            }
        }
        event => text(&event, StopEncoding::of(log), out),
    }
}

/// How a log numbers thread stop statuses (ghc-events tells them apart by the header).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopEncoding {
    /// Before GHC 7.8 (no user markers declared); `short`: stop events lack block info.
    Pre77 {
        /// The stop event is declared without its block info (6 bytes).
        short: bool,
    },
    /// GHC 7.8.2 (user markers declared, but not the empty event of bug #9003).
    Ghc782,
    /// GHC 7.8.3 and later.
    Post782,
}

impl StopEncoding {
    /// The encoding of `log`'s stop events.
    pub fn of(log: &Eventlog) -> StopEncoding {
        if log.event_type(USER_MARKER).is_none() {
            let short = log.event_type(2).and_then(|t| t.size).is_some_and(|s| s < 10);
            StopEncoding::Pre77 { short }
        } else if log.event_type(59).is_none() {
            StopEncoding::Ghc782
        } else {
            StopEncoding::Post782
        }
    }
}

/// What ghc-events says of a stop status.
pub fn stop_status(status: u16, blocked_on: u32, encoding: StopEncoding, out: &mut String) {
    let (max, black_hole, short) = match encoding {
        StopEncoding::Pre77 { short } => (18, 8, short),
        StopEncoding::Ghc782 => (19, 9, false),
        StopEncoding::Post782 => (20, 8, false),
    };
    if status > max {
        out.push_str("No stop thread status");
        return;
    }
    if status == black_hole && !short {
        let _ = write!(out, "blocked on black hole owned by thread {blocked_on}");
        return;
    }
    if status == 2 && !short {
        let _ = write!(out, "stack overflow, size {blocked_on}");
        return;
    }
    // GHC 7.8.2 put "blocked reading an MVar" at 8 and shifted the rest up by one.
    let status = match (encoding, status) {
        (StopEncoding::Ghc782, 8) => 20,
        (StopEncoding::Ghc782, 9..) => status - 1,
        _ => status,
    };
    out.push_str(match status {
        1 => "heap overflow",
        2 => "stack overflow",
        3 => "thread yielding",
        4 => "thread blocked",
        5 => "thread finished",
        6 => "making a foreign call",
        7 => "blocked on an MVar",
        8 => "blocked on a black hole",
        9 => "blocked on I/O read",
        10 => "blocked on I/O write",
        11 => "blocked on threadDelay",
        12 => "blocked in STM retry",
        13 => "blocked on asyncDoProc",
        14 | 15 => "blocked in a foreign call",
        16 => "blocked in throwTo",
        17 => "thread migrating",
        18 => "waiting for data to be globalised",
        20 => "blocked reading an MVar",
        _ => "No stop thread status",
    });
}

/// The names of an Eden message tag (written plus 0x50).
const MESSAGE_TAGS: [&str; 13] = [
    "Ready",
    "NewPE",
    "PETIDS",
    "Finish",
    "FailPE",
    "RFork",
    "Connect",
    "DataMes",
    "Head",
    "Constr",
    "Part",
    "Terminate",
    "Packet",
];

fn tag(tag: u8, out: &mut String) {
    match MESSAGE_TAGS.get(usize::from(tag.wrapping_sub(0x50))) {
        Some(name) => out.push_str(name),
        // ghc-events fails on these; say what was written.
        None => {
            let _ = write!(out, "tag {tag}");
        }
    }
}

/// Cost-centre ids separated by ", ".
fn stack(stack: &[u32], out: &mut String) {
    for (i, cc) in stack.iter().enumerate() {
        let _ = write!(out, "{}{cc}", if i == 0 { "" } else { ", " });
    }
}

/// Bytes read one character per byte (ghc-events' `getString`).
fn latin1(bytes: &[u8], out: &mut String) {
    out.extend(bytes.iter().map(|&b| char::from(b)));
}

const BREAKDOWNS: [&str; 9] = [
    "cost centre",
    "module",
    "closure description",
    "type description",
    "retainer",
    "biography",
    "closure type",
    "info table",
    "era",
];

/// Writes ghc-events' text for a decoded event (any but [`Event::Unknown`],
/// which prints its type's description).
pub fn text(event: &Event, stops: StopEncoding, out: &mut String) {
    use Event::*;
    let o = out;
    let _ = match event {
        CreateThread { thread } => write!(o, "creating thread {thread}"),
        RunThread { thread } => write!(o, "running thread {thread}"),
        StopThread { thread, status, blocked_on } => {
            let _ = write!(o, "stopping thread {thread} (");
            stop_status(*status, *blocked_on, stops, o);
            write!(o, ")")
        }
        ThreadRunnable { thread } => write!(o, "thread {thread} is runnable"),
        MigrateThread { thread, new_cap } => write!(o, "migrating thread {thread} to cap {new_cap}"),
        RunSpark { .. } | SparkRun => write!(o, "running a local spark"),
        StealSpark { victim_cap, .. } | SparkSteal { victim_cap } => {
            write!(o, "stealing a spark from cap {victim_cap}")
        }
        Shutdown => write!(o, "shutting down"),
        WakeupThread { thread, other_cap } => write!(o, "waking up thread {thread} on cap {other_cap}"),
        StartGc => write!(o, "starting GC"),
        EndGc => write!(o, "finished GC"),
        RequestSeqGc => write!(o, "requesting sequential GC"),
        RequestParGc => write!(o, "requesting parallel GC"),
        CreateSparkThread { spark_thread } => write!(o, "creating spark thread {spark_thread}"),
        Message { message } | UserMessage { message } => write!(o, "{message}"),
        Startup { n_caps } => write!(o, "startup: {n_caps} capabilities"),
        EventBlock { end_time, cap, .. } => {
            writeln!(o, "event block: cap {}, end time: {end_time}", cap.unwrap_or(0xFFFF))
        }
        GcIdle => write!(o, "GC idle"),
        GcWork => write!(o, "GC working"),
        GcDone => write!(o, "GC done"),
        Version { version } => {
            o.push_str("compiler version is ");
            latin1(version, o);
            Ok(())
        }
        ProgramInvocation { commandline } => {
            o.push_str("program invocation: ");
            latin1(commandline, o);
            Ok(())
        }
        CapsetCreate { capset, capset_type } => {
            let ty = match capset_type {
                1 => "CapsetCustom",
                2 => "CapsetOsProcess",
                3 => "CapsetClockDomain",
                _ => "CapsetUnknown",
            };
            write!(o, "created capset {capset} of type {ty}")
        }
        CapsetDelete { capset } => write!(o, "deleted capset {capset}"),
        CapsetAssignCap { capset, cap } => write!(o, "assigned cap {cap} to capset {capset}"),
        CapsetRemoveCap { capset, cap } => write!(o, "removed cap {cap} from capset {capset}"),
        RtsIdentifier { capset, ident } => write!(o, "capset {capset}: RTS version \"{ident}\""),
        ProgramArgs { capset, args, .. } => {
            let _ = write!(o, "capset {capset}: args: ");
            haskell_show_list(args, o);
            Ok(())
        }
        ProgramEnv { capset, env, .. } => {
            let _ = write!(o, "capset {capset}: env: ");
            haskell_show_list(env, o);
            Ok(())
        }
        OsProcessPid { capset, pid } => write!(o, "capset {capset}: pid {pid}"),
        OsProcessParentPid { capset, ppid } => write!(o, "capset {capset}: parent pid {ppid}"),
        SparkCounters { created, dud, overflowed, converted, gcd, fizzled, remaining } => write!(
            o,
            "spark stats: {created} created, {converted} converted, {remaining} remaining ({overflowed} overflowed, {dud} dud, {gcd} GC'd, {fizzled} fizzled)"
        ),
        SparkCreate => write!(o, "spark created"),
        SparkDud => write!(o, "dud spark discarded"),
        SparkOverflow => write!(o, "overflowed spark discarded"),
        SparkFizzle => write!(o, "spark fizzled"),
        SparkGc => write!(o, "spark GCed"),
        InternString { string, id } => {
            o.push_str("Interned string: \"");
            latin1(string, o);
            write!(o, "\" with id {id}")
        }
        WallClockTime { capset, sec, nsec } => {
            write!(o, "capset {capset}: wall clock time {sec}s {nsec}ns (unix epoch)")
        }
        ThreadLabel { thread, label } => write!(o, "thread {thread} has label \"{label}\""),
        CapCreate { cap } => write!(o, "created cap {cap}"),
        CapDelete { cap } => write!(o, "deleted cap {cap}"),
        CapDisable { cap } => write!(o, "disabled cap {cap}"),
        CapEnable { cap } => write!(o, "enabled cap {cap}"),
        HeapAllocated { heap_capset, alloc } => {
            write!(o, "allocated on heap capset {heap_capset}: {alloc} total bytes till now")
        }
        HeapSize { heap_capset, size } => write!(o, "size of heap capset {heap_capset}: {size} bytes"),
        HeapLive { heap_capset, live } => write!(o, "live data in heap capset {heap_capset}: {live} bytes"),
        HeapInfoGhc { heap_capset, gens, max_heap_size, alloc_area_size, mblock_size, block_size } => write!(
            o,
            "heap stats for heap capset {heap_capset}: generations {gens}, {max_heap_size} bytes max heap size, {alloc_area_size} bytes alloc area size, {mblock_size} bytes mblock size, {block_size} bytes block size"
        ),
        GcStatsGhc {
            heap_capset,
            gen,
            copied,
            slop,
            frag,
            par_n_threads,
            par_max_copied,
            par_tot_copied,
            par_balanced_copied,
        } => {
            let _ = write!(
                o,
                "GC stats for heap capset {heap_capset}: generation {gen}, {copied} bytes copied, {slop} bytes slop, {frag} bytes fragmentation, {par_n_threads} par threads, {par_max_copied} bytes max par copied, {par_tot_copied} bytes total par copied"
            );
            match par_balanced_copied {
                Some(b) => write!(o, ", {b} bytes balanced par copied"),
                None => Ok(()),
            }
        }
        GlobalSyncGc => write!(o, "all caps stopped for GC"),
        TaskCreate { task, cap, kernel_thread } => {
            write!(o, "task 0x{task:x} created on cap {cap} with OS kernel thread {kernel_thread}")
        }
        TaskMigrate { task, cap, new_cap } => write!(o, "task 0x{task:x} migrated from cap {cap} to cap {new_cap}"),
        TaskDelete { task } => write!(o, "task 0x{task:x} deleted"),
        UserMarker { marker } => write!(o, "marker: {marker}"),
        _ => {
            text_more(event, o);
            Ok(())
        }
    };
}

/// The types from 60 on.
fn text_more(event: &Event, o: &mut String) {
    use Event::*;
    let _ = match event {
        EdenStartReceive => write!(o, "starting to receive"),
        EdenEndReceive => write!(o, "stop receiving"),
        CreateProcess { process } => write!(o, "creating process {process}"),
        KillProcess { process } => write!(o, "killing process {process}"),
        AssignThreadToProcess { thread, process } => write!(o, "assigning thread {thread} to process {process}"),
        CreateMachine { machine, realtime } => write!(o, "creating machine {machine} at {realtime}"),
        KillMachine { machine } => write!(o, "killing machine {machine}"),
        SendMessage { tag: t, sender_process, sender_thread, receiver_machine, receiver_process, receiver_inport } => {
            o.push_str("sending message with tag ");
            tag(*t, o);
            write!(o, " from process {sender_process}, thread {sender_thread} to machine {receiver_machine}, process {receiver_process} on inport {receiver_inport}")
        }
        ReceiveMessage {
            tag: t,
            receiver_process,
            receiver_inport,
            sender_machine,
            sender_process,
            sender_thread,
            message_size,
        } => {
            o.push_str("receiving message with tag ");
            tag(*t, o);
            write!(o, " at process {receiver_process}, inport {receiver_inport} from machine {sender_machine}, process {sender_process}, thread {sender_thread} with size {message_size}")
        }
        SendReceiveLocalMessage { tag: t, sender_process, sender_thread, receiver_process, receiver_inport } => {
            o.push_str("sending/receiving message with tag ");
            tag(*t, o);
            write!(o, " from process {sender_process}, thread {sender_thread} to process {receiver_process} on inport {receiver_inport}")
        }
        MemReturn { current, needed, returned, .. } => {
            write!(o, "memory returned (mblocks): current({current}) needed({needed}) returned({returned})")
        }
        BlocksSize { heap_capset, size } => write!(o, "blocks size of heap capset {heap_capset}: {size} bytes"),
        MerStartParConjunction { dyn_id, static_id } => {
            write!(o, "Start a parallel conjunction 0x{dyn_id:x}, static_id: {static_id}")
        }
        MerEndParConjunction { dyn_id } => write!(o, "End par conjunction: 0x{dyn_id:x}"),
        MerEndParConjunct { dyn_id } => write!(o, "End par conjunct: 0x{dyn_id:x}"),
        MerCreateSpark { dyn_id, spark_id } => {
            write!(o, "Create spark for conjunction: 0x{dyn_id:x} spark: 0x{spark_id:x}")
        }
        MerFutureCreate { future_id, name_id } => write!(o, "Create future 0x{future_id:x} named {name_id}"),
        MerFutureWaitNosuspend { future_id } => write!(o, "Wait didn't suspend for future: 0x{future_id:x}"),
        MerFutureWaitSuspended { future_id } => write!(o, "Wait suspended on future: 0x{future_id:x}"),
        MerFutureSignal { future_id } => write!(o, "Signaled future 0x{future_id:x}"),
        MerLookingForGlobalThread => write!(o, "Looking for global thread to resume"),
        MerWorkStealing => write!(o, "Trying to steal a spark"),
        MerLookingForLocalSpark => write!(o, "Looking for a local spark to execute"),
        MerReleaseThread { thread } => write!(o, "Releasing thread {thread} to the free pool"),
        MerCapSleeping => write!(o, "Capability going to sleep"),
        MerCallingMain => write!(o, "About to call the program entry point"),
        PerfName { perf_num, name } => write!(o, "perf event {perf_num} named \"{name}\""),
        PerfCounter { perf_num, tid, period } => write!(
            o,
            "perf event counter {perf_num} incremented by {} in OS thread {tid}",
            period.wrapping_add(1)
        ),
        PerfTracepoint { perf_num, tid } => write!(o, "perf event tracepoint {perf_num} reached in OS thread {tid}"),
        HeapProfBegin {
            id,
            sampling_period,
            breakdown,
            module_filter,
            closure_descr_filter,
            type_descr_filter,
            cost_centre_filter,
            cost_centre_stack_filter,
            retainer_filter,
            biography_filter,
        } => {
            let by = BREAKDOWNS.get((*breakdown as usize).wrapping_sub(1)).copied().unwrap_or("");
            let _ = write!(o, "start heap profiling {id} at sampling period {sampling_period} broken down by {by}");
            let filters = [
                module_filter,
                closure_descr_filter,
                type_descr_filter,
                cost_centre_filter,
                cost_centre_stack_filter,
                retainer_filter,
                biography_filter,
            ];
            // Every non-empty filter, each followed by ", ".
            let mut first = true;
            for f in filters.into_iter().filter(|f| !f.is_empty()) {
                if first {
                    o.push_str(" filtered by ");
                    first = false;
                }
                let _ = write!(o, "{f}, ");
            }
            Ok(())
        }
        HeapProfCostCentre { id, label, module, src_loc, flags } => {
            let caf = if flags & 1 != 0 { " CAF" } else { "" };
            write!(o, "cost centre {id} {label} in {module} at {src_loc}{caf}")
        }
        InfoTableProv { info, table_name, closure_desc, src_loc, .. } => {
            let _ = write!(o, "Info Table: {info:x}:");
            decimal_prefix(closure_desc, o);
            write!(o, ":{table_name} - {src_loc}")
        }
        HeapProfSampleBegin { era } => write!(o, "start heap prof sample {era}"),
        HeapProfSampleEnd { era } => write!(o, "end prof sample {era}"),
        HeapBioProfSampleBegin { era, time } => write!(o, "start heap prof sample {era} at time {time}"),
        HeapProfSampleCostCentre { id, residency, stack: s } => {
            let _ = write!(o, "heap prof sample {id}, residency {residency}, cost centre stack ");
            stack(s, o);
            Ok(())
        }
        HeapProfSampleString { id, residency, label } => {
            write!(o, "heap prof sample {id}, residency {residency}, label {label}")
        }
        ProfSampleCostCentre { cap, ticks, stack: s } => {
            // ghc-events reads the capability as 32 bits and keeps 16.
            let _ = write!(o, "cap no {}, prof sample {ticks}, cost centre stack ", *cap as u16);
            stack(s, o);
            Ok(())
        }
        ProfBegin { tick_interval } => write!(o, "start time profiling, tick interval {tick_interval} (ns)"),
        UserBinaryMessage { payload } => {
            o.push_str("binary message ");
            printable(payload, o);
            Ok(())
        }
        ConcMarkBegin => write!(o, "concurrent mark began"),
        ConcMarkEnd { marked_objects } => write!(o, "concurrent mark ended: marked {marked_objects} objects"),
        ConcSyncBegin => write!(o, "post-mark synchronization began"),
        ConcSyncEnd => write!(o, "post-mark synchronization ended"),
        ConcSweepBegin => write!(o, "concurrent sweep began"),
        ConcSweepEnd => write!(o, "concurrent sweep ended"),
        ConcUpdRemSetFlush { cap } => write!(o, "update remembered set flushed by {cap}"),
        NonmovingHeapCensus { blk_size, active_segs, filled_segs, live_blocks, .. } => write!(
            o,
            "nonmoving heap census {blk_size}: {active_segs} active segments, {filled_segs} filled segments, {live_blocks} live blocks"
        ),
        NonmovingPrunedSegments { pruned_segments, free_segments } => write!(
            o,
            "nonmoving segments pruned: {pruned_segments} pruned segments, {free_segments} free segments retained"
        ),
        TickyCounterDef { id, arity, kinds, name, info_table, .. } => write!(
            o,
            "ticky counter definition {id}, arity: {arity}, def kinds: {kinds}, name: {name}, itbl: {:x}",
            info_table.unwrap_or(0)
        ),
        TickyCounterSample { id, entry_count, allocs, allocd } => {
            write!(o, "ticky counter sample {id}: entry count: {entry_count}, {allocs} allocs, {allocd} allocd")
        }
        TickyBeginSample => write!(o, "ticky begin counter sample"),
        // The types below 60 are written by `text`; unknown events by their description.
        _ => Ok(()),
    };
}

/// The number a closure type's text starts with, as ghc-events reads and prints it.
fn decimal_prefix(s: &str, out: &mut String) {
    let digits = s.trim_start_matches('0');
    let digits = &digits[..digits.find(|c: char| !c.is_ascii_digit()).unwrap_or(digits.len())];
    out.push_str(if digits.is_empty() { "0" } else { digits });
}

/// A binary message as ghc-events prints it: UTF-8 where it is valid, and
/// '.' for each byte that is not and for each character that is not printable.
fn printable(bytes: &[u8], out: &mut String) {
    let mut rest = bytes;
    while !rest.is_empty() {
        match std::str::from_utf8(rest) {
            Ok(s) => {
                out.extend(s.chars().map(|c| if is_print(c) { c } else { '.' }));
                return;
            }
            Err(e) => {
                let (good, bad) = rest.split_at(e.valid_up_to());
                // `good` is valid UTF-8 by construction.
                let good = std::str::from_utf8(good).unwrap_or_default();
                out.extend(good.chars().map(|c| if is_print(c) { c } else { '.' }));
                out.push('.');
                rest = bad.get(1..).unwrap_or_default();
            }
        }
    }
}

/// Haskell's `isPrint`, as near as std allows: not a control, format,
/// separator-other-than-space, private-use or non-character code point.
/// (Unassigned code points, which Haskell also rejects, are not known here.)
pub(super) fn is_print(c: char) -> bool {
    let u = u32::from(c);
    !(c.is_control()
        || matches!(
            u,
            0xAD | 0x600..=0x605
                | 0x61C
                | 0x6DD
                | 0x70F
                | 0x890..=0x891
                | 0x8E2
                | 0x180E
                | 0x200B..=0x200F
                | 0x2028..=0x202E
                | 0x2060..=0x2064
                | 0x2066..=0x206F
                | 0xFEFF
                | 0xFFF9..=0xFFFB
                | 0x110BD
                | 0x110CD
                | 0x13430..=0x1343F
                | 0x1BCA0..=0x1BCA3
                | 0x1D173..=0x1D17A
                | 0xE0001
                | 0xE0020..=0xE007F
                | 0xE000..=0xF8FF
                | 0xF0000..=0x10FFFF
                | 0xFDD0..=0xFDEF
        )
        || u & 0xFFFE == 0xFFFE)
}

/// A list of strings as Haskell's `show` writes it: `["a","b"]`.
pub(super) fn haskell_show_list(items: &[String], out: &mut String) {
    out.push('[');
    for (i, s) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        haskell_show_string(s, out);
    }
    out.push(']');
}

/// The names of the ASCII control characters, as Haskell escapes them.
const ASCII_NAMES: [&str; 32] = [
    "NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "a", "b", "t", "n", "v", "f", "r", "SO", "SI", "DLE", "DC1",
    "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN", "EM", "SUB", "ESC", "FS", "GS", "RS", "US",
];

/// A string as Haskell's `show` writes it, quotes and escapes included.
pub(super) fn haskell_show_string(s: &str, out: &mut String) {
    out.push('"');
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        let next = chars.peek().copied();
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\x7F' => out.push_str("\\DEL"),
            c if u32::from(c) > 0x7F => {
                let _ = write!(out, "\\{}", u32::from(c));
                // A digit after a numeric escape would join it.
                if next.is_some_and(|n| n.is_ascii_digit()) {
                    out.push_str("\\&");
                }
            }
            c if c >= ' ' => out.push(c),
            c => {
                out.push('\\');
                out.push_str(ASCII_NAMES[c as usize]);
                // "\SO" followed by 'H' would read as "\SOH".
                if c == '\x0E' && next == Some('H') {
                    out.push_str("\\&");
                }
            }
        }
    }
    out.push('"');
}
