//! `Residue`: an element of Z/NZ that lives in Rust, in the Montgomery form of its
//! `FastModulus`'s product kernel (montlab-core's `residue` module), with Python's operators.
//!
//! Made by `m(x)` (any int, taken mod N) or `m.from_form(f)`; read by `int(a)`. Operators take
//! residues of the same N or ints (taken mod N, like `m(x)`); a residue of the same N on another
//! product kernel (another R: a modulus made under another threshold table) is converted, and
//! residues of different moduli raise `OperandError`. Residues are immutable and hashable like
//! ints: `a *= b` rebinds `a`; `a == x` for an int x holds when x is a's value in [0, N), so
//! equal objects hash alike.
//! Each operation runs inline with the GIL held while it is small (`interrupt::QUICK_WORK`),
//! else through `interrupt::run`.

use std::borrow::Cow;
use std::sync::Arc;

use montlab_core::residue::Residue as Core;
use montlab_core::{FastModulus as CoreFast, MontError};
use pyo3::basic::CompareOp;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyList, PyTuple};

use crate::convert;
use crate::error::{Error, OperandTypeError};
use crate::interrupt::{self, eval};
use crate::{exponent_limbs, pow_products, Int};

/// An element of Z/NZ in Montgomery form (see the module documentation).
#[pyclass(frozen, freelist = 64, module = "montlab._native", name = "Residue")]
pub struct Residue {
    pub(crate) ring: Arc<CoreFast>,
    pub(crate) value: Core,
}

/// `r`'s value as a residue of `ring`: itself when both share a Montgomery form (one modulus
/// object, or equal N on the same product kernel, hence the same R); converted through its
/// value (two products) for equal N on another kernel; `ResidueModulusMismatch` for another N.
pub(crate) fn in_ring<'a>(ring: &Arc<CoreFast>, r: &'a Residue) -> Result<Cow<'a, Core>, Error> {
    if Arc::ptr_eq(ring, &r.ring)
        || (ring.modulus() == r.ring.modulus()
            && ring.residue_kernel_id() == r.ring.residue_kernel_id())
    {
        return Ok(Cow::Borrowed(&r.value));
    }
    if ring.modulus() != r.ring.modulus() {
        return Err(MontError::ResidueModulusMismatch.into());
    }
    let value = r.ring.residue_value(&r.value);
    Ok(Cow::Owned(ring.residue(&value)?))
}

/// The residue of the int `x` (any sign or size, taken mod N) in `ring`.
pub(crate) fn from_int(ring: &Arc<CoreFast>, x: &Bound<'_, PyInt>) -> Result<Core, Error> {
    let limbs = &convert::reduced_limbs(x, ring.modulus())?;
    let py = x.py();
    let work = interrupt::work(limbs.len(), 1);
    eval!(py, work, (ring, limbs), |_stop| ring.residue(limbs))
}

/// `ob` as an int for arithmetic with a residue: an int or an `__index__` object, never bool;
/// `None` for anything else (the operator then returns `NotImplemented`). An error raised by
/// `__index__` itself is passed on.
pub(crate) fn as_int<'py>(ob: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyInt>>> {
    if ob.is_instance_of::<PyBool>() {
        return Ok(None);
    }
    if let Ok(i) = ob.cast::<PyInt>() {
        return Ok(Some(i.clone()));
    }
    if ob.hasattr("__index__")? {
        return Ok(ob.call_method0("__index__")?.cast_into::<PyInt>().ok());
    }
    Ok(None)
}

impl Residue {
    fn make(&self, value: Core) -> Self {
        Self {
            ring: Arc::clone(&self.ring),
            value,
        }
    }

    fn limbs(&self) -> usize {
        self.ring.modulus().len()
    }

    /// The other operand in this residue's ring: a residue of the same ring, or an int taken
    /// mod N; `Ok(None)` for other types; `OperandError` for a residue of another modulus.
    fn coerce<'a>(&self, other: &'a Bound<'_, PyAny>) -> Result<Option<Cow<'a, Core>>, Error> {
        if let Ok(r) = other.cast::<Self>() {
            return in_ring(&self.ring, r.get()).map(Some);
        }
        match as_int(other)? {
            Some(i) => from_int(&self.ring, &i).map(|v| Some(Cow::Owned(v))),
            None => Ok(None),
        }
    }

    /// `op(a, b)` for `a` and `b` in `self`'s ring (one product: `products` = 1; 0 for sums).
    fn binary(
        &self,
        py: Python<'_>,
        a: &Core,
        b: &Core,
        products: u128,
        op: fn(&CoreFast, &Core, &Core) -> Result<Core, MontError>,
    ) -> Result<Self, Error> {
        let ring = &self.ring;
        let work = interrupt::work(self.limbs(), products);
        let v = eval!(py, work, (ring, a, b), |_stop| op(ring, a, b))?;
        Ok(self.make(v))
    }

