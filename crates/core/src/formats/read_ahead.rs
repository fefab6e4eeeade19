//! Chunks read ahead: a reader whose chunks can be read on another thread
//! (split into lines or events, parsed, hashed) names the type that holds
//! what was read of one ([`ReadAhead`]); a caller with threads runs its
//! [`Preparer`] on the next chunks while the reader builds from the ones
//! before, in order ([`super::FormatReader::feed_prepared`]).
//!
//! A caller whose threads share no memory (the app's Web Workers) moves
//! what was read ahead between them as [`Packed`] words and text: the
//! same reading, written out by [`Preparer::pack`] and read back by
//! [`Preparer::unpack`].

use std::any::Any;

/// What a format reads of a chunk ahead, on any thread.
pub trait ReadAhead: Any + Send + Default {
    /// Reads `chunk` ahead, in place of what was held (its memory is used
    /// again): pure, so the result does not depend on the thread.
    fn prepare(&mut self, chunk: &[u8]);

    /// Writes what was read to `out`, to be read back by
    /// [`ReadAhead::unpack`] where memory is not shared.
    fn pack(&self, out: &mut Packed);

    /// What [`ReadAhead::pack`] wrote; `None` when `packed` is not such
    /// a writing (too short, a value out of range).
    fn unpack(packed: &mut Unpacking<'_>) -> Option<Self>;
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

/// What was read ahead of a chunk, written out as plain words and text so
/// that it can be moved where memory is not shared (another Web Worker).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Packed {
    /// Numbers, offsets and hashes, in the order the format wrote them.
    pub words: Vec<u64>,
    /// Text the format kept (a trace's `args`).
    pub text: String,
}

impl Packed {
    /// Appends one word.
    pub fn push(&mut self, word: u64) {
        self.words.push(word);
    }

    /// Appends an optional word: a 0 for `None`, a 1 then the word for `Some`.
    pub fn push_opt(&mut self, word: Option<u64>) {
        match word {
            None => self.words.push(0),
            Some(w) => self.words.extend([1, w]),
        }
    }
}

/// Reads a [`Packed`] back, word by word.
#[derive(Debug)]
pub struct Unpacking<'a> {
    words: std::slice::Iter<'a, u64>,
    /// The packed text.
    pub text: &'a str,
}

impl<'a> Unpacking<'a> {
    /// Starts reading `packed` from its first word.
    pub fn new(packed: &'a Packed) -> Self {
        Unpacking { words: packed.words.iter(), text: &packed.text }
    }

    /// The next word, if there is one.
    pub fn word(&mut self) -> Option<u64> {
        self.words.next().copied()
    }

    /// The next word as a `usize`, if there is one that fits.
    pub fn index(&mut self) -> Option<usize> {
        usize::try_from(self.word()?).ok()
    }

    /// The next optional word ([`Packed::push_opt`]); `None` when there is
    /// none or its flag is neither 0 nor 1.
    pub fn opt(&mut self) -> Option<Option<u64>> {
        match self.word()? {
            0 => Some(None),
            1 => Some(Some(self.word()?)),
            _ => None,
        }
    }

    /// How many words are left to read.
    pub fn words_left(&self) -> usize {
        self.words.len()
    }

    /// Whether every word was read.
    pub fn is_done(&self) -> bool {
        self.words.len() == 0
    }
}

/// How a format reads chunks ahead: on any thread ([`Preparer::prepare`]),
/// and across workers that share no memory ([`Preparer::pack`],
/// [`Preparer::unpack`]). Each is pure, so the result does not depend on
/// where it ran.
#[derive(Clone, Copy)]
pub struct Preparer {
    prepare: fn(&[u8], &mut Prepared),
    pack: fn(&Prepared) -> Option<Packed>,
    unpack: fn(&Packed) -> Option<Prepared>,
}

impl std::fmt::Debug for Preparer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Preparer")
    }
}

impl Preparer {
    /// Reads `chunk` ahead into `prepared`, in place of what it held.
    pub fn prepare(&self, chunk: &[u8], prepared: &mut Prepared) {
        (self.prepare)(chunk, prepared)
    }

    /// What `prepared` holds, written out; `None` when it holds nothing
    /// of this format.
    pub fn pack(&self, prepared: &Prepared) -> Option<Packed> {
        (self.pack)(prepared)
    }

    /// `packed` read back; `None` when it is not what [`Preparer::pack`]
    /// of this format wrote.
    pub fn unpack(&self, packed: &Packed) -> Option<Prepared> {
        (self.unpack)(packed)
    }
}

/// The [`Preparer`] of a reader whose chunks read ahead are a `T`.
pub fn preparer_of<T: ReadAhead>() -> Preparer {
    Preparer { prepare: prepare_into::<T>, pack: pack_of::<T>, unpack: unpack_of::<T> }
}

fn prepare_into<T: ReadAhead>(chunk: &[u8], prepared: &mut Prepared) {
    let mut held: Box<T> = prepared.0.take().and_then(|held| held.downcast().ok()).unwrap_or_default();
    held.prepare(chunk);
    prepared.0 = Some(held);
}

fn pack_of<T: ReadAhead>(prepared: &Prepared) -> Option<Packed> {
    let mut out = Packed::default();
    prepared.get::<T>()?.pack(&mut out);
    Some(out)
}

fn unpack_of<T: ReadAhead>(packed: &Packed) -> Option<Prepared> {
    let mut reading = Unpacking::new(packed);
    let read = T::unpack(&mut reading)?;
    reading.is_done().then(|| Prepared(Some(Box::new(read))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::{by_name, preparer_for};
    use proptest::prelude::*;

    /// The formats that read ahead, with a chunk of each.
    fn samples() -> Vec<(Preparer, &'static [u8])> {
        let chunks: [(&str, &[u8]); 2] = [
            ("distbuild", b"1000 started A host1\n1001 finished A host1\n1002 dep_finished A host1 B 2 3\npart"),
            ("chrome-trace", b"{\"ph\":\"X\",\"name\":\"a\",\"ts\":1,\"dur\":2,\"pid\":1,\"tid\":1,\"args\":{\"k\":1}},\n{\"ph\":\"i\",\"ts\":3,\"s\":\"g\",\"bind_id\":\"0x1\",\"flow_in\":true}, {\"ph\":"),
        ];
        chunks
            .into_iter()
            .map(|(name, chunk)| (preparer_for(by_name(name).unwrap()).expect("reads ahead"), chunk))
            .collect()
    }

    #[test]
    fn a_packing_cut_short_or_with_extra_words_is_refused() {
        for (preparer, chunk) in samples() {
            let mut prepared = Prepared::default();
            preparer.prepare(chunk, &mut prepared);
            let packed = preparer.pack(&prepared).unwrap();
            assert_eq!(preparer.pack(&preparer.unpack(&packed).unwrap()), Some(packed.clone()));
            for cut in 0..packed.words.len() {
                let short = Packed { words: packed.words[..cut].to_vec(), text: packed.text.clone() };
                assert!(preparer.unpack(&short).is_none(), "cut at {cut}");
            }
            let mut long = packed.clone();
            long.push(0);
            assert!(preparer.unpack(&long).is_none());
        }
    }

    proptest! {
        #[test]
        fn any_words_unpack_without_panicking(words in proptest::collection::vec(0u64..20, 0..64), text in ".{0,8}") {
            for (preparer, _) in samples() {
                let _ = preparer.unpack(&Packed { words: words.clone(), text: text.clone() });
            }
        }
    }
}
