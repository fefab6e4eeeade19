//! What one page's transport holds between its questions: the loaded run
//! and the comparison, if any, and the dispatch of a question to them.

use crate::compared::Compared;
use crate::loaded::Loaded;
use crate::protocol::{CompareSettings, Request, RunId};
use crate::sink::Sink;
use longpole_core::Analysis;

/// The loaded run and the comparison the page asks about.
#[derive(Default)]
pub struct Session {
    /// The last finished run.
    pub loaded: Option<Loaded>,
    /// The sides of the last comparison.
    pub compared: Option<Compared>,
}

impl Session {
    /// Compares sides `a` (`None`: the loaded run) and `b` of run `run` with
    /// `settings`, sends the answer into `sink` ([`Compared::answer`]) and
    /// keeps the sides.
    pub fn compare(
        &mut self,
        run: RunId,
        (a, b): (Option<Analysis>, Analysis),
        settings: CompareSettings,
        elapsed_ms: &dyn Fn() -> f64,
        sink: &mut dyn Sink,
    ) {
        let mut sides = Compared::new(run, a, b, self.loaded.as_ref());
        sides.answer(self.loaded.as_ref(), settings, elapsed_ms, sink);
        self.compared = Some(sides);
    }

    /// Answers a question about the loaded run or the comparison into
    /// `sink`; `elapsed_ms` gives the time since it came. The requests that
    /// read inputs or steer reading (`Analyze`, `AnalyzeUrls`,
    /// `CompareFiles`, `ReadGraph`, `SqlTables`, `Cancel`) are the
    /// transport's, and get no answer here.
    pub fn answer(&mut self, request: Request, elapsed_ms: &dyn Fn() -> f64, sink: &mut dyn Sink) {
        match request {
            Request::Analyze { .. }
            | Request::AnalyzeUrls { .. }
            | Request::CompareFiles { .. }
            | Request::ReadGraph
            | Request::SqlTables { .. }
            | Request::Cancel { .. } => {}
            Request::Recompare { .. }
            | Request::ExportComparison { .. }
            | Request::CompareRows { .. }
            | Request::ExportCompareRows { .. }
            | Request::CompareWindow { .. } => {
                if let Some(c) = self.compared.as_mut() {
                    c.respond(self.loaded.as_ref(), request, elapsed_ms, sink);
                }
            }
            _ => {
                if let Some(l) = &self.loaded {
                    crate::run_answers::answer(l, request, sink);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::Response;
    use crate::sink::{Item, Kept};
    use longpole_core::ingest::read_bytes;

    /// A distbuild log of one node, prepared from 1000 to 1500 µs.
    fn loaded(run: u32) -> Session {
        let input = read_bytes("x.log", b"1000 prepare_start  7\n1500 resources_prepared  7\n", 7).unwrap();
        Session { loaded: Some(Loaded::of(run, longpole_core::reconcile(vec![input]))), compared: None }
    }

    #[test]
    fn only_questions_about_the_loaded_run_and_what_it_has_are_answered() {
        let mut s = loaded(5);
        let mut sink = Kept::default();
        let asked = [
            Request::ReportText { run: 4 },
            Request::Details { run: 5, task: 99 },
            Request::CompareRows { run: 5, query: Default::default() },
            Request::Cancel { run: 5 },
        ];
        for request in asked {
            s.answer(request, &|| 0.0, &mut sink);
        }
        assert_eq!(sink.items, []);
        s.answer(Request::ReportText { run: 5 }, &|| 0.0, &mut sink);
        assert!(matches!(sink.items.as_slice(), [Item::Message(Response::ReportText { run: 5, .. })]), "{sink:?}");
    }
}
