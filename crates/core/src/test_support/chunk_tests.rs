//! The chunk-size check the readers' tests share: the unit tests reach it
//! through `test_support`, the integration tests through `tests/support`
//! (which includes this file, so it names nothing of the crate).

/// The chunk sizes an input is read at besides whole: one byte, a small
/// prime, a page.
pub const CHUNKS: [usize; 3] = [1, 7, 4096];

/// `read(usize::MAX)` (the input whole), which `read(chunk)` must equal for
/// every size of [`CHUNKS`] from `min_chunk` on; `what` names the input
/// when it does not.
pub fn same_at_every_chunk<T: PartialEq>(what: &str, min_chunk: usize, read: impl Fn(usize) -> T) -> T {
    let whole = read(usize::MAX);
    for chunk in CHUNKS.into_iter().filter(|&c| c >= min_chunk) {
        assert!(read(chunk) == whole, "{what} at chunk size {chunk}");
    }
    whole
}
