//! Typed events: what each event's payload says, as ghc-events reads it.
//!
//! [`decode`] picks the layout the way ghc-events does: by the size the
//! header declares for the type. Of the fixed layouts known for a type it
//! takes the largest that fits in the declared size; the bytes past it (a
//! newer RTS's added fields) are the event's `extra`. A variable-size event
//! is read from its payload, and what follows the known fields is `extra`.
//! A type with no layout for its declared size, or a payload that does not
//! hold what the layout needs (a short payload, text that is not UTF-8 where
//! ghc-events requires it, an unknown heap-profile breakdown), is
//! [`Event::Unknown`], with the whole payload as `extra`.
//!
//! **Old logs.** Logs that do not declare user markers (type 58; GHC before
//! 7.8) may write the stop-thread event as 6 bytes (thread, status): that
//! is read with `blocked_on` 0. The deprecated run-spark (5), steal-spark
//! (6), shutdown (7) and startup (17) events are read too. GHC 6.12 logs,
//! which declare thread ids as 8 bytes but write 4, are not (their events
//! cannot even be framed by the sizes their header declares).
//!
//! [`encode`] writes an event back: the type id and the payload that
//! decodes to the same event under a header declaring the type with the
//! size of that layout.

mod encode;
mod parse;

pub use encode::encode;

use super::{EventRecord, Eventlog};

/// An event decoded from its payload.
#[derive(Clone, Debug, PartialEq)]
pub struct Decoded<'a> {
    /// What the event says.
    pub event: Event,
    /// The payload's bytes past what was decoded (the whole payload for [`Event::Unknown`]).
    pub extra: &'a [u8],
}

/// Decodes an event of `log`.
pub fn decode<'a>(log: &'a Eventlog, e: &EventRecord) -> Decoded<'a> {
    decode_payload(log, e.ty, log.payload(e))
}

/// Decodes the `payload` of an event of type `ty`, laid out as `log`'s
/// header declares that type (the events themselves need not be in `log`).
pub fn decode_payload<'a>(log: &Eventlog, ty: u16, payload: &'a [u8]) -> Decoded<'a> {
    let unknown = Decoded { event: Event::Unknown { ty }, extra: payload };
    let Some(body) = body(log, ty, payload) else { return unknown };
    match parse::parse(ty, body) {
        Some((event, used)) => Decoded { event, extra: &payload[used..] },
        None => unknown,
    }
}

/// The part of `payload` that `ty`'s layout reads, chosen by the size
/// `log` declares for it; `None` when no layout fits.
fn body<'a>(log: &Eventlog, ty: u16, payload: &'a [u8]) -> Option<&'a [u8]> {
    match log.event_type(ty)?.size {
        Some(size) => match parse::fixed_size(ty, size, log.event_type(USER_MARKER).is_none()) {
            Some(n) if payload.len() >= usize::from(n) => Some(&payload[..usize::from(n)]),
            _ => None,
        },
        None if parse::is_variable(ty) => Some(payload),
        None => None,
    }
}

/// The events an analysis meets most often, with only what it reads of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hot {
    /// 0: a thread was created.
    CreateThread(u32),
    /// 1: a thread started running.
    RunThread(u32),
    /// 2: a thread stopped running.
    StopThread(u32),
    /// 9: a garbage collection started.
    StartGc,
    /// 10: a garbage collection ended.
    EndGc,
}

/// Reads an event of type `ty` as a [`Hot`] event without building its
/// whole [`Event`]: `None` when `ty` is not one of them or does not decode
/// (where [`decode_payload`] gives [`Event::Unknown`]).
pub fn decode_hot(log: &Eventlog, ty: u16, payload: &[u8]) -> Option<Hot> {
    if !matches!(ty, 0 | 1 | 2 | 9 | 10) {
        return None;
    }
    let body = body(log, ty, payload)?;
    // Every layout of types 0 to 2 starts with the thread id.
    let thread = || body.get(..4).map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]));
    Some(match ty {
        0 => Hot::CreateThread(thread()?),
        1 => Hot::RunThread(thread()?),
        2 => Hot::StopThread(thread()?),
        9 => Hot::StartGc,
        _ => Hot::EndGc,
    })
}

