//! [`Stop`]: a request to end a long computation early, checked between chunks of work.
//!
//! Contract: long loops (exponentiation windows, batch items, precomputed tables) call
//! [`Stop::check`] once per chunk and return [`MontError::Interrupted`] once a stop has been
//! requested; a chunk is at most one window of products, so a request is seen within one
//! window. A check is one relaxed atomic load: no measurable cost against a Montgomery product.
//! The flag carries no secret, so checking it leaves [`crate::pow::fixed::pow_sec`] constant
//! time. The binding sets it when Python has a pending signal (Ctrl-C).

use core::sync::atomic::{AtomicBool, Ordering};

use crate::error::MontError;

/// A stop flag shared by a computation and whoever may end it.
#[derive(Debug, Default)]
pub struct Stop(AtomicBool);

/// A flag nobody sets: for callers that never interrupt.
static NEVER: Stop = Stop(AtomicBool::new(false));

impl Stop {
    /// A flag not yet set.
    #[must_use]
    pub const fn new() -> Self {
        Self(AtomicBool::new(false))
    }

    /// The flag of uninterruptible calls (never set).
    #[must_use]
    pub fn never() -> &'static Self {
        &NEVER
    }

    /// Asks the computation to end at its next check.
    pub fn request(&self) {
        if !core::ptr::eq(self, &NEVER) {
            self.0.store(true, Ordering::Relaxed);
        }
    }

    /// True once a stop has been requested.
    #[must_use]
    pub fn requested(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// `Err(MontError::Interrupted)` once a stop has been requested.
    ///
    /// # Errors
    /// [`MontError::Interrupted`] when [`Stop::request`] was called.
    #[inline]
    pub fn check(&self) -> Result<(), MontError> {
        if self.requested() {
            Err(MontError::Interrupted)
        } else {
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_and_check() {
        let s = Stop::new();
        assert_eq!(s.check(), Ok(()));
        s.request();
        assert!(s.requested());
        assert_eq!(s.check(), Err(MontError::Interrupted));
        Stop::never().request();
        assert_eq!(Stop::never().check(), Ok(()));
    }
}
