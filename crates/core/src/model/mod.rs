//! The one model every format is reconciled into: tasks on lanes, with the
//! dependencies each task waited for.
//!
//! Read-only once built; built only through [`ModelBuilder`]. Times are
//! nanoseconds on the producer's own clock ([`Nanos`]); a task may lack a
//! start or an end (the log never said), and then it has no duration, no
//! edges and no place on a critical path. Analyses read this and nothing
//! of a format's own structures. Beside it, what every format shares about
//! a run: its flame graph ([`flame`]).

mod by_task;
pub mod flame;
mod format_id;
mod input_info;
mod when;

pub use by_task::ByTask;
pub use format_id::FormatId;
pub use input_info::{InputInfo, ReadCounts};
pub use when::When;

use crate::chunk_list::ChunkList;
use crate::hash::FastMap;
use crate::intern::Interner;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::sync::Arc;

/// A model's tasks, in order, indexed by [`TaskId`] ([`ChunkList`]: they never move).
pub type TaskList = ChunkList<Task>;

/// A time or a duration in nanoseconds.
pub type Nanos = i64;

/// Nanoseconds per millisecond.
pub const NANOS_PER_MS: Nanos = 1_000_000;

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
        pub struct $name(pub u32);

        impl $name {
            /// The id as an index into its table.
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}

id_type!(
    /// Index of a [`Task`] in [`Model::tasks`].
    TaskId
);
id_type!(
    /// Index of a [`Lane`] in [`Model::lanes`].
    LaneId
);
id_type!(
    /// Index of a [`Kind`] in [`Model::kinds`].
    KindId
);
id_type!(
    /// A string of the model's string table ([`Model::str`]): uids and names
    /// are stored once, and tasks refer to them.
    Sym
);

/// Where tasks run: a host, a thread, a capability, a pipeline.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Lane {
    /// The lane's name as the log gives it.
    pub name: String,
}

/// A task type, for colour and for time-by-type statistics (`CC`, `Copy`, `prepare:resources`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Kind {
    /// The type's name.
    pub name: String,
    /// A colour name the producer chose (ya's `kv.pc`), if any.
    pub color: Option<String>,
}

/// What part a task plays in the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Real work: a build node, a function call, an operator.
    Work,
    /// Moving a result to where it is needed (a distbuild copy).
    Transfer,
    /// Getting a lane ready before work (a distbuild prepare phase).
    Setup,
    /// A phase of the whole run (a build stage): shown, but no task waits for it.
    Phase,
}

impl Role {
    /// Its name in lower case, as `longpole dump` and the fleet tables write it.
    pub fn name(self) -> &'static str {
        match self {
            Role::Work => "work",
            Role::Transfer => "transfer",
            Role::Setup => "setup",
            Role::Phase => "phase",
        }
    }
}

/// What a producer says of a task beyond its times (ya's build-graph node:
/// `node-type`, `kv.run_test_node`, `tags`, `platform`). Shared between tasks.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TaskMeta {
    /// The node's type (`test`, `download`...), if given.
    pub node_type: Option<String>,
    /// The node runs a test (ya's `kv.run_test_node`).
    pub runs_test: bool,
    /// Tags.
    pub tags: Vec<String>,
    /// Platform.
    pub platform: Option<String>,
}

/// What a task produced or moved: its bytes, and for a transfer where the
/// data came from and whom it was for. Most tasks have none of it, so it is
/// kept beside the tasks ([`Model::payload`]), not in each [`Task`] (32
/// bytes a task rather than 80: millions of them in a large log).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Payload {
    /// Bytes it produced or moved, if known.
    pub bytes: Option<u64>,
    /// For a transfer: the lane the data came from.
    pub origin: Option<LaneId>,
    /// For a transfer: the uid of the task the data was delivered to.
    pub target: Option<Sym>,
}

/// One unit of work with its times.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Task {
    /// The producer's identifier (a build-graph uid, a prepare type).
    /// What to show for it, when the producer gives more than the uid, is
    /// kept beside the tasks ([`Model::name`]).
    pub uid: Sym,
    /// Its type.
    pub kind: KindId,
    /// Its part in the run.
    pub role: Role,
    /// Where it ran.
    pub lane: LaneId,
    /// When it started, if known.
    pub start: When,
    /// When it ended, if known.
    pub end: When,
    /// The result came from a cache rather than being computed.
    pub cached: bool,
    /// The task failed.
    pub failed: bool,
}

