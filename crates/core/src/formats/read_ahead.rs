//! Chunks read ahead: a reader whose chunks can be read on another thread
//! (split into lines or events, parsed, hashed) names the type that holds
//! what was read of one ([`ReadAhead`]); a caller with threads runs its
//! [`Preparer`] on the next chunks while the reader builds from the ones
//! before, in order ([`super::FormatReader::feed_prepared`]).

use std::any::Any;

/// What a format reads of a chunk ahead, on any thread.
pub trait ReadAhead: Any + Send + Default {
    /// Reads `chunk` ahead, in place of what was held (its memory is used
    /// again): pure, so the result does not depend on the thread.
    fn prepare(&mut self, chunk: &[u8]);
}

/// A chunk read ahead by a [`Preparer`]: what the format's [`ReadAhead`]
/// made of it (nothing until a preparer has run).
#[derive(Default)]
pub struct Prepared(Option<Box<dyn Any + Send>>);

impl std::fmt::Debug for Prepared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() { "Prepared(..)" } else { "Prepared(nothing)" })
    }
}

impl Prepared {
    /// What it holds, if that is a `T`.
    pub fn get<T: ReadAhead>(&self) -> Option<&T> {
        self.0.as_ref().and_then(|held| held.downcast_ref())
    }
}

/// Reads a chunk ahead into a [`Prepared`], in place of what it held: pure,
/// so any thread may run it, and the result does not depend on which one did.
pub type Preparer = fn(&[u8], &mut Prepared);

/// The [`Preparer`] of a reader whose chunks read ahead are a `T`.
pub fn preparer_of<T: ReadAhead>(chunk: &[u8], prepared: &mut Prepared) {
    let mut held: Box<T> = prepared.0.take().and_then(|held| held.downcast().ok()).unwrap_or_default();
    held.prepare(chunk);
    prepared.0 = Some(held);
}
