//! Known-answer tests: every `cios` record with w = 64 (or no w), every `amm` record with w = 52
//! (on CPUs with AVX-512 IFMA) and every `spectral` and `ntt_redc` record in the shared vector
//! files.
//!
//! * `"mul"` records: `result` must equal `cios::mont_mul(x, y)` and, when present, `r` must be
//!   this engine's R = 2^(64 s) and `bound` must be 1 (CIOS output is fully reduced).
//! * `"reject"` records whose `error` is `ModulusError` or `OperandError`: the engine must reject
//!   the modulus or the operands with the matching `MontError` family.
//!
//! With no vector files (or no cios records) the test passes and says how many it checked; any
//! mismatch, malformed line or malformed cios record fails it.

mod common;

use common::vectors::{self, Record};
use montlab_core::mont::cios;
use montlab_core::{MontError, MontParams};
use num_bigint::{BigInt, Sign};
use num_traits::One;
use std::io::Write;

/// Magnitude limbs of a non-negative value; `None` for a negative one.
fn unsigned(v: &BigInt) -> Option<Vec<u64>> {
    match v.sign() {
        Sign::Minus => None,
        _ => Some(v.magnitude().to_u64_digits()),
    }
}

fn check_mul(rec: &Record) -> Result<(), String> {
    let src = &rec.source;
    let n = rec.req("modulus")?;
    let (x, y, result) = (rec.req("x")?, rec.req("y")?, rec.req("result")?);
    let dump = format!("modulus={n:#x} x={x:#x} y={y:#x} result={result:#x}");
    let nl = unsigned(&n).ok_or_else(|| format!("{src}: negative modulus in a mul record"))?;
    let p =
        MontParams::from_limbs(&nl).map_err(|e| format!("{src}: modulus rejected: {e}; {dump}"))?;
    if let Some(r) = rec.int("r")? {
        let ours = BigInt::one() << (64 * p.s());
        if r != ours {
            return Err(format!(
                "{src}: r = {r:#x} but the w = 64 engine uses R = 2^{}; {dump}",
                64 * p.s()
            ));
        }
    }
    if let Some(bound) = rec.int("bound")? {
        if !bound.is_one() {
            return Err(format!(
                "{src}: bound = {bound} but cios output is fully reduced (bound 1)"
            ));
        }
    }
    let (xl, yl) = match (unsigned(&x), unsigned(&y)) {
        (Some(a), Some(b)) => (a, b),
        _ => return Err(format!("{src}: negative operand in a mul record; {dump}")),
    };
    let got = cios::mont_mul(&p, &xl, &yl)
        .map_err(|e| format!("{src}: engine rejected the operands: {e}; {dump}"))?;
    let got = BigInt::from_biguint(Sign::Plus, common::big(&got));
    if got != result {
        return Err(format!(
            "{src}: cios mont_mul = {got:#x}, vector says {result:#x}; {dump}"
        ));
    }
    Ok(())
}

/// `Ok(true)` if checked, `Ok(false)` if the record is outside what the engine can express.
fn check_reject(rec: &Record) -> Result<bool, String> {
    let src = &rec.source;
    let error = rec
        .fields
        .get("error")
        .and_then(|v| v.as_str())
        .unwrap_or("");
    let n = rec.req("modulus")?;
    let x = rec.int("x")?;
    let y = rec.int("y")?;
    match error {
        "ModulusError" => {
            // Zero and negative moduli are "too small"; positive ones go through validation.
            match unsigned(&n) {
                None => Ok(true),
                Some(nl) => match MontParams::from_limbs(&nl) {
                    Err(MontError::EvenModulus | MontError::ModulusTooSmall) => Ok(true),
                    Err(e) => Err(format!(
                        "{src}: modulus {n:#x} rejected with {e:?}, expected a modulus error"
                    )),
                    Ok(_) => Err(format!(
                        "{src}: modulus {n:#x} accepted, vector expects ModulusError"
                    )),
                },
            }
        }
        "OperandError" => {
            let Some(nl) = unsigned(&n) else {
                return Ok(false);
            };
            let p =
                MontParams::from_limbs(&nl).map_err(|e| format!("{src}: modulus rejected: {e}"))?;
            let (x, y) = (x.unwrap_or_default(), y.unwrap_or_default());
            let (Some(xl), Some(yl)) = (unsigned(&x), unsigned(&y)) else {
                return Ok(true); // negative: rejected by the binding before reaching the core
            };
            match cios::mont_mul(&p, &xl, &yl) {
                Err(MontError::OperandOutOfRange { .. }) => Ok(true),
                Err(e) => Err(format!(
                    "{src}: rejected with {e:?}, expected an operand error"
                )),
                Ok(z) => Err(format!(
                    "{src}: x={x:#x} y={y:#x} accepted (result {:#x}), vector expects OperandError",
                    common::big(&z)
                )),
            }
        }
        _ => Ok(false), // ParameterError etc.: about parameters the native engine does not take
    }
}

