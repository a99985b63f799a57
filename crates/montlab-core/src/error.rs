//! The one error type of montlab-core.
//!
//! Every fallible public function returns `Result<_, MontError>`; nothing in the public API
//! panics on user input. The Python binding maps this enum once (`From<MontError> for PyErr`)
//! onto `montlab.errors`: the `Modulus*` variants become `ModulusError`, the operand and
//! exponent variants become `OperandError`. The messages are written for the person who passed
//! the value: they say what was wrong and what is accepted.

use core::fmt;

/// Why a modulus, an operand or an exponent was rejected.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MontError {
    /// The modulus is even: Montgomery arithmetic needs `gcd(N, 2^64) = 1`.
    EvenModulus,
    /// The modulus is 0, 1 or negative: there is no ring to compute in.
    ModulusTooSmall,
    /// The modulus is longer than [`crate::engine::MAX_BITS`], the largest size the spectral
    /// kernels' transforms cover.
    ModulusTooLarge {
        /// Bits of the modulus given.
        bits: u64,
        /// The largest accepted.
        max: u64,
    },
    /// The modulus is longer than [`crate::engine::SPECTRAL_MAX_BITS`], the largest that the
    /// constant-time (word-level, quadratic) `pow_sec` takes.
    SecModulusTooLarge {
        /// Bits of the modulus given.
        bits: u64,
        /// The largest accepted.
        max: u64,
    },
    /// An operand is outside `0 <= value < N`; `which` names it (`"x"`, `"y"`, `"base"`, ...).
    OperandOutOfRange {
        /// The parameter name of the rejected operand.
        which: &'static str,
    },
    /// An operand is negative (only the binding layer, which sees signed integers, emits this).
    NegativeOperand {
        /// The parameter name of the rejected operand.
        which: &'static str,
    },
    /// The exponent is negative: modular inversion is not part of exponentiation here.
    NegativeExponent,
    /// A batch call got no operands.
    EmptyBatch,
    /// The operand lists of a batch call have different lengths.
    BatchLengthMismatch {
        /// Length of the first list.
        left: usize,
        /// Length of the second list.
        right: usize,
    },
    /// A threshold table could not be read; `line` is 1-based.
    InvalidThresholds {
        /// The offending line.
        line: usize,
    },
    /// The computation was stopped through its [`crate::stop::Stop`] flag before it finished.
    Interrupted,
    /// An exponent is longer than the public length its caller stated.
    ExponentTooLong {
        /// Bits of the exponent.
        bits: u64,
        /// The stated length in bits.
        max: u64,
    },
    /// A stated public exponent length is above what `pow_sec` takes.
    ExpBitsTooLarge {
        /// The stated length in bits.
        bits: u64,
        /// The most it takes.
        max: u64,
    },
    /// A kernel asked for by name needs an instruction set this CPU lacks.
    KernelNotOnCpu {
        /// The kernel's registry id.
        kernel: &'static str,
        /// What it needs.
        needs: &'static str,
    },
    /// A kernel asked for by name cannot take this modulus; `reason` says why.
    KernelRefusesModulus {
        /// The kernel's registry id.
        kernel: &'static str,
        /// Why, as a phrase.
        reason: &'static str,
    },
    /// An operand is longer than the operation takes; `which` names it.
    OperandTooLong {
        /// The parameter name of the rejected operand.
        which: &'static str,
        /// The most 64-bit limbs it may have.
        limbs: usize,
    },
    /// An RSA key in CRT form has the wrong shape; `reason` says what.
    InvalidCrtKey {
        /// What is wrong, as a phrase.
        reason: &'static str,
    },
    /// The residue has no inverse: it shares a factor with N (0 included).
    NotInvertible,
    /// Residues of two different moduli (or of one N under two product kernels, whose
    /// Montgomery constants differ) met in one operation.
    ResidueModulusMismatch,
    /// The operating system gave no random bytes (the blinding factor of `pow_sec`).
    Randomness,
}