impl Task {
    /// A task with these essentials and nothing else known (no name, bytes,
    /// origin, target or metadata; not cached, not failed).
    pub fn new(uid: Sym, kind: KindId, role: Role, lane: LaneId, start: Option<Nanos>, end: Option<Nanos>) -> Task {
        Task { uid, kind, role, lane, start: start.into(), end: end.into(), cached: false, failed: false }
    }

    /// End minus start, when both are known.
    pub fn duration(&self) -> Option<Nanos> {
        Some(self.end.get()?.saturating_sub(self.start.get()?))
    }
}

/// A task's name in [`Model`]'s names: a [`Sym`], or none (4 bytes, where
/// an `Option<Sym>` takes 8: a GHC thread with a label names each of its
/// runs, and every task before the last of them has a slot).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct NameSlot(u32);

impl Default for NameSlot {
    fn default() -> Self {
        NameSlot(u32::MAX)
    }
}

impl NameSlot {
    fn get(self) -> Option<Sym> {
        (self.0 != u32::MAX).then_some(Sym(self.0))
    }
}

/// The reconciled run: tasks, lanes, kinds and dependencies.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Model {
    #[serde(skip)]
    strings: Interner,
    lanes: Vec<Lane>,
    kinds: Vec<Kind>,
    tasks: TaskList,
    /// What some tasks produced or moved.
    #[serde(skip)]
    payloads: ByTask<Payload>,
    /// What the producer says of some tasks beyond their times.
    #[serde(skip)]
    metas: ByTask<Option<Arc<TaskMeta>>>,
    /// What to show for some tasks (a description, a command).
    #[serde(skip)]
    names: ByTask<NameSlot>,
    /// `deps[dep_start[t]..dep_start[t + 1]]` are the tasks `t` waited for,
    /// in the producer's order; empty when no task waited for any (a log
    /// that records no dependencies has millions of tasks and no edge).
    dep_start: Vec<u32>,
    deps: Vec<TaskId>,
    window: Option<(Nanos, Nanos)>,
    /// Tasks per [`Role`], counted once by [`ModelBuilder::build`].
    #[serde(skip)]
    roles: [usize; 4],
}

impl Model {
    /// How many tasks have this role.
    pub fn count(&self, role: Role) -> usize {
        self.roles[role as usize]
    }

    /// All tasks; a [`TaskId`] indexes this.
    pub fn tasks(&self) -> &TaskList {
        &self.tasks
    }

    /// One task.
    pub fn task(&self, id: TaskId) -> &Task {
        &self.tasks[id.index()]
    }

    /// All lanes; a [`LaneId`] indexes this.
    pub fn lanes(&self) -> &[Lane] {
        &self.lanes
    }

    /// All kinds; a [`KindId`] indexes this.
    pub fn kinds(&self) -> &[Kind] {
        &self.kinds
    }

    /// A string of the string table.
    pub fn str(&self, s: Sym) -> &str {
        self.strings.name(s.0)
    }

    /// What task `id` produced or moved, if known.
    pub fn payload(&self, id: TaskId) -> Option<&Payload> {
        self.payloads.get(id)
    }

    /// Every task's payload, by id.
    pub fn payloads(&self) -> &ByTask<Payload> {
        &self.payloads
    }

    /// Bytes task `id` produced or moved, if known.
    pub fn bytes(&self, id: TaskId) -> Option<u64> {
        self.payload(id)?.bytes
    }

    /// For a transfer: the lane the data came from.
    pub fn origin(&self, id: TaskId) -> Option<LaneId> {
        self.payload(id)?.origin
    }

    /// For a transfer: the uid of the task the data was delivered to.
    pub fn target(&self, id: TaskId) -> Option<Sym> {
        self.payload(id)?.target
    }

    /// What the producer says of task `id` beyond its times, if anything.
    pub fn meta(&self, id: TaskId) -> Option<&TaskMeta> {
        self.metas.get(id)?.as_deref()
    }

    /// What to show for task `id` (a description, a command), when the
    /// producer gives more than its uid; see [`Model::label`].
    pub fn name(&self, id: TaskId) -> Option<Sym> {
        self.names.get(id).and_then(|n| n.get())
    }

    /// A task's uid.
    pub fn uid(&self, id: TaskId) -> &str {
        self.str(self.task(id).uid)
    }

