//! The one place where montlab-core errors become Python exceptions.
//!
//! The exception classes are the ones defined in `python/montlab/errors.py`, imported (not
//! re-created), so `except montlab.errors.OperandError` catches errors from both the Python
//! models and this extension. Rust's orphan rule forbids `impl From<MontError> for PyErr` here
//! (both types are foreign to this crate), so errors travel as the local newtype [`Error`]:
//! `?` turns a `MontError` into an `Error`, and PyO3 turns an `Error` into a `PyErr` through
//! the single `From<Error> for PyErr` below.

use montlab_core::MontError;
use pyo3::{import_exception, PyErr};

import_exception!(montlab.errors, MontlabError);
import_exception!(montlab.errors, ModulusError);
import_exception!(montlab.errors, OperandError);
import_exception!(montlab.errors, ParameterError);
import_exception!(montlab.errors, OperandTypeError);

/// An error raised from a binding function: a [`MontError`], or a Python exception already
/// raised (a signal handler's, such as `KeyboardInterrupt`, while a long call ran).
#[derive(Debug)]
pub enum Error {
    /// From the core.
    Mont(MontError),
    /// Raised by Python.
    Py(PyErr),
}

impl From<MontError> for Error {
    fn from(e: MontError) -> Self {
        Self::Mont(e)
    }
}

impl From<PyErr> for Error {
    fn from(e: PyErr) -> Self {
        Self::Py(e)
    }
}

impl From<Error> for PyErr {
    fn from(e: Error) -> Self {
        let e = match e {
            Error::Py(e) => return e,
            Error::Mont(e) => e,
        };
        let msg = e.to_string();
        match e {
            MontError::EvenModulus
            | MontError::ModulusTooSmall
            | MontError::ModulusTooLarge { .. }
            | MontError::SecModulusTooLarge { .. }
            | MontError::KernelRefusesModulus { .. } => ModulusError::new_err(msg),
            MontError::OperandOutOfRange { .. }
            | MontError::NegativeOperand { .. }
            | MontError::NegativeExponent
            | MontError::ExponentTooLong { .. }
            | MontError::ExpBitsTooLarge { .. }
            | MontError::EmptyBatch
            | MontError::BatchLengthMismatch { .. }
            | MontError::NotInvertible
            | MontError::InvalidCrtKey { .. }
            | MontError::OperandTooLong { .. }
            | MontError::ResidueModulusMismatch => OperandError::new_err(msg),
            MontError::InvalidThresholds { .. } | MontError::KernelNotOnCpu { .. } => {
                ParameterError::new_err(msg)
            }
            MontError::Randomness => MontlabError::new_err(msg),
            // MontError is #[non_exhaustive]: a variant added to the core before it is mapped
            // here still surfaces as the catch-all base class rather than a panic.
            _ => MontlabError::new_err(msg),
        }
    }
}