impl fmt::Display for MontError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::EvenModulus => f.write_str(
                "the modulus must be odd: Montgomery multiplication needs N coprime to the word base 2^64",
            ),
            Self::ModulusTooSmall => f.write_str("the modulus must be an integer greater than 1"),
            Self::ModulusTooLarge { bits, max } => write!(
                f,
                "the modulus has {bits} bits; FastModulus and powm take up to {max} bits, the spectral kernel's largest transform (larger moduli: gmpy2, or the quadratic Cios engine)"
            ),
            Self::SecModulusTooLarge { bits, max } => write!(
                f,
                "the modulus has {bits} bits; pow_sec runs the constant-time word-level kernel, which takes up to {max} bits (a product there already takes seconds); use pow for larger moduli"
            ),
            Self::OperandOutOfRange { which } => write!(
                f,
                "operand {which} is out of range: it must satisfy 0 <= {which} < N (reduce it mod N first)"
            ),
            Self::NegativeOperand { which } => write!(
                f,
                "operand {which} is negative: it must satisfy 0 <= {which} < N (reduce it mod N first)"
            ),
            Self::NegativeExponent => f.write_str(
                "negative exponent is not supported: invert the base mod N first and use a non-negative exponent",
            ),
            Self::EmptyBatch => f.write_str("the batch is empty: pass at least one operand"),
            Self::Randomness => f.write_str(
                "the operating system gave no random bytes for pow_sec's blinding factor",
            ),
            Self::BatchLengthMismatch { left, right } => write!(
                f,
                "the batch operand lists differ in length ({left} and {right}): pass one entry of each per result"
            ),
            Self::InvalidThresholds { line } => write!(
                f,
                "threshold table line {line}: expected `key = non-negative integer` with a known key, a [section] or a # comment"
            ),
            Self::Interrupted => f.write_str("the computation was interrupted before it finished"),
            Self::ExponentTooLong { bits, max } => write!(
                f,
                "the exponent has {bits} bits, more than the stated exp_bits = {max}: state its public length"
            ),
            Self::ExpBitsTooLarge { bits, max } => write!(
                f,
                "exp_bits = {bits} is more than pow_sec takes ({max} bits)"
            ),
            Self::KernelNotOnCpu { kernel, needs } => write!(
                f,
                "the {kernel} kernel needs {needs}, which this CPU lacks (FastModulus picks a kernel this CPU runs)"
            ),
            Self::KernelRefusesModulus { kernel, reason } => {
                write!(f, "the {kernel} kernel cannot take this modulus: {reason}")
            }
            Self::OperandTooLong { which, limbs } => write!(
                f,
                "operand {which} is too long: it may have at most {limbs} 64-bit limbs (reduce it mod N first)"
            ),
            Self::InvalidCrtKey { reason } => write!(f, "invalid CRT key: {reason}"),
            Self::NotInvertible => {
                f.write_str("the residue is not invertible: it shares a factor with N")
            }
            Self::ResidueModulusMismatch => f.write_str(
                "the residues belong to different moduli: convert with int() and the other modulus first",
            ),
        }
    }
}

impl std::error::Error for MontError {}

#[cfg(test)]
mod tests {
    use super::MontError;

    #[test]
    fn messages_name_the_problem() {
        assert!(MontError::EvenModulus.to_string().contains("must be odd"));
        assert!(MontError::ModulusTooSmall
            .to_string()
            .contains("greater than 1"));
        let e = MontError::OperandOutOfRange { which: "y" };
        assert!(e.to_string().contains("operand y") && e.to_string().contains("0 <= y < N"));
        assert!(MontError::NegativeOperand { which: "base" }
            .to_string()
            .contains("base is negative"));
        assert!(MontError::NegativeExponent
            .to_string()
            .starts_with("negative exponent"));
        assert!(MontError::EmptyBatch.to_string().contains("empty"));
        assert!(MontError::BatchLengthMismatch { left: 2, right: 3 }
            .to_string()
            .contains("(2 and 3)"));
        assert!(MontError::InvalidThresholds { line: 4 }
            .to_string()
            .contains("line 4"));
        assert!(MontError::ModulusTooLarge { bits: 9, max: 8 }
            .to_string()
            .contains("9 bits"));
        assert!(MontError::SecModulusTooLarge { bits: 9, max: 8 }
            .to_string()
            .contains("pow_sec"));
        assert!(MontError::Interrupted.to_string().contains("interrupted"));
        assert!(MontError::ExponentTooLong { bits: 9, max: 8 }
            .to_string()
            .contains("9 bits"));
        assert!(MontError::ExpBitsTooLarge { bits: 9, max: 8 }
            .to_string()
            .contains("exp_bits = 9"));
        let e = MontError::KernelNotOnCpu {
            kernel: "amm",
            needs: "AVX-512 IFMA",
        };
        assert!(e.to_string().contains("amm kernel needs AVX-512 IFMA"));
        let e = MontError::KernelRefusesModulus {
            kernel: "spectral",
            reason: "it shares a factor with R",
        };
        assert!(e.to_string().contains("spectral kernel cannot take"));
    }
}
