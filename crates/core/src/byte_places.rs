//! The places of one byte value in a short run of bytes (the spaces between
//! a log line's fields), found a block at a time: a line has a handful of
//! fields, and a search call per field (memchr's) cost more than the
//! search, most of all in WebAssembly.
//!
//! In WebAssembly with SIMD (the page's build) a block is 16 bytes compared
//! at once; elsewhere it is 8 bytes in one machine word. Both give the
//! places as a bit mask, read lowest bit first.

/// Calls `each` with the place of every `byte` in `bytes`, in order, while
/// it returns true.
pub fn each_place(bytes: &[u8], byte: u8, mut each: impl FnMut(usize) -> bool) {
    let mut blocks = bytes.chunks_exact(BLOCK);
    let mut at = 0;
    for block in &mut blocks {
        let mut places = block_places(block, byte);
        while places != 0 {
            if !each(at + (places.trailing_zeros() >> SHIFT) as usize) {
                return;
            }
            places &= places - 1;
        }
        at += BLOCK;
    }
    for (i, _) in blocks.remainder().iter().enumerate().filter(|&(_, &b)| b == byte) {
        if !each(at + i) {
            return;
        }
    }
}

/// Bytes compared at once.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
const BLOCK: usize = 16;
/// From a mask bit's index to its byte's place: a bit a byte.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
const SHIFT: u32 = 0;

/// Bytes compared at once.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
const BLOCK: usize = 8;
/// From a mask bit's index to its byte's place: eight bits a byte.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
const SHIFT: u32 = 3;

/// Bit `i` set where `block[i]` (of [`BLOCK`] bytes) is `byte`: one vector
/// compare.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn block_places(block: &[u8], byte: u8) -> u64 {
    use core::arch::wasm32::{u8x16, u8x16_bitmask, u8x16_eq, u8x16_splat};
    let b = block;
    let v = u8x16(b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
    u64::from(u8x16_bitmask(u8x16_eq(v, u8x16_splat(byte))))
}

/// Bit `8 i + 7` set where `block[i]` (of [`BLOCK`] bytes) is `byte`: one
/// machine word.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
fn block_places(block: &[u8], byte: u8) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let b = block;
    let word = u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
    let x = word ^ (u64::from(byte) * 0x0101_0101_0101_0101);
    // A byte's top bit is set here exactly when the byte was not `byte`
    // (no carry crosses bytes: 0x7f + 0x7f < 0x100).
    let other = ((x & LOW7) + LOW7) | x;
    !other & !LOW7
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every place of `byte` in random bytes, as a plain search finds them,
    /// and stopping after the first: for each length from 0 to 39.
    fn agrees_with_a_plain_search(byte: u8) {
        // Bytes one off `byte`, with the top bit set and zero, at every
        // place of a block, at lengths around 8 and 16.
        let alphabet = [byte, b'a', byte.wrapping_sub(1), byte.wrapping_add(1), byte ^ 0x80, 0xff, 0x00, b'\t'];
        let mut seed = 7u32;
        for len in 0..40 {
            for _ in 0..50 {
                let bytes: Vec<u8> = (0..len)
                    .map(|_| {
                        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                        alphabet[(seed >> 16) as usize % alphabet.len()]
                    })
                    .collect();
                let want: Vec<usize> = (0..len).filter(|&i| bytes[i] == byte).collect();
                let mut got = Vec::new();
                each_place(&bytes, byte, |i| {
                    got.push(i);
                    true
                });
                assert_eq!(got, want, "{bytes:?}");
                let mut first = Vec::new();
                each_place(&bytes, byte, |i| {
                    first.push(i);
                    false
                });
                assert_eq!(first, want.first().copied().into_iter().collect::<Vec<_>>());
            }
        }
    }

    #[test]
    fn finds_every_place_as_a_plain_search_does() {
        for byte in [b' ', 0x00, 0x80, 0xff, b'\n'] {
            agrees_with_a_plain_search(byte);
        }
    }
}
