//! Concurrency slots, first fit, as ninjatracing allocates them: spans by
//! end, latest first; each goes to the first slot whose earliest start so
//! far is at or after its end, else to a new slot. A ninja build's edges
//! and a Cargo build's units are laid on these slots.

/// Each span's slot, for spans given as `(start, end)`, in their order.
/// Equal ends keep their order (Python's sort is stable).
pub fn allocate(spans: &[(i64, i64)]) -> Vec<u32> {
    let mut order: Vec<usize> = (0..spans.len()).collect();
    order.sort_by(|&a, &b| spans[b].1.cmp(&spans[a].1));
    let mut free_from: Vec<i64> = Vec::new();
    let mut slot = vec![0u32; spans.len()];
    for i in order {
        let (start, end) = spans[i];
        let s = match free_from.iter().position(|&f| f >= end) {
            Some(s) => {
                free_from[s] = start;
                s
            }
            None => {
                free_from.push(start);
                free_from.len() - 1
            }
        };
        slot[i] = s as u32;
    }
    slot
}

#[cfg(test)]
mod tests {
    use super::allocate;

    #[test]
    fn overlapping_spans_take_new_slots_and_later_ones_reuse_them() {
        // Latest end first: (5,9) slot 0, (0,6) overlaps it: slot 1,
        // (0,4) ends before 5: slot 0 again.
        assert_eq!(allocate(&[(0, 4), (0, 6), (5, 9)]), vec![0, 1, 0]);
        assert_eq!(allocate(&[]), Vec::<u32>::new());
    }
}
