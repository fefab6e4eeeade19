//! A run's id in the fleet tables: a hash of its inputs' bytes, so that
//! exporting the same logs again gives the same id (and replaces the same
//! files) whatever their names, where they lie or the order they are given
//! in: the SHA-256 of the inputs' own SHA-256 digests, sorted.

use sha2::{Digest, Sha256};

/// Hashes a run's inputs as they are read, one after the other.
#[derive(Clone, Debug, Default)]
pub struct RunIdHasher {
    /// The current input's hash so far.
    input: Sha256,
    /// The digests of the inputs ended.
    digests: Vec<[u8; 32]>,
}

impl RunIdHasher {
    /// A hasher that has seen nothing.
    pub fn new() -> Self {
        Self::default()
    }

    /// Hashes the next bytes of the current input.
    pub fn update(&mut self, bytes: &[u8]) {
        self.input.update(bytes);
    }

    /// Ends the current input; the next bytes are another's.
    pub fn end_input(&mut self) {
        self.digests.push(std::mem::take(&mut self.input).finalize().into());
    }

    /// The id: the first 128 bits of the SHA-256 of the inputs' digests in
    /// ascending order, as 32 lowercase hex digits.
    pub fn finish(mut self) -> String {
        self.digests.sort_unstable();
        let mut all = Sha256::new();
        for d in &self.digests {
            all.update(d);
        }
        all.finalize()[..16].iter().map(|b| format!("{b:02x}")).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::RunIdHasher;

    fn id(inputs: &[&[u8]]) -> String {
        let mut h = RunIdHasher::new();
        for i in inputs {
            h.update(i);
            h.end_input();
        }
        h.finish()
    }

    #[test]
    fn the_id_hashes_each_inputs_digest_in_any_order() {
        // sha256(sha256("abc")), by Python's hashlib: the 128-bit prefix.
        assert_eq!(id(&[b"abc"]), "4f8b42c22dd3729b519ba6f68d2da7cc");
        assert_eq!(id(&[b"log", b"graph"]), id(&[b"graph", b"log"]));
        assert_ne!(id(&[b"ab", b"c"]), id(&[b"abc"]));
        let mut h = RunIdHasher::new();
        h.update(b"a");
        h.update(b"bc");
        h.end_input();
        assert_eq!(h.finish(), id(&[b"abc"]));
    }
}
