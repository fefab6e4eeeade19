//! Payload layouts, per type id, and reading them.

use super::Event;

/// The fixed payload sizes known for `ty` (all empty for variable-size types).
fn fixed_sizes(ty: u16, pre77: bool) -> &'static [u16] {
    match ty {
        // Before GHC 7.8 the stop event could be written without its block info.
        2 if pre77 => &[6, 10],
        2 => &[10],
        7 | 9..=12 | 20..=22 | 35..=38 | 40 | 41 | 54 | 60 | 61 | 108 | 109 | 111..=113 | 200 | 202..=205 | 212 => &[0],
        0 | 1 | 3 | 5 | 15 | 26 | 62 | 63 | 110 | 201 => &[4],
        17 | 39 | 45..=48 | 66 | 206 => &[2],
        4 | 6 | 8 | 25 | 27 | 28 => &[6],
        32 | 33 | 57 | 64 | 101 | 102 | 105..=107 | 162 | 165 | 168 | 208 => &[8],
        65 => &[10],
        49..=51 | 56 | 91 | 100 | 103 | 104 | 142 => &[12],
        207 => &[13, 14],
        18 => &[14],
        43 | 90 | 166 => &[16],
        69 => &[17],
        55 => &[18],
        67 => &[19],
        141 => &[20],
        68 => &[23],
        211 => &[32],
        52 => &[38],
        53 => &[50, 58],
        34 => &[56],
        _ => &[],
    }
}

/// The layout size ghc-events reads for `ty` declared with `declared` bytes:
/// the largest known fixed size that fits.
pub(super) fn fixed_size(ty: u16, declared: u16, pre77: bool) -> Option<u16> {
    fixed_sizes(ty, pre77).iter().copied().filter(|&s| s <= declared).max()
}

/// Whether `ty` has a variable-size layout.
pub(super) fn is_variable(ty: u16) -> bool {
    matches!(ty, 16 | 19 | 23 | 24 | 29..=31 | 42 | 44 | 58 | 140 | 160 | 161 | 163 | 164 | 167 | 169 | 181 | 210)
}

/// A reader over a payload; every read is `None` past its end.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Cursor { bytes, at: 0 }
    }

    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let b = self.bytes.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(b)
    }

    fn array<const N: usize>(&mut self) -> Option<[u8; N]> {
        self.take(N)?.try_into().ok()
    }

    fn u8(&mut self) -> Option<u8> {
        Some(self.array::<1>()?[0])
    }

    fn u16(&mut self) -> Option<u16> {
        Some(u16::from_be_bytes(self.array()?))
    }

    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_be_bytes(self.array()?))
    }

    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_be_bytes(self.array()?))
    }

    fn left(&self) -> usize {
        self.bytes.len() - self.at
    }

    /// Everything left.
    fn rest(&mut self) -> &'a [u8] {
        let b = &self.bytes[self.at..];
        self.at = self.bytes.len();
        b
    }

    /// Everything left, as strict UTF-8 (ghc-events fails on anything else).
    fn text(&mut self) -> Option<String> {
        let s = std::str::from_utf8(&self.bytes[self.at..]).ok()?.to_owned();
        self.at = self.bytes.len();
        Some(s)
    }

    /// A NUL-terminated string, decoded leniently as ghc-events does; `None` without a NUL.
    fn nul_text(&mut self) -> Option<String> {
        let len = memchr::memchr(0, &self.bytes[self.at..])?;
        let s = String::from_utf8_lossy(&self.bytes[self.at..self.at + len]).into_owned();
        self.at += len + 1;
        Some(s)
    }

    /// `depth` (a u8 read first) big-endian u32s.
    fn stack(&mut self) -> Option<Vec<u32>> {
        let depth = self.u8()?;
        (0..depth).map(|_| self.u32()).collect()
    }
}

