//! [`Shared`]: a big value the state hands to components, equal only to
//! itself. Yew compares a component's properties on every render, and an
//! `Rc` of a type without `Eq` compares its contents: a 300,000-task run's
//! view, compared field by field on every zoom step, costs more than the
//! drawing. A `Shared` compares one pointer.

use std::fmt;
use std::ops::Deref;
use std::rc::Rc;

/// A shared, immutable value whose equality is identity.
pub struct Shared<T: ?Sized>(Rc<T>);

impl<T> Shared<T> {
    /// Shares `value`.
    pub fn new(value: T) -> Self {
        Shared(Rc::new(value))
    }
}

impl<T: ?Sized> Shared<T> {
    /// The address of the value, for effects that run when it changes.
    pub fn as_ptr(this: &Self) -> *const T {
        Rc::as_ptr(&this.0)
    }
}

impl<T: ?Sized> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(Rc::clone(&self.0))
    }
}

impl<T: ?Sized> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl<T: ?Sized> Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: ?Sized + fmt::Debug> fmt::Debug for Shared<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl From<&str> for Shared<str> {
    fn from(text: &str) -> Self {
        Shared(Rc::from(text))
    }
}

impl From<String> for Shared<str> {
    fn from(text: String) -> Self {
        Shared(Rc::from(text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_only_to_itself() {
        let a = Shared::new(vec![1.0f64]);
        assert_eq!(a, a.clone());
        assert_ne!(a, Shared::new(vec![1.0f64]));
    }
}
