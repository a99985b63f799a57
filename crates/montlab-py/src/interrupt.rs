//! Long native calls that answer Ctrl-C.
//!
//! Contract: [`run`] executes a computation without the GIL. When its estimated work (limb
//! products, see [`LONG_WORK`]) is small it runs inline: a few milliseconds at most, after
//! which Python handles any pending signal itself. Otherwise it runs on a scoped worker thread
//! while the calling thread wakes every [`POLL`], takes the GIL and runs Python's signal
//! handlers (`PyErr_CheckSignals`). When a handler raises (`KeyboardInterrupt` for SIGINT),
//! the worker's [`Stop`] flag is set, the worker ends at its next check (one window of
//! products) and the handler's exception is raised. Signals are handled only when the call
//! comes from Python's main thread, as everywhere in CPython.

use std::sync::mpsc;
use std::time::Duration;

use montlab_core::{MontError, Stop};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

use crate::error::Error;

/// How often a long call looks for pending signals.
pub const POLL: Duration = Duration::from_millis(20);

/// Estimated limb products (s^2 per Montgomery product) from which a call runs on a worker:
/// about 2^23, a few milliseconds, so the worker's start (tens of microseconds) is noise.
pub const LONG_WORK: u128 = 1 << 23;

/// Estimated work of `products` Montgomery products on `limbs`-limb operands.
#[must_use]
pub fn work(limbs: usize, products: u128) -> u128 {
    let s = limbs as u128;
    s * s * products
}

/// Runs `job` without the GIL, answering signals while it runs when `work >= LONG_WORK`.
pub fn run<T: Send>(
    py: Python<'_>,
    work: u128,
    job: impl FnOnce(&Stop) -> Result<T, MontError> + Send,
) -> Result<T, Error> {
    if work < LONG_WORK {
        return py.detach(|| job(Stop::never())).map_err(Error::from);
    }
    let stop = Stop::new();
    py.detach(|| {
        std::thread::scope(|scope| {
            let (tx, rx) = mpsc::channel();
            let stop = &stop;
            scope.spawn(move || {
                // The receiver may be gone after an interrupt; nothing is left to report then.
                let _ = tx.send(job(stop));
            });
            loop {
                match rx.recv_timeout(POLL) {
                    Ok(out) => return out.map_err(Error::from),
                    Err(mpsc::RecvTimeoutError::Timeout) => {
                        if let Err(e) = Python::attach(|py| py.check_signals()) {
                            stop.request();
                            return Err(Error::from(e)); // the scope joins the worker
                        }
                    }
                    Err(mpsc::RecvTimeoutError::Disconnected) => {
                        return Err(Error::from(PyRuntimeError::new_err(
                            "the native worker ended without a result",
                        )));
                    }
                }
            }
        })
    })
}
