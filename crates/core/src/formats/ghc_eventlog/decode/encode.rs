//! Writing events back to payloads.

use super::Event;

/// A payload being written, big-endian.
#[derive(Default)]
struct Out(Vec<u8>);

impl Out {
    fn u8(&mut self, v: u8) -> &mut Self {
        self.0.push(v);
        self
    }

    fn u16(&mut self, v: u16) -> &mut Self {
        self.0.extend_from_slice(&v.to_be_bytes());
        self
    }

    fn u32(&mut self, v: u32) -> &mut Self {
        self.0.extend_from_slice(&v.to_be_bytes());
        self
    }

    fn u64(&mut self, v: u64) -> &mut Self {
        self.0.extend_from_slice(&v.to_be_bytes());
        self
    }

    fn bytes(&mut self, v: &[u8]) -> &mut Self {
        self.0.extend_from_slice(v);
        self
    }

    /// A NUL-terminated string.
    fn nul(&mut self, v: &str) -> &mut Self {
        self.bytes(v.as_bytes()).u8(0)
    }

    /// A stack: its depth (at most 255 entries are written), then its entries.
    fn stack(&mut self, stack: &[u32]) -> &mut Self {
        let stack = &stack[..stack.len().min(usize::from(u8::MAX))];
        self.u8(stack.len() as u8);
        for &cc in stack {
            self.u32(cc);
        }
        self
    }

    /// NUL-separated strings, then `trailing` NULs.
    fn nul_separated(&mut self, strings: &[String], trailing: u16) -> &mut Self {
        for (i, s) in strings.iter().enumerate() {
            if i > 0 {
                self.u8(0);
            }
            self.bytes(s.as_bytes());
        }
        for _ in 0..trailing {
            self.u8(0);
        }
        self
    }
}

/// Encodes `event`: its type id and its payload (for a variable-size type,
/// the bytes after the length), with `extra` appended. Decoding the payload
/// under a header that declares the type with the size of the layout written
/// gives `event` back (and `extra`). Strings with NULs, stacks longer than
/// 255 entries and a `Some(0xFFFF)` cap do not survive the trip.
pub fn encode(event: &Event, extra: &[u8]) -> (u16, Vec<u8>) {
    let mut o = Out::default();
    let ty = fields(event, &mut o);
    o.bytes(extra);
    (ty, o.0)
}

