//! A run's id in the fleet tables: the SHA-256 of its inputs' bytes, so
//! that exporting the same logs again gives the same id (and replaces the
//! same files) whatever their names or where they lie.

use sha2::{Digest, Sha256};

/// Hashes a run's inputs as they are read, one after the other.
#[derive(Clone, Debug, Default)]
pub struct RunIdHasher {
    sha: Sha256,
    /// Bytes of the current input so far.
    len: u64,
}

impl RunIdHasher {
    /// A hasher that has seen nothing.
    pub fn new() -> Self {
        Self::default()
    }

    /// Hashes the next bytes of the current input.
    pub fn update(&mut self, bytes: &[u8]) {
        self.sha.update(bytes);
        self.len += bytes.len() as u64;
    }

    /// Ends the current input: its length is hashed after it, so that two
    /// inputs never hash as their concatenation would.
    pub fn end_input(&mut self) {
        self.sha.update(self.len.to_le_bytes());
        self.len = 0;
    }

    /// The id: the first 128 bits of the digest, as 32 lowercase hex digits.
    pub fn finish(self) -> String {
        self.sha.finalize()[..16].iter().map(|b| format!("{b:02x}")).collect()
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
    fn the_id_is_the_digest_of_the_bytes_and_where_inputs_end() {
        // sha256("abc" ‖ 3u64 LE), by Python's hashlib: the 128-bit prefix.
        assert_eq!(id(&[b"abc"]), "baba775df93bdbf9d34cd8eb1cfe6872");
        assert_ne!(id(&[b"ab", b"c"]), id(&[b"abc"]));
        let mut h = RunIdHasher::new();
        h.update(b"a");
        h.update(b"bc");
        h.end_input();
        assert_eq!(h.finish(), id(&[b"abc"]));
    }
}