/// Splits the NUL-separated strings of program arguments or environment
/// the way ghc-events does (trailing NULs dropped first), counting those NULs.
fn split_nul(bytes: &[u8]) -> Option<(Vec<String>, u16)> {
    let text = std::str::from_utf8(bytes).ok()?;
    let trimmed = text.trim_end_matches('\0');
    let trailing = u16::try_from(text.len() - trimmed.len()).ok()?;
    Some((trimmed.split('\0').map(str::to_owned).collect(), trailing))
}

/// Reads `body` as the layout of `ty` (a fixed layout's body is exactly its
/// size); gives the event and the bytes read, or `None` when it cannot be read.
pub(super) fn parse(ty: u16, body: &[u8]) -> Option<(Event, usize)> {
    let mut c = Cursor::new(body);
    let event = read(ty, &mut c)?;
    Some((event, c.at))
}

fn read(ty: u16, c: &mut Cursor<'_>) -> Option<Event> {
    use Event::*;
    Some(match ty {
        0 => CreateThread { thread: c.u32()? },
        1 => RunThread { thread: c.u32()? },
        2 => {
            let (thread, status) = (c.u32()?, c.u16()?);
            let blocked_on = if c.left() >= 4 { c.u32()? } else { 0 };
            StopThread { thread, status, blocked_on }
        }
        3 => ThreadRunnable { thread: c.u32()? },
        4 => MigrateThread { thread: c.u32()?, new_cap: c.u16()? },
        5 => RunSpark { thread: c.u32()? },
        6 => StealSpark { thread: c.u32()?, victim_cap: c.u16()? },
        7 => Shutdown,
        8 => WakeupThread { thread: c.u32()?, other_cap: c.u16()? },
        9 => StartGc,
        10 => EndGc,
        11 => RequestSeqGc,
        12 => RequestParGc,
        15 => CreateSparkThread { spark_thread: c.u32()? },
        16 => Message { message: c.text()? },
        17 => Startup { n_caps: c.u16()? },
        18 => {
            let (block_size, end_time, cap) = (c.u32()?, c.u64()?, c.u16()?);
            EventBlock { end_time, cap: (cap != 0xFFFF).then_some(cap), block_size }
        }
        19 => UserMessage { message: c.text()? },
        20 => GcIdle,
        21 => GcWork,
        22 => GcDone,
        23 => Version { version: c.rest().to_vec() },
        24 => ProgramInvocation { commandline: c.rest().to_vec() },
        25 => CapsetCreate { capset: c.u32()?, capset_type: c.u16()? },
        26 => CapsetDelete { capset: c.u32()? },
        27 => CapsetAssignCap { capset: c.u32()?, cap: c.u16()? },
        28 => CapsetRemoveCap { capset: c.u32()?, cap: c.u16()? },
        29 => RtsIdentifier { capset: c.u32()?, ident: c.text()? },
        30 => {
            let capset = c.u32()?;
            let (args, trailing_nuls) = split_nul(c.rest())?;
            ProgramArgs { capset, args, trailing_nuls }
        }
        31 => {
            let capset = c.u32()?;
            let (env, trailing_nuls) = split_nul(c.rest())?;
            ProgramEnv { capset, env, trailing_nuls }
        }
        32 => OsProcessPid { capset: c.u32()?, pid: c.u32()? },
        33 => OsProcessParentPid { capset: c.u32()?, ppid: c.u32()? },
        34 => SparkCounters {
            created: c.u64()?,
            dud: c.u64()?,
            overflowed: c.u64()?,
            converted: c.u64()?,
            gcd: c.u64()?,
            fizzled: c.u64()?,
            remaining: c.u64()?,
        },
        35 => SparkCreate,
        36 => SparkDud,
        37 => SparkOverflow,
        38 => SparkRun,
        39 => SparkSteal { victim_cap: c.u16()? },
        40 => SparkFizzle,
        41 => SparkGc,
        42 => {
            let string = c.take(c.left().checked_sub(4)?)?.to_vec();
            InternString { string, id: c.u32()? }
        }
        43 => WallClockTime { capset: c.u32()?, sec: c.u64()?, nsec: c.u32()? },
        44 => ThreadLabel { thread: c.u32()?, label: c.text()? },
        45 => CapCreate { cap: c.u16()? },
        46 => CapDelete { cap: c.u16()? },
        47 => CapDisable { cap: c.u16()? },
        48 => CapEnable { cap: c.u16()? },
        49 => HeapAllocated { heap_capset: c.u32()?, alloc: c.u64()? },
        50 => HeapSize { heap_capset: c.u32()?, size: c.u64()? },
        51 => HeapLive { heap_capset: c.u32()?, live: c.u64()? },
        52 => HeapInfoGhc {
            heap_capset: c.u32()?,
            gens: c.u16()?,
            max_heap_size: c.u64()?,
            alloc_area_size: c.u64()?,
            mblock_size: c.u64()?,
            block_size: c.u64()?,
        },
        53 => GcStatsGhc {
            heap_capset: c.u32()?,
            gen: c.u16()?,
            copied: c.u64()?,
            slop: c.u64()?,
            frag: c.u64()?,
            par_n_threads: c.u32()?,
            par_max_copied: c.u64()?,
            par_tot_copied: c.u64()?,
            par_balanced_copied: if c.left() >= 8 { Some(c.u64()?) } else { None },
        },
        54 => GlobalSyncGc,
        55 => TaskCreate { task: c.u64()?, cap: c.u16()?, kernel_thread: c.u64()? },
        56 => TaskMigrate { task: c.u64()?, cap: c.u16()?, new_cap: c.u16()? },
        57 => TaskDelete { task: c.u64()? },
        58 => UserMarker { marker: c.text()? },
        _ => return read_more(ty, c),
    })
}

