//! The page's protocol ([`protocol`]) and the answers to its questions
//! about a loaded run and a comparison ([`Session`]), as pure functions of
//! what is loaded: the app's analysis worker posts them with
//! `postMessage`, `longpole open --native` sends the same JSON over a
//! WebSocket (docs/native.md). Both hand the answers to a [`Sink`], so a
//! native run is answered by the very code that answers a run in the tab.
//! No web-sys, no wasm-bindgen, no I/O: reading the inputs, the clock and
//! the memory figures are the transport's.

#![deny(missing_docs)]

pub mod compared;
pub mod loaded;
pub mod protocol;
mod run_answers;
pub mod session;
pub mod sink;

pub use compared::Compared;
pub use loaded::Loaded;
pub use session::Session;
pub use sink::Sink;
