//! A file's slices read on another thread (`slice_reader.js`) for a worker
//! that parses them. In Chromium a `Blob`'s bytes reach an `ArrayBuffer`
//! through tasks of the thread that asked for them, so a worker that asks
//! for the next slice and then parses this one receives nothing while it
//! parses: reading and parsing take turns. Asked of a second thread, the
//! next slices arrive meanwhile, transferred, not copied.

use crate::worker_io::js_error;
use js_sys::{Function, Object, Promise, Reflect};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Event, File, MessageEvent, Worker};

/// The reader's script, beside the worker's (index.html copies it).
const READER_URL: &str = "./slice_reader.js";
/// Slices handed over and not yet taken, at most: one to parse, one arriving.
const AHEAD: u32 = 2;

/// Why a slice did not come.
pub enum FeedError {
    /// The reader worker itself stopped (it could not load, or failed):
    /// the slices can still be read by the asking thread.
    Stopped(String),
    /// The file could not be read.
    Read(String),
}

/// The messages come in here and wake the one waiting for them.
#[derive(Default)]
struct Inbox {
    messages: VecDeque<JsValue>,
    waiting: Option<Function>,
}

impl Inbox {
    fn put(&mut self, message: JsValue) {
        self.messages.push_back(message);
        if let Some(wake) = self.waiting.take() {
            // Resolving a promise does not fail.
            let _ = wake.call0(&JsValue::NULL);
        }
    }
}

/// A file being read in slices by a reader worker. Dropping it stops the reader.
pub struct SliceFeed {
    worker: Worker,
    inbox: Rc<RefCell<Inbox>>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(Event)>,
}

impl SliceFeed {
    /// Starts a reader worker on `file`, in slices of `slice` bytes.
    pub fn start(file: &File, slice: usize) -> Result<SliceFeed, String> {
        let worker = Worker::new(READER_URL).map_err(js_error)?;
        let inbox = Rc::new(RefCell::new(Inbox::default()));
        let on_message = {
            let inbox = inbox.clone();
            Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| inbox.borrow_mut().put(e.data()))
        };
        let on_error = {
            let inbox = inbox.clone();
            // A script that did not load gives a plain `Event`, an error
            // inside it an `ErrorEvent` with a message.
            Closure::<dyn FnMut(Event)>::new(move |e: Event| {
                e.prevent_default();
                let said = Reflect::get(&e, &"message".into()).ok().and_then(|m| m.as_string());
                let why = said.unwrap_or_else(|| format!("{READER_URL} did not load"));
                let m = Object::new();
                let _ = Reflect::set(&m, &"stopped".into(), &format!("the slice reader stopped: {why}").into());
                inbox.borrow_mut().put(m.into());
            })
        };
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        let start = Object::new();
        for (key, value) in [("file", JsValue::from(file)), ("slice", slice.into()), ("ahead", AHEAD.into())] {
            let _ = Reflect::set(&start, &key.into(), &value);
        }
        worker.post_message(&start).map_err(js_error)?;
        Ok(SliceFeed { worker, inbox, _on_message: on_message, _on_error: on_error })
    }

    /// The next slice, as an `ArrayBuffer`, or why it did not come.
    pub async fn next(&self) -> Result<JsValue, FeedError> {
        let text = |m: &JsValue, key: &str| Reflect::get(m, &key.into()).ok().and_then(|e| e.as_string());
        loop {
            let message = self.inbox.borrow_mut().messages.pop_front();
            if let Some(m) = message {
                if let Some(why) = text(&m, "stopped") {
                    return Err(FeedError::Stopped(why));
                }
                if let Some(error) = text(&m, "error") {
                    return Err(FeedError::Read(error));
                }
                return Reflect::get(&m, &"buffer".into()).map_err(|e| FeedError::Read(js_error(e)));
            }
            let inbox = self.inbox.clone();
            let woken = Promise::new(&mut |resolve, _reject| inbox.borrow_mut().waiting = Some(resolve));
            JsFuture::from(woken).await.map_err(|e| FeedError::Stopped(js_error(e)))?;
        }
    }

    /// Says a slice was taken, so that the reader asks for another.
    pub fn took(&self) {
        let m = Object::new();
        let _ = Reflect::set(&m, &"took".into(), &true.into());
        // A reader that is gone has said so with an error already.
        let _ = self.worker.post_message(&m);
    }
}

impl Drop for SliceFeed {
    fn drop(&mut self) {
        self.worker.terminate();
    }
}