#[test]
fn cios_vectors_match() {
    let (records, files) = vectors::load_all().unwrap_or_else(|e| panic!("vector files: {e}"));
    let (mut muls, mut rejects, mut skipped) = (0usize, 0usize, 0usize);
    let mut failures = Vec::new();
    for rec in records.iter().filter(|r| r.algo() == Some("cios")) {
        let w = rec.fields.get("params").and_then(|p| p.get("w"));
        if w.is_some() && rec.param("w") != Some(64) {
            continue; // other word sizes belong to the reference model only
        }
        match rec.kind() {
            "mul" => match check_mul(rec) {
                Ok(()) => muls += 1,
                Err(e) => failures.push(e),
            },
            "reject" => match check_reject(rec) {
                Ok(true) => rejects += 1,
                Ok(false) => skipped += 1,
                Err(e) => failures.push(e),
            },
            _ => skipped += 1,
        }
    }
    // Written to the stderr handle, not eprintln!, so libtest's capture does not hide the count.
    let _ = writeln!(
        std::io::stderr(),
        "cios KAT: {muls} mul and {rejects} reject records checked, {skipped} skipped, from {files} files under {}",
        vectors::vectors_dir().display()
    );
    assert!(
        failures.is_empty(),
        "{} cios vector failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The IFMA word kernel against every `amm` record with w = 52: the same integer (no final
/// subtraction), not only the same residue.
#[test]
fn amm_vectors_match() {
    use montlab_core::mont::amm::{self, IfmaParams};
    use montlab_core::OddModulus;
    use num_bigint::BigUint;

    let (records, files) = vectors::load_all().unwrap_or_else(|e| panic!("vector files: {e}"));
    let amm: Vec<&Record> = records
        .iter()
        .filter(|r| r.algo() == Some("amm") && r.kind() == "mul")
        .filter(|r| r.param("w").is_none_or(|w| w == 52))
        .collect();
    assert!(amm.len() > 100, "amm records with w = 52 in {files} files");
    if !amm::ifma_or_skip("amm KAT") {
        return;
    }
    let mut failures = Vec::new();
    for rec in &amm {
        let get = |k: &str| unsigned(&rec.req(k).unwrap()).unwrap();
        let (n, x, y, want) = (
            get("modulus"),
            get("x"),
            get("y"),
            rec.req("result").unwrap(),
        );
        let p = IfmaParams::new(&OddModulus::new(&n).unwrap()).unwrap();
        if let Some(r) = rec.int("r").unwrap() {
            assert_eq!(r, BigInt::one() << (52 * p.digits()), "{}: r", rec.source);
        }
        let (a, b) = (p.lazy_elem(&x), p.lazy_elem(&y));
        let mut out = a.clone();
        p.amm(&a, &b, &mut out);
        let got = out
            .digits()
            .iter()
            .rev()
            .fold(BigUint::default(), |acc, &d| (acc << 52) + d);
        if BigInt::from(got.clone()) != want {
            failures.push(format!("{}: got {got:#x}, want {want:#x}", rec.source));
        }
    }
    let _ = writeln!(
        std::io::stderr(),
        "amm KAT: {} records checked on the IFMA kernel",
        amm.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The spectral kernels against every `spectral` and `ntt_redc` record: the same result, the
/// transform length and R from the record's parameters.
#[test]
fn spectral_vectors_match() {
    use montlab_core::spectral::{NttRedcParams, SpectralParams};
    use montlab_core::OddModulus;

    let (records, files) = vectors::load_all().unwrap_or_else(|e| panic!("vector files: {e}"));
    let mut failures = Vec::new();
    let mut checked = [0usize; 2];
    for (i, algo) in ["spectral", "ntt_redc"].into_iter().enumerate() {
        for rec in records
            .iter()
            .filter(|r| r.algo() == Some(algo) && r.kind() == "mul")
        {
            let get = |k: &str| unsigned(&rec.req(k).unwrap()).unwrap();
            let (n, x, y, want) = (get("modulus"), get("x"), get("y"), get("result"));
            let p = usize::try_from(rec.param("P").expect("P in params")).unwrap();
            let m = OddModulus::new(&n).unwrap();
            let (got, l, plus) = if algo == "spectral" {
                let k = SpectralParams::with_len(&m, p).expect("a spectral record's N and P");
                (k.mont_mul(&x, &y).unwrap(), k.l_bits(), 1u8)
            } else {
                let k = NttRedcParams::new(&m).unwrap();
                assert_eq!(k.transform_len(), p, "{}: P", rec.source);
                (k.mont_mul(&x, &y).unwrap(), k.l_bits(), 0u8)
            };
            if let Some(r) = rec.int("r").unwrap() {
                assert_eq!(r, (BigInt::one() << l) + plus, "{}: r", rec.source);
            }
            if strip(got.clone()) != strip(want.clone()) {
                failures.push(format!("{}: got {got:x?}, want {want:x?}", rec.source));
            }
            checked[i] += 1;
        }
    }
    let _ = writeln!(
        std::io::stderr(),
        "spectral KAT: {} spectral and {} ntt_redc records from {files} files",
        checked[0],
        checked[1]
    );
    assert!(checked.iter().all(|&c| c > 100), "records: {checked:?}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Limbs without leading zeros.
fn strip(mut v: Vec<u64>) -> Vec<u64> {
    while v.last() == Some(&0) {
        v.pop();
    }
    v
}