/// Reads a user message (19) or user marker (58) as its text, without
/// building its [`Event`]: `Some((text, marker))` exactly when
/// [`decode_payload`] gives [`Event::UserMessage`] or [`Event::UserMarker`].
pub fn decode_text<'a>(log: &Eventlog, ty: u16, payload: &'a [u8]) -> Option<(&'a str, bool)> {
    let (bytes, marker) = decode_text_bytes(log, ty, payload)?;
    Some((std::str::from_utf8(bytes).ok()?, marker))
}

/// [`decode_text`]'s text as bytes, not yet checked to be UTF-8 (a reader
/// that has seen the same bytes before need not check them again).
pub fn decode_text_bytes<'a>(log: &Eventlog, ty: u16, payload: &'a [u8]) -> Option<(&'a [u8], bool)> {
    if !matches!(ty, 19 | USER_MARKER) {
        return None;
    }
    Some((body(log, ty, payload)?, ty == USER_MARKER))
}

/// The type id of user markers: logs that do not declare it are pre-7.8 logs.
pub(super) const USER_MARKER: u16 = 58;

/// An event, as ghc-events knows it. Numbers are the type ids.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// 0: a Haskell thread was created.
    CreateThread {
        /// The thread.
        thread: u32,
    },
    /// 1: a thread started running.
    RunThread {
        /// The thread.
        thread: u32,
    },
    /// 2: a thread stopped running.
    StopThread {
        /// The thread.
        thread: u32,
        /// Why, as written (the numbering depends on the GHC version: see
        /// [`stop_status`](super::show::stop_status)).
        status: u16,
        /// The thread it is blocked on (for black holes), or the stack size
        /// (for stack overflows); 0 in old logs that do not write it.
        blocked_on: u32,
    },
    /// 3: a thread became runnable.
    ThreadRunnable {
        /// The thread.
        thread: u32,
    },
    /// 4: a thread moved to another capability.
    MigrateThread {
        /// The thread.
        thread: u32,
        /// Its new capability.
        new_cap: u16,
    },
    /// 5 (deprecated): a spark was run; ghc-events shows it as a spark run.
    RunSpark {
        /// The thread that ran it.
        thread: u32,
    },
    /// 6 (deprecated): a spark was stolen; ghc-events shows it as a spark steal.
    StealSpark {
        /// The thread that stole it.
        thread: u32,
        /// The capability it was stolen from.
        victim_cap: u16,
    },
    /// 7 (deprecated): the RTS shut down.
    Shutdown,
    /// 8: a thread was woken up.
    WakeupThread {
        /// The thread.
        thread: u32,
        /// The capability it lives on.
        other_cap: u16,
    },
    /// 9: a garbage collection started.
    StartGc,
    /// 10: a garbage collection ended.
    EndGc,
    /// 11: a sequential GC was requested.
    RequestSeqGc,
    /// 12: a parallel GC was requested.
    RequestParGc,
    /// 15: a spark thread was created.
    CreateSparkThread {
        /// The thread.
        spark_thread: u32,
    },
    /// 16: a message from the RTS.
    Message {
        /// Its text.
        message: String,
    },
    /// 17 (deprecated): the RTS started.
    Startup {
        /// Its number of capabilities.
        n_caps: u16,
    },
    /// 18: a block of events written by one capability.
    EventBlock {
        /// The time of the block's last event.
        end_time: u64,
        /// The capability (`None` for 0xFFFF: global events).
        cap: Option<u16>,
        /// The block's size in bytes as written, the 24-byte marker event included.
        block_size: u32,
    },
    /// 19: a message from the program (`traceEvent`).
    UserMessage {
        /// Its text.
        message: String,
    },
    /// 20: a GC thread went idle.
    GcIdle,
    /// 21: a GC thread started working.
    GcWork,
    /// 22: a GC thread finished.
    GcDone,
    /// 23 (Eden): the compiler's version.
    Version {
        /// Its bytes (ghc-events reads each byte as a character).
        version: Vec<u8>,
    },
    /// 24 (Eden): the program's command line.
    ProgramInvocation {
        /// Its bytes (ghc-events reads each byte as a character).
        commandline: Vec<u8>,
    },
    /// 25: a capability set was created.
    CapsetCreate {
        /// The set.
        capset: u32,
        /// Its type: 1 custom, 2 OS process, 3 clock domain.
        capset_type: u16,
    },
    /// 26: a capability set was deleted.
    CapsetDelete {
        /// The set.
        capset: u32,
    },
    /// 27: a capability joined a set.
    CapsetAssignCap {
        /// The set.
        capset: u32,
        /// The capability.
        cap: u16,
    },
    /// 28: a capability left a set.
    CapsetRemoveCap {
        /// The set.
        capset: u32,
        /// The capability.
        cap: u16,
    },
    /// 29: the RTS's name and version.
    RtsIdentifier {
        /// The capability set (the process).
        capset: u32,
        /// Its text, e.g. `GHC-9.2.1 rts_thr`.
        ident: String,
    },
    /// 30: the program's arguments.
    ProgramArgs {
        /// The capability set (the process).
        capset: u32,
        /// The arguments (NUL-separated in the payload; trailing NULs dropped).
        args: Vec<String>,
        /// How many NULs ended the payload.
        trailing_nuls: u16,
    },
    /// 31: the program's environment.
    ProgramEnv {
        /// The capability set (the process).
        capset: u32,
        /// The `NAME=value` strings (NUL-separated in the payload; trailing NULs dropped).
        env: Vec<String>,
        /// How many NULs ended the payload.
        trailing_nuls: u16,
    },
    /// 32: the process's id.
    OsProcessPid {
        /// The capability set (the process).
        capset: u32,
        /// The pid.
        pid: u32,
    },
    /// 33: the parent process's id.
    OsProcessParentPid {
        /// The capability set (the process).
        capset: u32,
        /// The parent's pid.
        ppid: u32,
    },
    /// 34: spark counters of a capability.
    SparkCounters {
        /// Sparks created.
        created: u64,
        /// Dud sparks.
        dud: u64,
        /// Sparks that overflowed the pool.
        overflowed: u64,
        /// Sparks converted (run).
        converted: u64,
        /// Sparks garbage-collected.
        gcd: u64,
        /// Sparks fizzled.
        fizzled: u64,
        /// Sparks remaining.
        remaining: u64,
    },
    /// 35: a spark was created.
    SparkCreate,
    /// 36: a dud spark was discarded.
    SparkDud,
    /// 37: an overflowed spark was discarded.
    SparkOverflow,
    /// 38: a local spark ran.
    SparkRun,
    /// 39: a spark was stolen.
    SparkSteal {
        /// The capability it was stolen from.
        victim_cap: u16,
    },
    /// 40: a spark fizzled.
    SparkFizzle,
    /// 41: a spark was garbage-collected.
    SparkGc,
    /// 42: a string and its id.
    InternString {
        /// Its bytes (ghc-events reads each byte as a character).
        string: Vec<u8>,
        /// Its id.
        id: u32,
    },
    /// 43: the wall-clock time at the log's start.
    WallClockTime {
        /// The capability set (the process).
        capset: u32,
        /// Seconds since the Unix epoch.
        sec: u64,
        /// Nanoseconds.
        nsec: u32,
    },
    /// 44: a thread's label.
    ThreadLabel {
        /// The thread.
        thread: u32,
        /// Its label.
        label: String,
    },
    /// 45: a capability was created.
    CapCreate {
        /// The capability.
        cap: u16,
    },
    /// 46: a capability was deleted.
    CapDelete {
        /// The capability.
        cap: u16,
    },
    /// 47: a capability was disabled.
    CapDisable {
        /// The capability.
        cap: u16,
    },
    /// 48: a capability was enabled.
    CapEnable {
        /// The capability.
        cap: u16,
    },
    /// 49: bytes allocated since the start.
    HeapAllocated {
        /// The heap's capability set.
        heap_capset: u32,
        /// Bytes.
        alloc: u64,
    },
    /// 50: the heap's size.
    HeapSize {
        /// The heap's capability set.
        heap_capset: u32,
        /// Bytes.
        size: u64,
    },
    /// 51: the heap's live data.
    HeapLive {
        /// The heap's capability set.
        heap_capset: u32,
        /// Bytes.
        live: u64,
    },
    /// 52: the heap's static parameters.
    HeapInfoGhc {
        /// The heap's capability set.
        heap_capset: u32,
        /// Number of generations.
        gens: u16,
        /// Maximum heap size, bytes.
        max_heap_size: u64,
        /// Allocation area size, bytes.
        alloc_area_size: u64,
        /// Megablock size, bytes.
        mblock_size: u64,
        /// Block size, bytes.
        block_size: u64,
    },
    /// 53: statistics of one garbage collection.
    GcStatsGhc {
        /// The heap's capability set.
        heap_capset: u32,
        /// The generation collected.
        gen: u16,
        /// Bytes copied.
        copied: u64,
        /// Bytes of slop.
        slop: u64,
        /// Bytes of fragmentation.
        frag: u64,
        /// Parallel GC threads.
        par_n_threads: u32,
        /// Most bytes copied by one thread.
        par_max_copied: u64,
        /// Bytes copied by all threads.
        par_tot_copied: u64,
        /// Balanced bytes copied (only in the 58-byte layout).
        par_balanced_copied: Option<u64>,
    },
    /// 54: all capabilities stopped for a GC.
    GlobalSyncGc,
    /// 55: an OS task was created.
    TaskCreate {
        /// The task.
        task: u64,
        /// Its capability.
        cap: u16,
        /// Its OS kernel thread.
        kernel_thread: u64,
    },
    /// 56: a task moved to another capability.
    TaskMigrate {
        /// The task.
        task: u64,
        /// Its capability.
        cap: u16,
        /// Its new capability.
        new_cap: u16,
    },
    /// 57: a task was deleted.
    TaskDelete {
        /// The task.
        task: u64,
    },
    /// 58: a marker from the program (`traceMarker`).
    UserMarker {
        /// Its name.
        marker: String,
    },
    /// 60 (Eden): receiving started.
    EdenStartReceive,
    /// 61 (Eden): receiving ended.
    EdenEndReceive,
    /// 62 (Eden): a process was created.
    CreateProcess {
        /// The process.
        process: u32,
    },
    /// 63 (Eden): a process was killed.
    KillProcess {
        /// The process.
        process: u32,
    },
    /// 64 (Eden): a thread joined a process.
    AssignThreadToProcess {
        /// The thread.
        thread: u32,
        /// The process.
        process: u32,
    },
    /// 65 (Eden): a machine was created.
    CreateMachine {
        /// The machine.
        machine: u16,
        /// Its start time.
        realtime: u64,
    },
    /// 66 (Eden): a machine was killed.
    KillMachine {
        /// The machine.
        machine: u16,
    },
    /// 67 (Eden): a message was sent.
    SendMessage {
        /// The message tag, as written (0x50 is the first tag).
        tag: u8,
        /// Sending process.
        sender_process: u32,
        /// Sending thread.
        sender_thread: u32,
        /// Receiving machine.
        receiver_machine: u16,
        /// Receiving process.
        receiver_process: u32,
        /// Receiving inport.
        receiver_inport: u32,
    },
    /// 68 (Eden): a message was received.
    ReceiveMessage {
        /// The message tag, as written (0x50 is the first tag).
        tag: u8,
        /// Receiving process.
        receiver_process: u32,
        /// Receiving inport.
        receiver_inport: u32,
        /// Sending machine.
        sender_machine: u16,
        /// Sending process.
        sender_process: u32,
        /// Sending thread.
        sender_thread: u32,
        /// Message size.
        message_size: u32,
    },
    /// 69 (Eden): a message was sent and received locally.
    SendReceiveLocalMessage {
        /// The message tag, as written (0x50 is the first tag).
        tag: u8,
        /// Sending process.
        sender_process: u32,
        /// Sending thread.
        sender_thread: u32,
        /// Receiving process.
        receiver_process: u32,
        /// Receiving inport.
        receiver_inport: u32,
    },
    /// 90: memory returned to the OS.
    MemReturn {
        /// The heap's capability set.
        heap_capset: u32,
        /// Megablocks in use.
        current: u32,
        /// Megablocks needed.
        needed: u32,
        /// Megablocks returned.
        returned: u32,
    },
    /// 91: the size of the allocated blocks.
    BlocksSize {
        /// The heap's capability set.
        heap_capset: u32,
        /// Bytes.
        size: u64,
    },
    /// 100 (Mercury): a parallel conjunction started.
    MerStartParConjunction {
        /// Dynamic id.
        dyn_id: u64,
        /// Static id.
        static_id: u32,
    },
    /// 101 (Mercury): a parallel conjunction ended.
    MerEndParConjunction {
        /// Dynamic id.
        dyn_id: u64,
    },
    /// 102 (Mercury): a parallel conjunct ended.
    MerEndParConjunct {
        /// Dynamic id.
        dyn_id: u64,
    },
    /// 103 (Mercury): a spark was created for a conjunction.
    MerCreateSpark {
        /// Dynamic id.
        dyn_id: u64,
        /// Spark id.
        spark_id: u32,
    },
    /// 104 (Mercury): a future was created.
    MerFutureCreate {
        /// The future.
        future_id: u64,
        /// Its name's string id.
        name_id: u32,
    },
    /// 105 (Mercury): a wait did not suspend.
    MerFutureWaitNosuspend {
        /// The future.
        future_id: u64,
    },
    /// 106 (Mercury): a wait suspended.
    MerFutureWaitSuspended {
        /// The future.
        future_id: u64,
    },
    /// 107 (Mercury): a future was signalled.
    MerFutureSignal {
        /// The future.
        future_id: u64,
    },
    /// 108 (Mercury): looking for a global thread.
    MerLookingForGlobalThread,
    /// 109 (Mercury): trying to steal a spark.
    MerWorkStealing,
    /// 110 (Mercury): a thread was released.
    MerReleaseThread {
        /// The thread (context).
        thread: u32,
    },
    /// 111 (Mercury): a capability went to sleep.
    MerCapSleeping,
    /// 112 (Mercury): looking for a local spark.
    MerLookingForLocalSpark,
    /// 113 (Mercury): about to call main.
    MerCallingMain,
    /// 140: a perf event's name.
    PerfName {
        /// The perf event.
        perf_num: u32,
        /// Its name.
        name: String,
    },
    /// 141: a perf counter.
    PerfCounter {
        /// The perf event.
        perf_num: u32,
        /// The OS kernel thread.
        tid: u64,
        /// The period (shown plus one).
        period: u64,
    },
    /// 142: a perf tracepoint.
    PerfTracepoint {
        /// The perf event.
        perf_num: u32,
        /// The OS kernel thread.
        tid: u64,
    },
    /// 160: heap profiling started.
    HeapProfBegin {
        /// The profile's id.
        id: u8,
        /// Sampling period.
        sampling_period: u64,
        /// Breakdown: 1 cost centre, 2 module, 3 closure description, 4 type
        /// description, 5 retainer, 6 biography, 7 closure type, 8 info table, 9 era.
        breakdown: u32,
        /// Module filter.
        module_filter: String,
        /// Closure description filter.
        closure_descr_filter: String,
        /// Type description filter.
        type_descr_filter: String,
        /// Cost-centre filter.
        cost_centre_filter: String,
        /// Cost-centre stack filter.
        cost_centre_stack_filter: String,
        /// Retainer filter.
        retainer_filter: String,
        /// Biography filter.
        biography_filter: String,
    },
    /// 161: a cost centre's definition.
    HeapProfCostCentre {
        /// Its id.
        id: u32,
        /// Its label.
        label: String,
        /// Its module.
        module: String,
        /// Its source location.
        src_loc: String,
        /// Flags (bit 0: a CAF).
        flags: u8,
    },
    /// 162: a heap profile sample started.
    HeapProfSampleBegin {
        /// The era.
        era: u64,
    },
    /// 163: a heap profile sample by cost-centre stack.
    HeapProfSampleCostCentre {
        /// The profile's id.
        id: u8,
        /// Residency, bytes.
        residency: u64,
        /// The cost-centre stack (at most 255 entries).
        stack: Vec<u32>,
    },
    /// 164: a heap profile sample by label.
    HeapProfSampleString {
        /// The profile's id.
        id: u8,
        /// Residency, bytes.
        residency: u64,
        /// The label.
        label: String,
    },
    /// 165: a heap profile sample ended.
    HeapProfSampleEnd {
        /// The era.
        era: u64,
    },
    /// 166: a biographical heap profile sample started.
    HeapBioProfSampleBegin {
        /// The era.
        era: u64,
        /// The sample's time.
        time: u64,
    },
    /// 167: a time profile sample.
    ProfSampleCostCentre {
        /// The capability, as written (32 bits; shown as 16).
        cap: u32,
        /// Ticks.
        ticks: u64,
        /// The cost-centre stack (at most 255 entries).
        stack: Vec<u32>,
    },
    /// 168: time profiling started.
    ProfBegin {
        /// Tick interval, ns.
        tick_interval: u64,
    },
    /// 169: an info table's provenance.
    InfoTableProv {
        /// The info table's address.
        info: u64,
        /// Its name.
        table_name: String,
        /// Its closure type, as written (a decimal number).
        closure_desc: String,
        /// Its type description.
        ty_desc: String,
        /// Its label.
        label: String,
        /// Its module.
        module: String,
        /// Its source location.
        src_loc: String,
    },
    /// 181: a binary message from the program.
    UserBinaryMessage {
        /// Its bytes.
        payload: Vec<u8>,
    },
    /// 200: a concurrent mark began.
    ConcMarkBegin,
    /// 201: a concurrent mark ended.
    ConcMarkEnd {
        /// Objects marked.
        marked_objects: u32,
    },
    /// 202: post-mark synchronisation began.
    ConcSyncBegin,
    /// 203: post-mark synchronisation ended.
    ConcSyncEnd,
    /// 204: a concurrent sweep began.
    ConcSweepBegin,
    /// 205: a concurrent sweep ended.
    ConcSweepEnd,
    /// 206: a remembered set was flushed.
    ConcUpdRemSetFlush {
        /// The capability.
        cap: u16,
    },
    /// 207: a census of the non-moving heap.
    NonmovingHeapCensus {
        /// Block size, bytes (2^`blk_size_log2`, wrapped to 16 bits, in the 13-byte layout).
        blk_size: u16,
        /// The logarithm of the block size, as written by the 13-byte layout (before GHC #23340).
        blk_size_log2: Option<u8>,
        /// Active segments.
        active_segs: u32,
        /// Filled segments.
        filled_segs: u32,
        /// Live blocks.
        live_blocks: u32,
    },
    /// 208: free segments were pruned.
    NonmovingPrunedSegments {
        /// Segments pruned.
        pruned_segments: u32,
        /// Free segments kept.
        free_segments: u32,
    },
    /// 210: a ticky counter's definition.
    TickyCounterDef {
        /// The counter.
        id: u64,
        /// Its arity.
        arity: u16,
        /// Its argument kinds.
        kinds: String,
        /// Its name.
        name: String,
        /// Its info table (absent in old logs; shown as 0).
        info_table: Option<u64>,
        /// Its JSON description (absent in old logs; never shown).
        json_desc: Option<String>,
    },
    /// 211: a ticky counter sample.
    TickyCounterSample {
        /// The counter.
        id: u64,
        /// Entry count.
        entry_count: u64,
        /// Allocations.
        allocs: u64,
        /// Bytes allocated.
        allocd: u64,
    },
    /// 212: a ticky sample began.
    TickyBeginSample,
    /// A type declared but not decodable (no layout for its size, or a payload
    /// its layout cannot read): shown as its header description.
    Unknown {
        /// Its type id.
        ty: u16,
    },
}