    /// `self op other`, or `self`'s operand on the right (`reflected`); `NotImplemented` for an
    /// unknown type.
    fn operator(
        &self,
        other: &Bound<'_, PyAny>,
        reflected: bool,
        products: u128,
        op: fn(&CoreFast, &Core, &Core) -> Result<Core, MontError>,
    ) -> Result<Py<PyAny>, Error> {
        let py = other.py();
        let Some(b) = self.coerce(other)? else {
            return Ok(py.NotImplemented());
        };
        let out = if reflected {
            self.binary(py, &b, &self.value, products, op)?
        } else {
            self.binary(py, &self.value, &b, products, op)?
        };
        Ok(Bound::new(py, out)?.into_any().unbind())
    }

    fn value_int<'py>(&self, py: Python<'py>) -> Result<Bound<'py, PyInt>, Error> {
        let (ring, value) = (&self.ring, &self.value);
        let work = interrupt::work(self.limbs(), 1);
        let limbs = eval!(py, work, (ring, value), |_stop| Ok::<_, MontError>(
            ring.residue_value(value)
        ))?;
        Ok(convert::int_of(py, &limbs)?)
    }

    fn inverse_of(&self, py: Python<'_>, a: &Core) -> Result<Core, Error> {
        let ring = &self.ring;
        // An extended gcd costs about as much as a few dozen products.
        let work = interrupt::work(self.limbs(), 64);
        eval!(py, work, (ring, a), |_stop| ring.residue_inverse(a))
    }
}

fn mul(m: &CoreFast, a: &Core, b: &Core) -> Result<Core, MontError> {
    Ok(m.residue_mul(a, b))
}
fn add(m: &CoreFast, a: &Core, b: &Core) -> Result<Core, MontError> {
    Ok(m.residue_add(a, b))
}
fn sub(m: &CoreFast, a: &Core, b: &Core) -> Result<Core, MontError> {
    Ok(m.residue_sub(a, b))
}
fn div(m: &CoreFast, a: &Core, b: &Core) -> Result<Core, MontError> {
    Ok(m.residue_mul(a, &m.residue_inverse(b)?))
}

#[pymethods]
impl Residue {
    fn __mul__(&self, other: &Bound<'_, PyAny>) -> Result<Py<PyAny>, Error> {
        self.operator(other, false, 1, mul)
    }

    fn __rmul__(&self, other: &Bound<'_, PyAny>) -> Result<Py<PyAny>, Error> {
        self.operator(other, true, 1, mul)
    }

    fn __add__(&self, other: &Bound<'_, PyAny>) -> Result<Py<PyAny>, Error> {
        self.operator(other, false, 0, add)
    }

    fn __radd__(&self, other: &Bound<'_, PyAny>) -> Result<Py<PyAny>, Error> {
        self.operator(other, true, 0, add)
    }

    fn __sub__(&self, other: &Bound<'_, PyAny>) -> Result<Py<PyAny>, Error> {
        self.operator(other, false, 0, sub)
    }

    fn __rsub__(&self, other: &Bound<'_, PyAny>) -> Result<Py<PyAny>, Error> {
        self.operator(other, true, 0, sub)
    }

    /// `self * other^-1`; `OperandError` when `other` is not invertible.
    fn __truediv__(&self, other: &Bound<'_, PyAny>) -> Result<Py<PyAny>, Error> {
        self.operator(other, false, 64, div)
    }

    fn __rtruediv__(&self, other: &Bound<'_, PyAny>) -> Result<Py<PyAny>, Error> {
        self.operator(other, true, 64, div)
    }

    fn __neg__(&self) -> Self {
        self.make(self.ring.residue_neg(&self.value))
    }

