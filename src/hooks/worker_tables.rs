//! The SQL tables the analysis worker makes for the SQL tab
//! ([`Request::SqlTables`](crate::protocol::Request::SqlTables)): who waits
//! for them. The worker posts each table as a file (an Arrow IPC stream),
//! which goes to the one waiting instead of the browser's download, then
//! says how it ended.

use super::use_export_worker::{Delivered, Receiver};
use crate::protocol::RunId;
use js_sys::Reflect;
// The tables' media type: no other file of the analysis worker has it.
use longpole_core::export::sql::ARROW_STREAM;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsValue;

/// The run whose tables are waited for, and who gets them (the last asked
/// replaces the one before).
#[derive(Clone, Default)]
pub struct PendingTables(Rc<RefCell<Option<(RunId, Receiver)>>>);

impl PendingTables {
    /// Waits for run `run`'s tables on behalf of `receiver`.
    pub fn wait(&self, run: RunId, receiver: Receiver) {
        *self.0.borrow_mut() = Some((run, receiver));
    }

    /// Stops waiting, telling no one: the request could not be sent.
    pub fn forget(&self) {
        self.0.borrow_mut().take();
    }

    /// Hands a worker's file message to the one waiting, if it is one of
    /// the tables waited for; false if it is not (another file, to save).
    pub fn take_file(&self, data: &JsValue) -> bool {
        let mime = Reflect::get(data, &"mime".into()).ok().and_then(|v| v.as_string());
        let run = Reflect::get(data, &"run".into()).ok().and_then(|v| v.as_f64());
        match self.0.borrow().as_ref() {
            Some((r, receiver)) if mime.as_deref() == Some(ARROW_STREAM) && run == Some(f64::from(*r)) => {
                receiver.emit(Delivered::File(data.clone()));
                true
            }
            _ => false,
        }
    }

    /// Run `run`'s tables are all posted, or `failed` says why not.
    pub fn end(&self, run: RunId, failed: Option<String>) {
        let taken = self.0.borrow_mut().take_if(|(r, _)| *r == run);
        if let Some((_, receiver)) = taken {
            receiver.emit(Delivered::Over(failed.map_or(Ok(()), Err)));
        }
    }
}
