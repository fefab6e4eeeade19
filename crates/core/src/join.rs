//! Two computations that do not depend on each other, run possibly at once:
//! the core has no threads, so a caller that has them injects a [`Join`]
//! that runs one of the two on another thread ([`in_turn`] runs them one
//! after the other). Whatever the join, the results are the same.

/// Runs two computations that do not depend on each other, possibly at
/// once: a caller with threads runs them on two, the core (which has
/// none) one after the other ([`in_turn`]). Both have run when it returns.
pub type Join<'a> = &'a (dyn Fn(&mut (dyn FnMut() + Send), &mut (dyn FnMut() + Send)) + Sync);

/// The [`Join`] that runs the two computations one after the other.
pub fn in_turn(a: &mut (dyn FnMut() + Send), b: &mut (dyn FnMut() + Send)) {
    a();
    b();
}