    fn __pos__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        slf
    }

    /// `self ** exp` for an int `exp` (negative: a power of the inverse). Variable time.
    fn __pow__(
        &self,
        exp: &Bound<'_, PyAny>,
        modulo: &Bound<'_, PyAny>,
    ) -> Result<Py<PyAny>, Error> {
        let py = exp.py();
        if !modulo.is_none() {
            return Err(OperandTypeError::new_err(
                "pow() with a modulus: a residue already has one (use pow(a, e))",
            )
            .into());
        }
        let Some(exp) = as_int(exp)? else {
            return Ok(py.NotImplemented());
        };
        let exp: Int = exp.extract()?;
        let base = if exp.sign() == num_bigint::Sign::Minus {
            self.inverse_of(py, &self.value)?
        } else {
            self.value.clone()
        };
        let e = exponent_limbs(&num_bigint::BigInt::from(exp.magnitude().clone()))?;
        let (ring, base, e) = (&self.ring, &base, &e);
        let work = interrupt::work(self.limbs(), pow_products(e));
        let v = eval!(py, work, (ring, base, e), |stop| ring
            .residue_pow(base, e, stop))?;
        Ok(Bound::new(py, self.make(v))?.into_any().unbind())
    }

    /// The inverse; `OperandError` when gcd(value, N) > 1 (0 included).
    fn inverse(&self, py: Python<'_>) -> Result<Self, Error> {
        Ok(self.make(self.inverse_of(py, &self.value)?))
    }

    /// Equality with a residue of the same N (of any kernel) or with the int in [0, N) that is
    /// its value; residues of different moduli are unequal. No ordering.
    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> Result<Py<PyAny>, Error> {
        let py = other.py();
        let eq = match op {
            CompareOp::Eq => true,
            CompareOp::Ne => false,
            _ => return Ok(py.NotImplemented()),
        };
        let same = if let Ok(r) = other.cast::<Self>() {
            match in_ring(&self.ring, r.get()) {
                Ok(b) => *b == self.value,
                Err(Error::Mont(MontError::ResidueModulusMismatch)) => false,
                Err(e) => return Err(e),
            }
        } else if let Some(i) = as_int(other)? {
            // Only the int in [0, N) equals a residue: hash(int(a)) then agrees with ==.
            PyAnyMethods::eq(i.as_any(), self.value_int(py)?)?
        } else {
            return Ok(py.NotImplemented());
        };
        Ok(PyBool::new(py, same == eq).to_owned().into_any().unbind())
    }

    /// `hash(int(self))`, so a residue and the int in [0, N) it equals hash alike.
    fn __hash__(&self, py: Python<'_>) -> Result<isize, Error> {
        Ok(self.value_int(py)?.hash()?)
    }

    fn __bool__(&self) -> bool {
        !self.value.is_zero()
    }

    /// The value in [0, N).
    fn __int__<'py>(&self, py: Python<'py>) -> Result<Bound<'py, PyInt>, Error> {
        self.value_int(py)
    }

    fn __repr__(&self, py: Python<'_>) -> Result<String, Error> {
        Ok(format!(
            "Residue({}, <{}-bit modulus>)",
            self.value_int(py)?,
            self.ring.bits()
        ))
    }

    fn __str__(&self, py: Python<'_>) -> Result<String, Error> {
        Ok(self.value_int(py)?.to_string())
    }

    /// Pickling (and `copy`): rebuilt by `montlab.api._residue(N, int(self))`, on the kernel
    /// the table in force then picks (the value is kept; the form may change with it).
    fn __reduce__<'py>(&self, py: Python<'py>) -> Result<Reduced<'py>, Error> {
        let rebuild = py.import("montlab.api")?.getattr("_residue")?;
        Ok((rebuild, (self.modulus(py)?, self.value_int(py)?)))
    }

    /// The modulus N.
    #[getter]
    fn modulus<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyInt>> {
        convert::int_of(py, self.ring.modulus())
    }

    /// The Montgomery form x R mod N, as the kernel holds it (R is the kernel's constant).
    #[getter]
    fn form<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyInt>> {
        convert::int_of(py, self.value.limbs())
    }

    /// The registry id of the kernel the residue's products run on (its R).
    #[getter]
    fn kernel(&self) -> &'static str {
        self.ring.residue_kernel_id()
    }
}

/// What `Residue.__reduce__` returns: the rebuilding function and its (N, value) arguments.
type Reduced<'py> = (Bound<'py, PyAny>, (Bound<'py, PyInt>, Bound<'py, PyInt>));

/// A batch argument: a sequence of ints or a sequence of residues (decided by its first entry).
pub(crate) enum Batch<'py> {
    Ints(crate::IntList),
    Residues(Vec<Bound<'py, Residue>>),
}

impl<'a, 'py> FromPyObject<'a, 'py> for Batch<'py> {
    type Error = PyErr;

    fn extract(ob: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let first_is_residue = (ob.is_instance_of::<PyList>() || ob.is_instance_of::<PyTuple>())
            && ob.len()? > 0
            && ob.get_item(0)?.is_instance_of::<Residue>();
        if !first_is_residue {
            return ob.extract().map(Batch::Ints);
        }
        let items: Vec<Bound<'py, PyAny>> = ob.extract()?;
        items
            .into_iter()
            .enumerate()
            .map(|(i, x)| {
                x.cast_into::<Residue>().map_err(|e| {
                    OperandTypeError::new_err(format!(
                        "expected a sequence of residues (its first entry is one), got {} at index {i}",
                        crate::type_name(e.into_inner().as_any())
                    ))
                })
            })
            .collect::<PyResult<_>>()
            .map(Batch::Residues)
    }
}

/// The values of a batch of residues, all of `ring`.
pub(crate) fn batch_values(
    ring: &Arc<CoreFast>,
    items: &[Bound<'_, Residue>],
) -> Result<Vec<Core>, Error> {
    items
        .iter()
        .map(|r| in_ring(ring, r.get()).map(Cow::into_owned))
        .collect()
}

/// Residue objects of `ring` for `values`, as a list.
pub(crate) fn residue_list(
    py: Python<'_>,
    ring: &Arc<CoreFast>,
    values: Vec<Core>,
) -> PyResult<Vec<Py<PyAny>>> {
    values
        .into_iter()
        .map(|value| {
            Ok(Bound::new(
                py,
                Residue {
                    ring: Arc::clone(ring),
                    value,
                },
            )?
            .into_any()
            .unbind())
        })
        .collect()
}
