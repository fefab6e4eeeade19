//! Where answers go: the worker posts them to the page, the native server
//! sends them over its WebSocket.

use crate::protocol::{Response, RunId};

/// What takes the answers to the page.
pub trait Sink {
    /// Sends a message.
    fn send(&mut self, response: &Response);
    /// Sends a made file of run `run`: its name, its MIME type and its bytes
    /// (moved, not written into JSON: see [`crate::protocol::FILE_MESSAGE`]).
    fn file(&mut self, run: RunId, name: &str, mime: &str, bytes: &[u8]);
}

/// A sink that keeps what it is given, in order: for tests, and for a
/// caller that sends the answers later.
#[derive(Debug, Default)]
pub struct Kept {
    /// The messages and files, in the order given.
    pub items: Vec<Item>,
}

/// One answer a [`Kept`] sink was given.
#[derive(Debug, PartialEq)]
pub enum Item {
    /// A message.
    Message(Response),
    /// A made file: run, name, MIME type, bytes.
    File(RunId, String, String, Vec<u8>),
}

impl Sink for Kept {
    fn send(&mut self, response: &Response) {
        self.items.push(Item::Message(response.clone()));
    }

    fn file(&mut self, run: RunId, name: &str, mime: &str, bytes: &[u8]) {
        self.items.push(Item::File(run, name.to_owned(), mime.to_owned(), bytes.to_vec()));
    }
}