    /// What to show for a task: its name, or for a transfer
    /// `copy(<origin> -> <lane>) result of <uid>`, or its uid.
    pub fn label(&self, id: TaskId) -> Cow<'_, str> {
        let t = self.task(id);
        match (self.name(id), t.role) {
            (Some(name), _) => Cow::Borrowed(self.str(name)),
            (None, Role::Transfer) => {
                let origin = self.origin(id).map_or("?", |o| self.lanes[o.index()].name.as_str());
                Cow::Owned(format!("copy({origin} -> {}) result of {}", self.lanes[t.lane.index()].name, self.uid(id)))
            }
            (None, _) => Cow::Borrowed(self.uid(id)),
        }
    }

    /// The tasks `id` waited for, in the producer's order.
    pub fn deps(&self, id: TaskId) -> &[TaskId] {
        match (self.dep_start.get(id.index()), self.dep_start.get(id.index() + 1)) {
            (Some(&a), Some(&b)) => &self.deps[a as usize..b as usize],
            _ => &[],
        }
    }

    /// Number of dependency edges.
    pub fn edge_count(&self) -> usize {
        self.deps.len()
    }

    /// The run's first and last time as the producer defines them
    /// (ya: the smallest and largest timestamp of the log's lines).
    pub fn window(&self) -> Option<(Nanos, Nanos)> {
        self.window
    }

    /// Wall time: the window's length.
    pub fn wall(&self) -> Option<Nanos> {
        self.window.map(|(a, b)| b.saturating_sub(a))
    }
}

/// Builds a [`Model`]: add lanes, kinds and tasks, then the dependencies of
/// each task in order, then [`ModelBuilder::build`].
#[derive(Debug, Default)]
pub struct ModelBuilder {
    model: Model,
    lane_ids: FastMap<String, LaneId>,
    kind_ids: FastMap<String, KindId>,
    /// (task, dependency) in the order recorded.
    edges: Vec<(TaskId, TaskId)>,
}