/// The types from 60 on: Eden, memory, Mercury, perf, profiling, non-moving GC, ticky.
fn read_more(ty: u16, c: &mut Cursor<'_>) -> Option<Event> {
    use Event::*;
    Some(match ty {
        60 => EdenStartReceive,
        61 => EdenEndReceive,
        62 => CreateProcess { process: c.u32()? },
        63 => KillProcess { process: c.u32()? },
        64 => AssignThreadToProcess { thread: c.u32()?, process: c.u32()? },
        65 => CreateMachine { machine: c.u16()?, realtime: c.u64()? },
        66 => KillMachine { machine: c.u16()? },
        67 => SendMessage {
            tag: c.u8()?,
            sender_process: c.u32()?,
            sender_thread: c.u32()?,
            receiver_machine: c.u16()?,
            receiver_process: c.u32()?,
            receiver_inport: c.u32()?,
        },
        68 => ReceiveMessage {
            tag: c.u8()?,
            receiver_process: c.u32()?,
            receiver_inport: c.u32()?,
            sender_machine: c.u16()?,
            sender_process: c.u32()?,
            sender_thread: c.u32()?,
            message_size: c.u32()?,
        },
        69 => SendReceiveLocalMessage {
            tag: c.u8()?,
            sender_process: c.u32()?,
            sender_thread: c.u32()?,
            receiver_process: c.u32()?,
            receiver_inport: c.u32()?,
        },
        90 => MemReturn { heap_capset: c.u32()?, current: c.u32()?, needed: c.u32()?, returned: c.u32()? },
        91 => BlocksSize { heap_capset: c.u32()?, size: c.u64()? },
        100 => MerStartParConjunction { dyn_id: c.u64()?, static_id: c.u32()? },
        101 => MerEndParConjunction { dyn_id: c.u64()? },
        102 => MerEndParConjunct { dyn_id: c.u64()? },
        103 => MerCreateSpark { dyn_id: c.u64()?, spark_id: c.u32()? },
        104 => MerFutureCreate { future_id: c.u64()?, name_id: c.u32()? },
        105 => MerFutureWaitNosuspend { future_id: c.u64()? },
        106 => MerFutureWaitSuspended { future_id: c.u64()? },
        107 => MerFutureSignal { future_id: c.u64()? },
        108 => MerLookingForGlobalThread,
        109 => MerWorkStealing,
        110 => MerReleaseThread { thread: c.u32()? },
        111 => MerCapSleeping,
        112 => MerLookingForLocalSpark,
        113 => MerCallingMain,
        140 => PerfName { perf_num: c.u32()?, name: c.text()? },
        141 => PerfCounter { perf_num: c.u32()?, tid: c.u64()?, period: c.u64()? },
        142 => PerfTracepoint { perf_num: c.u32()?, tid: c.u64()? },
        160 => {
            let (id, sampling_period, breakdown) = (c.u8()?, c.u64()?, c.u32()?);
            if !(1..=9).contains(&breakdown) {
                return None;
            }
            HeapProfBegin {
                id,
                sampling_period,
                breakdown,
                module_filter: c.nul_text()?,
                closure_descr_filter: c.nul_text()?,
                type_descr_filter: c.nul_text()?,
                cost_centre_filter: c.nul_text()?,
                cost_centre_stack_filter: c.nul_text()?,
                retainer_filter: c.nul_text()?,
                biography_filter: c.nul_text()?,
            }
        }
        161 => HeapProfCostCentre {
            id: c.u32()?,
            label: c.nul_text()?,
            module: c.nul_text()?,
            src_loc: c.nul_text()?,
            flags: c.u8()?,
        },
        162 => HeapProfSampleBegin { era: c.u64()? },
        163 => HeapProfSampleCostCentre { id: c.u8()?, residency: c.u64()?, stack: c.stack()? },
        164 => HeapProfSampleString { id: c.u8()?, residency: c.u64()?, label: c.nul_text()? },
        165 => HeapProfSampleEnd { era: c.u64()? },
        166 => HeapBioProfSampleBegin { era: c.u64()?, time: c.u64()? },
        167 => ProfSampleCostCentre { cap: c.u32()?, ticks: c.u64()?, stack: c.stack()? },
        168 => ProfBegin { tick_interval: c.u64()? },
        169 => {
            let (info, table_name, closure_desc) = (c.u64()?, c.nul_text()?, c.nul_text()?);
            // ghc-events reads the closure type as a decimal number and fails without one.
            if !closure_desc.starts_with(|ch: char| ch.is_ascii_digit()) {
                return None;
            }
            InfoTableProv {
                info,
                table_name,
                closure_desc,
                ty_desc: c.nul_text()?,
                label: c.nul_text()?,
                module: c.nul_text()?,
                src_loc: c.nul_text()?,
            }
        }
        181 => UserBinaryMessage { payload: c.rest().to_vec() },
        200 => ConcMarkBegin,
        201 => ConcMarkEnd { marked_objects: c.u32()? },
        202 => ConcSyncBegin,
        203 => ConcSyncEnd,
        204 => ConcSweepBegin,
        205 => ConcSweepEnd,
        206 => ConcUpdRemSetFlush { cap: c.u16()? },
        207 => {
            // Before GHC #23340 the census wrote the block size's logarithm in one byte.
            let (blk_size, blk_size_log2) = if c.left() == 13 {
                let log2 = c.u8()?;
                (1u16.checked_shl(u32::from(log2)).unwrap_or(0), Some(log2))
            } else {
                (c.u16()?, None)
            };
            NonmovingHeapCensus {
                blk_size,
                blk_size_log2,
                active_segs: c.u32()?,
                filled_segs: c.u32()?,
                live_blocks: c.u32()?,
            }
        }
        208 => NonmovingPrunedSegments { pruned_segments: c.u32()?, free_segments: c.u32()? },
        210 => {
            let (id, arity, kinds, name) = (c.u64()?, c.u16()?, c.nul_text()?, c.nul_text()?);
            // Older RTSs stop after the name; newer add the info table, then a JSON description.
            let info_table = if c.left() >= 8 { Some(c.u64()?) } else { None };
            let json_desc = if info_table.is_some() && c.left() > 0 { c.nul_text() } else { None };
            TickyCounterDef { id, arity, kinds, name, info_table, json_desc }
        }
        211 => TickyCounterSample { id: c.u64()?, entry_count: c.u64()?, allocs: c.u64()?, allocd: c.u64()? },
        212 => TickyBeginSample,
        _ => return None,
    })
}