/// Writes the fields of `event`; gives its type id.
fn fields(event: &Event, o: &mut Out) -> u16 {
    use Event::*;
    match event {
        CreateThread { thread } => {
            o.u32(*thread);
            0
        }
        RunThread { thread } => {
            o.u32(*thread);
            1
        }
        StopThread { thread, status, blocked_on } => {
            o.u32(*thread).u16(*status).u32(*blocked_on);
            2
        }
        ThreadRunnable { thread } => {
            o.u32(*thread);
            3
        }
        MigrateThread { thread, new_cap } => {
            o.u32(*thread).u16(*new_cap);
            4
        }
        RunSpark { thread } => {
            o.u32(*thread);
            5
        }
        StealSpark { thread, victim_cap } => {
            o.u32(*thread).u16(*victim_cap);
            6
        }
        Shutdown => 7,
        WakeupThread { thread, other_cap } => {
            o.u32(*thread).u16(*other_cap);
            8
        }
        StartGc => 9,
        EndGc => 10,
        RequestSeqGc => 11,
        RequestParGc => 12,
        CreateSparkThread { spark_thread } => {
            o.u32(*spark_thread);
            15
        }
        Message { message } => {
            o.bytes(message.as_bytes());
            16
        }
        Startup { n_caps } => {
            o.u16(*n_caps);
            17
        }
        EventBlock { end_time, cap, block_size } => {
            o.u32(*block_size).u64(*end_time).u16(cap.unwrap_or(0xFFFF));
            18
        }
        UserMessage { message } => {
            o.bytes(message.as_bytes());
            19
        }
        GcIdle => 20,
        GcWork => 21,
        GcDone => 22,
        Version { version } => {
            o.bytes(version);
            23
        }
        ProgramInvocation { commandline } => {
            o.bytes(commandline);
            24
        }
        CapsetCreate { capset, capset_type } => {
            o.u32(*capset).u16(*capset_type);
            25
        }
        CapsetDelete { capset } => {
            o.u32(*capset);
            26
        }
        CapsetAssignCap { capset, cap } => {
            o.u32(*capset).u16(*cap);
            27
        }
        CapsetRemoveCap { capset, cap } => {
            o.u32(*capset).u16(*cap);
            28
        }
        RtsIdentifier { capset, ident } => {
            o.u32(*capset).bytes(ident.as_bytes());
            29
        }
        ProgramArgs { capset, args, trailing_nuls } => {
            o.u32(*capset).nul_separated(args, *trailing_nuls);
            30
        }
        ProgramEnv { capset, env, trailing_nuls } => {
            o.u32(*capset).nul_separated(env, *trailing_nuls);
            31
        }
        OsProcessPid { capset, pid } => {
            o.u32(*capset).u32(*pid);
            32
        }
        OsProcessParentPid { capset, ppid } => {
            o.u32(*capset).u32(*ppid);
            33
        }
        SparkCounters { created, dud, overflowed, converted, gcd, fizzled, remaining } => {
            o.u64(*created).u64(*dud).u64(*overflowed).u64(*converted).u64(*gcd).u64(*fizzled).u64(*remaining);
            34
        }
        SparkCreate => 35,
        SparkDud => 36,
        SparkOverflow => 37,
        SparkRun => 38,
        SparkSteal { victim_cap } => {
            o.u16(*victim_cap);
            39
        }
        SparkFizzle => 40,
        SparkGc => 41,
        InternString { string, id } => {
            o.bytes(string).u32(*id);
            42
        }
        WallClockTime { capset, sec, nsec } => {
            o.u32(*capset).u64(*sec).u32(*nsec);
            43
        }
        ThreadLabel { thread, label } => {
            o.u32(*thread).bytes(label.as_bytes());
            44
        }
        CapCreate { cap } => {
            o.u16(*cap);
            45
        }
        CapDelete { cap } => {
            o.u16(*cap);
            46
        }
        CapDisable { cap } => {
            o.u16(*cap);
            47
        }
        CapEnable { cap } => {
            o.u16(*cap);
            48
        }
        HeapAllocated { heap_capset, alloc } => {
            o.u32(*heap_capset).u64(*alloc);
            49
        }
        HeapSize { heap_capset, size } => {
            o.u32(*heap_capset).u64(*size);
            50
        }
        HeapLive { heap_capset, live } => {
            o.u32(*heap_capset).u64(*live);
            51
        }
        HeapInfoGhc { heap_capset, gens, max_heap_size, alloc_area_size, mblock_size, block_size } => {
            o.u32(*heap_capset).u16(*gens).u64(*max_heap_size).u64(*alloc_area_size).u64(*mblock_size);
            o.u64(*block_size);
            52
        }
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
            o.u32(*heap_capset).u16(*gen).u64(*copied).u64(*slop).u64(*frag);
            o.u32(*par_n_threads).u64(*par_max_copied).u64(*par_tot_copied);
            if let Some(b) = par_balanced_copied {
                o.u64(*b);
            }
            53
        }
        GlobalSyncGc => 54,
        TaskCreate { task, cap, kernel_thread } => {
            o.u64(*task).u16(*cap).u64(*kernel_thread);
            55
        }
        TaskMigrate { task, cap, new_cap } => {
            o.u64(*task).u16(*cap).u16(*new_cap);
            56
        }
        TaskDelete { task } => {
            o.u64(*task);
            57
        }
        UserMarker { marker } => {
            o.bytes(marker.as_bytes());
            58
        }
        EdenStartReceive => 60,
        EdenEndReceive => 61,
        CreateProcess { process } => {
            o.u32(*process);
            62
        }
        KillProcess { process } => {
            o.u32(*process);
            63
        }
        AssignThreadToProcess { thread, process } => {
            o.u32(*thread).u32(*process);
            64
        }
        CreateMachine { machine, realtime } => {
            o.u16(*machine).u64(*realtime);
            65
        }
        KillMachine { machine } => {
            o.u16(*machine);
            66
        }
        SendMessage { tag, sender_process, sender_thread, receiver_machine, receiver_process, receiver_inport } => {
            o.u8(*tag).u32(*sender_process).u32(*sender_thread).u16(*receiver_machine);
            o.u32(*receiver_process).u32(*receiver_inport);
            67
        }
        ReceiveMessage {
            tag,
            receiver_process,
            receiver_inport,
            sender_machine,
            sender_process,
            sender_thread,
            message_size,
        } => {
            o.u8(*tag).u32(*receiver_process).u32(*receiver_inport).u16(*sender_machine);
            o.u32(*sender_process).u32(*sender_thread).u32(*message_size);
            68
        }
        SendReceiveLocalMessage { tag, sender_process, sender_thread, receiver_process, receiver_inport } => {
            o.u8(*tag).u32(*sender_process).u32(*sender_thread).u32(*receiver_process).u32(*receiver_inport);
            69
        }
        MemReturn { heap_capset, current, needed, returned } => {
            o.u32(*heap_capset).u32(*current).u32(*needed).u32(*returned);
            90
        }
        BlocksSize { heap_capset, size } => {
            o.u32(*heap_capset).u64(*size);
            91
        }
        MerStartParConjunction { dyn_id, static_id } => {
            o.u64(*dyn_id).u32(*static_id);
            100
        }
        MerEndParConjunction { dyn_id } => {
            o.u64(*dyn_id);
            101
        }
        MerEndParConjunct { dyn_id } => {
            o.u64(*dyn_id);
            102
        }
        MerCreateSpark { dyn_id, spark_id } => {
            o.u64(*dyn_id).u32(*spark_id);
            103
        }
        MerFutureCreate { future_id, name_id } => {
            o.u64(*future_id).u32(*name_id);
            104
        }
        MerFutureWaitNosuspend { future_id } => {
            o.u64(*future_id);
            105
        }
        MerFutureWaitSuspended { future_id } => {
            o.u64(*future_id);
            106
        }
        MerFutureSignal { future_id } => {
            o.u64(*future_id);
            107
        }
        MerLookingForGlobalThread => 108,
        MerWorkStealing => 109,
        MerReleaseThread { thread } => {
            o.u32(*thread);
            110
        }
        MerCapSleeping => 111,
        MerLookingForLocalSpark => 112,
        MerCallingMain => 113,
        PerfName { perf_num, name } => {
            o.u32(*perf_num).bytes(name.as_bytes());
            140
        }
        PerfCounter { perf_num, tid, period } => {
            o.u32(*perf_num).u64(*tid).u64(*period);
            141
        }
        PerfTracepoint { perf_num, tid } => {
            o.u32(*perf_num).u64(*tid);
            142
        }
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
            o.u8(*id).u64(*sampling_period).u32(*breakdown);
            o.nul(module_filter).nul(closure_descr_filter).nul(type_descr_filter).nul(cost_centre_filter);
            o.nul(cost_centre_stack_filter).nul(retainer_filter).nul(biography_filter);
            160
        }
        HeapProfCostCentre { id, label, module, src_loc, flags } => {
            o.u32(*id).nul(label).nul(module).nul(src_loc).u8(*flags);
            161
        }
        HeapProfSampleBegin { era } => {
            o.u64(*era);
            162
        }
        HeapProfSampleCostCentre { id, residency, stack } => {
            o.u8(*id).u64(*residency).stack(stack);
            163
        }
        HeapProfSampleString { id, residency, label } => {
            o.u8(*id).u64(*residency).nul(label);
            164
        }
        HeapProfSampleEnd { era } => {
            o.u64(*era);
            165
        }
        HeapBioProfSampleBegin { era, time } => {
            o.u64(*era).u64(*time);
            166
        }
        ProfSampleCostCentre { cap, ticks, stack } => {
            o.u32(*cap).u64(*ticks).stack(stack);
            167
        }
        ProfBegin { tick_interval } => {
            o.u64(*tick_interval);
            168
        }
        InfoTableProv { info, table_name, closure_desc, ty_desc, label, module, src_loc } => {
            o.u64(*info).nul(table_name).nul(closure_desc).nul(ty_desc).nul(label).nul(module).nul(src_loc);
            169
        }
        UserBinaryMessage { payload } => {
            o.bytes(payload);
            181
        }
        ConcMarkBegin => 200,
        ConcMarkEnd { marked_objects } => {
            o.u32(*marked_objects);
            201
        }
        ConcSyncBegin => 202,
        ConcSyncEnd => 203,
        ConcSweepBegin => 204,
        ConcSweepEnd => 205,
        ConcUpdRemSetFlush { cap } => {
            o.u16(*cap);
            206
        }
        NonmovingHeapCensus { blk_size, blk_size_log2, active_segs, filled_segs, live_blocks } => {
            match blk_size_log2 {
                Some(log2) => o.u8(*log2),
                None => o.u16(*blk_size),
            };
            o.u32(*active_segs).u32(*filled_segs).u32(*live_blocks);
            207
        }
        NonmovingPrunedSegments { pruned_segments, free_segments } => {
            o.u32(*pruned_segments).u32(*free_segments);
            208
        }
        TickyCounterDef { id, arity, kinds, name, info_table, json_desc } => {
            o.u64(*id).u16(*arity).nul(kinds).nul(name);
            if let Some(itbl) = info_table {
                o.u64(*itbl);
                if let Some(json) = json_desc {
                    o.nul(json);
                }
            }
            210
        }
        TickyCounterSample { id, entry_count, allocs, allocd } => {
            o.u64(*id).u64(*entry_count).u64(*allocs).u64(*allocd);
            211
        }
        TickyBeginSample => 212,
        Unknown { ty } => *ty,
    }
}
