//! Long native calls that answer Ctrl-C.
//!
//! Contract: [`run`] executes a computation without the GIL, except the smallest (below
//! [`QUICK_WORK`]: microseconds, less than releasing the GIL costs), which run inline holding it.
//! When its estimated work (limb products, see [`LONG_WORK`]) is small it runs inline: a few milliseconds at most, after
//! which Python handles any pending signal itself. Otherwise it runs on a worker thread while
//! the calling thread wakes every [`POLL`], takes the GIL and runs Python's signal handlers
//! (`PyErr_CheckSignals`). When a handler raises (`KeyboardInterrupt` for SIGINT), the call
//! returns the handler's exception at once and sets the worker's [`Stop`] flag; the worker is
//! not waited for. It ends at its next check (one exponentiation window or batch item; a
//! constructor's setup runs to its end) and its result is dropped. So the latency is one
//! [`POLL`] at every size, and the worker owns everything it uses (`'static`).
//! Signals are handled only when the call comes from Python's main thread, as everywhere in
//! CPython; from other threads the call runs inline. A panic, inline or on the worker, becomes
//! a `RuntimeError` naming it.
//! [`eval!`] picks between [`inline`] and [`run`] by the estimated work.

use std::panic::{self, AssertUnwindSafe};
use std::sync::{mpsc, Arc};
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

/// Estimated limb products below which a call keeps the GIL: 2^14, about two 4096-bit
/// products, a few microseconds.
pub const QUICK_WORK: u128 = 1 << 14;

/// Estimated work of `products` Montgomery products on `limbs`-limb operands.
#[must_use]
pub fn work(limbs: usize, products: u128) -> u128 {
    let s = limbs as u128;
    s * s * products
}

/// A `RuntimeError` naming a panic's message (a panic is a bug: no input should reach one).
fn worker_panic(payload: Box<dyn std::any::Any + Send>) -> Error {
    let msg = payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown".to_owned());
    Error::from(PyRuntimeError::new_err(format!(
        "internal error in the native engine (a panic: {msg})"
    )))
}

/// Runs `job` here, holding the GIL: for work below [`QUICK_WORK`] (a panic becomes a
/// `RuntimeError`, as in [`run`]).
pub fn inline<T>(job: impl FnOnce() -> Result<T, MontError>) -> Result<T, Error> {
    panic::catch_unwind(AssertUnwindSafe(job))
        .map_err(worker_panic)?
        .map_err(Error::from)
}

/// Whether the caller is Python's main thread, the only one that runs signal handlers. This
/// runs Python code, which may raise a pending signal's exception: it is passed on, never lost.
fn on_main_thread(py: Python<'_>) -> PyResult<bool> {
    let threading = py.import("threading")?;
    let main = threading.call_method0("main_thread")?;
    Ok(main.is(&threading.call_method0("current_thread")?))
}

/// Runs `job` without the GIL, answering signals while it runs when `work >= LONG_WORK` and
/// the caller is the main thread (elsewhere no handler could run, so nothing is polled).
pub fn run<T: Send + 'static>(
    py: Python<'_>,
    work: u128,
    job: impl FnOnce(&Stop) -> Result<T, MontError> + Send + 'static,
) -> Result<T, Error> {
    if work < QUICK_WORK {
        return inline(|| job(Stop::never()));
    }
    if work < LONG_WORK || !on_main_thread(py)? {
        return py
            .detach(|| panic::catch_unwind(AssertUnwindSafe(|| job(Stop::never()))))
            .map_err(worker_panic)?
            .map_err(Error::from);
    }
    let stop = Arc::new(Stop::new());
    let (tx, rx) = mpsc::channel();
    let worker_stop = Arc::clone(&stop);
    let spawned = std::thread::Builder::new()
        .name("montlab-worker".into())
        .spawn(move || {
            let out = panic::catch_unwind(AssertUnwindSafe(|| job(&worker_stop)));
            // The receiver is gone after an interrupt: the result is dropped.
            let _ = tx.send(out);
        });
    if let Err(e) = spawned {
        return Err(Error::from(PyRuntimeError::new_err(format!(
            "could not start a native worker thread: {e}"
        ))));
    }
    py.detach(move || loop {
        match rx.recv_timeout(POLL) {
            Ok(Ok(out)) => return out.map_err(Error::from),
            Ok(Err(payload)) => return Err(worker_panic(payload)),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(Error::from(PyRuntimeError::new_err(
                    "internal error: the native worker ended without a result",
                )));
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if let Err(e) = Python::attach(|py| py.check_signals()) {
                    stop.request();
                    return Err(Error::from(e));
                }
            }
        }
    })
}

/// Runs `$body` inline when `$work` is below `interrupt::QUICK_WORK`, else through
/// `interrupt::run` on clones of the named values (which must be `'static` there); `$body` sees
/// each named value as a reference in both cases.
macro_rules! eval {
    ($py:expr, $work:expr, ($($v:ident),*), |$stop:ident| $body:expr) => {{
        if $work < $crate::interrupt::QUICK_WORK {
            let $stop = ::montlab_core::Stop::never();
            $crate::interrupt::inline(|| $body)
        } else {
            $(let $v = $v.clone();)*
            $crate::interrupt::run($py, $work, move |$stop| {
                $(let $v = &$v;)*
                $body
            })
        }
    }};
}
pub(crate) use eval;