impl ModelBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        Self::default()
    }

    /// The symbol of `s` in the string table, added on first use.
    pub fn sym(&mut self, s: &str) -> Sym {
        Sym(self.model.strings.intern(s))
    }

    /// [`ModelBuilder::sym`] for a string whose [`crate::hash::hash_bytes`] is known.
    pub fn sym_hashed(&mut self, s: &str, hash: u64) -> Sym {
        Sym(self.model.strings.intern_hashed(s, hash))
    }

    /// The symbol of the string whose bytes are `bytes` and whose
    /// [`crate::hash::hash_bytes`] is `hash`, if it is in the table.
    pub fn find_sym_hashed(&self, bytes: &[u8], hash: u64) -> Option<Sym> {
        self.model.strings.get_hashed(bytes, hash).map(Sym)
    }

    /// A symbol for `s` that is its own: not shared with an equal string,
    /// and not found by [`ModelBuilder::find_sym`] ([`Interner::push`]). For
    /// text only ever read back by its symbol, such as the name of each of
    /// a million build nodes (nearly all distinct), which then costs no
    /// hashing and no slot in the table.
    pub fn own_sym(&mut self, s: &str) -> Sym {
        Sym(self.model.strings.push(s))
    }

    /// Makes room for `count` more strings of `bytes` bytes in all, given
    /// to [`ModelBuilder::own_sym`].
    pub fn reserve_own_syms(&mut self, bytes: usize, count: usize) {
        self.model.strings.reserve_pushed(bytes, count);
    }

    /// The symbol of `s`, if it is in the table.
    pub fn find_sym(&self, s: &str) -> Option<Sym> {
        self.model.strings.get(s).map(Sym)
    }

    /// A string of the table so far.
    pub fn str(&self, s: Sym) -> &str {
        self.model.strings.name(s.0)
    }

    /// Number of strings in the table so far: every symbol is below it.
    pub fn str_count(&self) -> usize {
        self.model.strings.len()
    }

    /// The lane named `name`, added on first use.
    pub fn lane(&mut self, name: &str) -> LaneId {
        if let Some(&id) = self.lane_ids.get(name) {
            return id;
        }
        let id = LaneId(self.model.lanes.len() as u32);
        self.model.lanes.push(Lane { name: name.to_owned() });
        self.lane_ids.insert(name.to_owned(), id);
        id
    }

    /// Puts the lanes `first` before all others, in that order; the others
    /// keep their order after them. Tasks keep their lanes.
    pub fn lanes_first(&mut self, first: &[LaneId]) {
        let n = self.model.lanes.len();
        let mut order: Vec<usize> = first.iter().map(|l| l.index()).filter(|&i| i < n).collect();
        let mut placed = vec![false; n];
        order.retain(|&i| !std::mem::replace(&mut placed[i], true));
        order.extend((0..n).filter(|&i| !placed[i]));
        if order.iter().enumerate().all(|(at, &i)| at == i) {
            return;
        }
        let mut new_id = vec![LaneId(0); n];
        for (at, &i) in order.iter().enumerate() {
            new_id[i] = LaneId(at as u32);
        }
        let mut old: Vec<Option<Lane>> = std::mem::take(&mut self.model.lanes).into_iter().map(Some).collect();
        self.model.lanes = order.iter().filter_map(|&i| old[i].take()).collect();
        for id in self.lane_ids.values_mut() {
            *id = new_id[id.index()];
        }
        self.relabel_lanes(&new_id);
    }

    /// Moves every task (and transfer origin) from lane `l` to `new_id[l]`.
    fn relabel_lanes(&mut self, new_id: &[LaneId]) {
        for t in self.model.tasks.iter_mut() {
            t.lane = new_id[t.lane.index()];
        }
        for o in self.model.payloads.values_mut().filter_map(|p| p.origin.as_mut()) {
            *o = new_id[o.index()];
        }
    }

    /// The kind named `name`, added on first use; a colour given later fills one not yet known.
    pub fn kind(&mut self, name: &str, color: Option<&str>) -> KindId {
        if let Some(&id) = self.kind_ids.get(name) {
            let kind = &mut self.model.kinds[id.index()];
            if kind.color.is_none() {
                kind.color = color.map(str::to_owned);
            }
            return id;
        }
        let id = KindId(self.model.kinds.len() as u32);
        self.model.kinds.push(Kind { name: name.to_owned(), color: color.map(str::to_owned) });
        self.kind_ids.insert(name.to_owned(), id);
        id
    }

    /// Adds a task, returning its id.
    pub fn task(&mut self, task: Task) -> TaskId {
        TaskId(self.model.tasks.push(task) as u32)
    }

    /// Tasks added so far.
    pub fn len(&self) -> usize {
        self.model.tasks.len()
    }

    /// No task added yet.
    pub fn is_empty(&self) -> bool {
        self.model.tasks.is_empty()
    }

    /// A task added so far.
    pub fn get(&self, id: TaskId) -> &Task {
        &self.model.tasks[id.index()]
    }

    /// Adds a task with its name beyond the uid, if it has one
    /// ([`ModelBuilder::task`], then [`ModelBuilder::set_name`]).
    pub fn named_task(&mut self, task: Task, name: Option<Sym>) -> TaskId {
        let id = self.task(task);
        if let Some(name) = name {
            self.set_name(id, name);
        }
        id
    }

    /// A task added so far, to change.
    pub fn get_mut(&mut self, id: TaskId) -> &mut Task {
        self.model.tasks.get_mut(id.index()).expect("a task id from this builder")
    }

    /// What task `id` produced or moved, to fill (made empty on first use).
    pub fn payload_mut(&mut self, id: TaskId) -> &mut Payload {
        self.model.payloads.entry(id)
    }

    /// What task `id` produced or moved, as set so far.
    pub fn payload(&self, id: TaskId) -> Option<&Payload> {
        self.model.payloads.get(id)
    }

    /// Sets what to show for task `id` ([`Model::name`]).
    pub fn set_name(&mut self, id: TaskId, name: Sym) {
        self.model.names.set(id, NameSlot(name.0));
    }

    /// Sets what the producer says of task `id` beyond its times.
    pub fn set_meta(&mut self, id: TaskId, meta: Arc<TaskMeta>) {
        self.model.metas.set(id, Some(meta));
    }

    /// Makes room for `additional` more dependencies, exactly: a caller that
    /// knows how many are coming saves the slack of a growing list.
    pub fn reserve_edges(&mut self, additional: usize) {
        self.edges.reserve_exact(additional);
    }

    /// Records that `task` waited for `dep` (after the dependencies recorded before).
    pub fn depends(&mut self, task: TaskId, dep: TaskId) {
        self.edges.push((task, dep));
    }

    /// Sets the run's window (see [`Model::window`]).
    pub fn window(&mut self, first: Nanos, last: Nanos) {
        self.model.window = Some((first, last));
    }

    /// The finished model: kinds and lanes no task uses are dropped; dependencies are
    /// grouped per task (a stable counting sort, so each task keeps the order
    /// its dependencies were recorded in).
    pub fn build(mut self) -> Model {
        // One pass over the tasks: the kinds and lanes they use, and their roles.
        let mut used = vec![false; self.model.kinds.len()];
        let mut used_lanes = vec![false; self.model.lanes.len()];
        let mut roles = [0; 4];
        for t in &self.model.tasks {
            used[t.kind.index()] = true;
            used_lanes[t.lane.index()] = true;
            roles[t.role as usize] += 1;
        }
        for (_, p) in self.model.payloads.iter() {
            if let Some(o) = p.origin {
                used_lanes[o.index()] = true;
            }
        }
        self.model.roles = roles;
        if used.iter().any(|u| !u) {
            let mut new_id = vec![0u32; used.len()];
            let mut kept = Vec::new();
            for (i, kind) in std::mem::take(&mut self.model.kinds).into_iter().enumerate() {
                if used[i] {
                    new_id[i] = kept.len() as u32;
                    kept.push(kind);
                }
            }
            self.model.kinds = kept;
            self.model.tasks.iter_mut().for_each(|t| t.kind = KindId(new_id[t.kind.index()]));
        }
        let used = used_lanes;
        if used.iter().any(|u| !u) {
            let mut new_id = vec![LaneId(0); used.len()];
            let mut kept = Vec::new();
            for (i, lane) in std::mem::take(&mut self.model.lanes).into_iter().enumerate() {
                if used[i] {
                    new_id[i] = LaneId(kept.len() as u32);
                    kept.push(lane);
                }
            }
            self.model.lanes = kept;
            self.relabel_lanes(&new_id);
        }
        if self.edges.is_empty() {
            return self.model;
        }
        let n = self.model.tasks.len();
        let mut start = vec![0u32; n + 1];
        for &(t, _) in &self.edges {
            start[t.index() + 1] += 1;
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        // Filled from the back, so `start[t + 1]` steps down from the end of
        // t's dependencies to their beginning; then every entry moves down one.
        let mut deps = vec![TaskId(0); self.edges.len()];
        for &(t, d) in self.edges.iter().rev() {
            start[t.index() + 1] -= 1;
            deps[start[t.index() + 1] as usize] = d;
        }
        start.copy_within(1.., 0);
        start[n] = deps.len() as u32;
        self.model.deps = deps;
        self.model.dep_start = start;
        self.model
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builder_interns_lanes_and_kinds_and_keeps_dependency_order() {
        let mut b = ModelBuilder::new();
        let (h1, h2) = (b.lane("host1"), b.lane("host2"));
        assert_eq!(b.lane("host1"), h1);
        let cc = b.kind("CC", None);
        assert_eq!(b.kind("CC", Some("green")), cc);
        let u = b.sym("u");
        let task = |lane, start, end| Task::new(u, cc, Role::Work, lane, start, end);
        let a = b.task(task(h1, Some(0), Some(5)));
        let c = b.task(task(h2, Some(1), None));
        let d = b.task(task(h2, Some(6), Some(9)));
        b.depends(d, c);
        b.depends(d, a);
        let m = b.build();
        assert_eq!(m.deps(d), &[c, a]);
        assert!(m.deps(a).is_empty());
        assert_eq!(m.kinds()[0].color.as_deref(), Some("green"));
        assert_eq!(m.task(a).duration(), Some(5));
        assert_eq!(m.task(c).duration(), None);
        assert_eq!(m.edge_count(), 2);
        assert_eq!(m.label(a), "u");
    }

    #[test]
    fn lanes_first_moves_lanes_and_keeps_each_task_on_its_lane() {
        let mut b = ModelBuilder::new();
        let (x, y, z) = (b.lane("x"), b.lane("y"), b.lane("z"));
        let (k, u) = (b.kind("K", None), b.sym("u"));
        let on = |lane| Task::new(u, k, Role::Work, lane, None, None);
        let (tx, tz) = (b.task(on(x)), b.task(on(z)));
        let ty = b.task(on(y));
        b.payload_mut(ty).origin = Some(x);
        b.lanes_first(&[z, y, z]);
        assert_eq!(b.lane("x"), LaneId(2));
        let m = b.build();
        let name = |l: LaneId| m.lanes()[l.index()].name.as_str();
        assert_eq!(m.lanes().iter().map(|l| l.name.as_str()).collect::<Vec<_>>(), ["z", "y", "x"]);
        assert_eq!([tx, ty, tz].map(|t| name(m.task(t).lane)), ["x", "y", "z"]);
        assert_eq!(m.origin(ty).map(name), Some("x"));
    }

    #[test]
    fn a_task_takes_32_bytes() {
        // Millions of tasks in a large log: every byte here is megabytes there.
        assert_eq!(std::mem::size_of::<Task>(), 32);
    }

    #[test]
    fn tasks_are_counted_by_role() {
        let mut b = ModelBuilder::new();
        let (h, k, u) = (b.lane("h"), b.kind("K", None), b.sym("u"));
        for role in [Role::Work, Role::Transfer, Role::Work, Role::Phase] {
            b.task(Task::new(u, k, role, h, None, None));
        }
        let m = b.build();
        let counts = [Role::Work, Role::Transfer, Role::Setup, Role::Phase].map(|r| m.count(r));
        assert_eq!(counts, [2, 1, 0, 1]);
    }
}
