//! `adx`: the x86-64 MULX/ADCX/ADOX rows under the word-level kernels [`super::cios`] and
//! [`super::sqr`].
//!
//! Citation: Intel, "New Instructions Supporting Large Integer Arithmetic on Intel
//! Architecture Processors" (2012): MULX leaves the flags alone, ADCX carries through CF and
//! ADOX through OF, so one pass runs two independent carry chains, as GMP's `mpn_addmul_1` for
//! BMI2/ADX CPUs does. [`Adx::cios_mul`] is Koc-Acar-Kaliski's CIOS as published ("Analyzing and
//! comparing Montgomery multiplication algorithms", IEEE Micro 16(3), 1996): each round one
//! [`Adx::addmul_1`] pass `t += x_i y`, then m = t_0 N' mod 2^64 and one `redc_row` pass
//! `t = (t + m N) / 2^64`, the shift folded into its stores. `sqr` takes [`Adx::addmul_1`] for
//! every row of its square and of its REDC.
//!
//! Word size 64, radix 2^64. [`Adx::cios_mul`]: x, y < N, `s` limbs each; out = x y R^-1 mod N,
//! R = 2^(64 s), fully reduced by a branch-free final subtraction; accumulator `s + 2` limbs,
//! t < 2N after every round (t_s <= 1, t_(s+1) = 0), t < 2N + 2^64 N inside one. Each pass runs
//! `len mod 4` single steps, then unrolled groups of four; the loop control
//! (`lea`/`jrcxz`/`jmp`) leaves both flags alone.
//!
//! The boundary: [`enabled`] (BMI2 and ADX present, `MONTLAB_NO_ADX` unset) gates the dispatch
//! from [`MIN_LIMBS`] limbs; elsewhere the portable loops run. Results equal the portable
//! kernels' bit for bit (tests below). No branch or address depends on operand values.
//! Valgrind hides ADX from CPUID, so the `montlab-ct` taint harness checks the portable rows
//! only. Left out: other ISAs (Arm runs the portable loops), Karatsuba.

#![allow(unsafe_code)]

use crate::limb::{self, Limb};

/// Moduli of fewer limbs keep the portable kernels, whose fixed-length copies the compiler
/// unrolls; from here the assembly rows are faster (`examples/word_timings.rs`).
pub const MIN_LIMBS: usize = 9;

/// True when this CPU has BMI2 (MULX) and ADX (ADCX/ADOX) and `MONTLAB_NO_ADX` is unset
/// (read once). `MONTLAB_NO_IFMA=1` does not turn this off: it selects the non-IFMA paths,
/// of which this is one.
#[must_use]
pub fn enabled() -> bool {
    static USE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *USE.get_or_init(|| available() && std::env::var_os("MONTLAB_NO_ADX").is_none())
}

/// True when this CPU has BMI2 and ADX.
#[must_use]
pub fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("bmi2") && std::arch::is_x86_feature_detected!("adx")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The gate of every test of the ADX rows: true when the CPU has BMI2 and ADX. Otherwise the
/// test is skipped with a line naming `what`, unless `MONTLAB_REQUIRE_ADX` is set: then it
/// panics, so that a run that must cover the rows (CI on such a CPU) cannot pass by skipping.
///
/// # Panics
/// When the CPU lacks BMI2 or ADX and `MONTLAB_REQUIRE_ADX` is set.
#[must_use]
pub fn adx_or_skip(what: &str) -> bool {
    let on = available();
    if !on {
        assert!(
            std::env::var_os("MONTLAB_REQUIRE_ADX").is_none(),
            "{what}: MONTLAB_REQUIRE_ADX is set but this CPU lacks BMI2 or ADX"
        );
        eprintln!("{what}: no BMI2/ADX here, skipped");
    }
    on
}

/// Proof that this CPU has BMI2 and ADX, through which the assembly rows are safe to call:
/// the CPU is checked once, when the token is made, not at every row.
#[derive(Clone, Copy, Debug)]
pub struct Adx(());

impl Adx {
    /// The token, when this CPU has BMI2 and ADX ([`available`]).
    #[must_use]
    pub fn new() -> Option<Self> {
        available().then_some(Self(()))
    }

    /// The token, when the dispatch runs `s`-limb moduli on the rows: `s >= MIN_LIMBS` and
    /// [`enabled`].
    #[inline]
    #[must_use]
    pub fn for_limbs(s: usize) -> Option<Self> {
        (s >= MIN_LIMBS && enabled()).then_some(Self(()))
    }

    /// `r[0..len] += v a[0..len]`, returning the carry limb (what belongs at `r[len]`), for
    /// `len = r.len() = a.len()`. `len = 0` returns 0.
    ///
    /// # Panics
    /// If the lengths differ.
    #[inline(always)]
    pub fn addmul_1(self, r: &mut [Limb], a: &[Limb], v: Limb) -> Limb {
        assert_eq!(r.len(), a.len(), "adx: addmul_1 lengths differ");
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the token proves BMI2 and ADX; the asm reads a[0..len] and reads and writes
        // r[0..len], nothing else.
        unsafe {
            addmul_1_asm(r.as_mut_ptr(), a.as_ptr(), v, r.len())
        }
        #[cfg(not(target_arch = "x86_64"))]
        unreachable!("no token off x86-64")
    }

    /// Pass B of a CIOS round: `t = (t + m n) / 2^64` for `t` of `s + 2` limbs and `n` of
    /// `s >= 1`, where `m` makes the low limb vanish.
    ///
    /// # Panics
    /// If the lengths are not `s + 2` and `s >= 1`.
    #[inline(always)]
    fn redc_row(self, t: &mut [Limb], n: &[Limb], m: Limb) {
        let s = n.len();
        assert!(s >= 1 && t.len() == s + 2, "adx: redc_row lengths");
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the token proves BMI2 and ADX; the asm reads n[0..s] and reads and writes
        // t[0..s+2], nothing else.
        unsafe {
            redc_row(t.as_mut_ptr(), n.as_ptr(), m, s);
        }
        #[cfg(not(target_arch = "x86_64"))]
        unreachable!("no token off x86-64")
    }

    /// `out = x y R^-1 mod N`, the contract of [`super::cios::mont_mul_into`] (`x` may be
    /// anywhere below R, as for [`super::cios::mont_mul_wide_into`]); `t` has `s + 2` limbs.
    ///
    /// # Panics
    /// If a slice has the wrong length.
    pub(crate) fn cios_mul(
        self,
        n: &[Limb],
        n0_inv: Limb,
        x: &[Limb],
        y: &[Limb],
        out: &mut [Limb],
        t: &mut [Limb],
    ) {
        let s = n.len();
        assert!(s >= 1 && x.len() == s && y.len() == s && out.len() == s && t.len() == s + 2);
        t.fill(0);
        for &xi in x {
            let c = self.addmul_1(&mut t[..s], y, xi);
            (t[s], t[s + 1]) = limb::adc(t[s], c, 0);
            let m = t[0].wrapping_mul(n0_inv);
            self.redc_row(t, n, m);
            debug_assert!(t[s + 1] == 0 && t[s] <= 1, "adx: accumulator exceeded 2R");
        }
        limb::ct_reduce_once(out, &t[..s], t[s], n);
    }
}

/// [`Adx::redc_row`] on raw pointers. The asm needs no `#[target_feature]` (the assembler
/// takes every instruction), so it inlines into the portable callers.
///
/// # Safety
/// BMI2 and ADX present; `t` valid for `s + 2` limbs, `n` for `s`; `s >= 1`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn redc_row(t: *mut Limb, n: *const Limb, m: Limb, s: usize) {
    // Limb 0 sums to 0 mod 2^64 (only its carries matter); limb j >= 1 is stored to t_(j-1).
    // SAFETY: the caller's contract; every access is within t[0..s+2] and n[0..s].
    unsafe {
        core::arch::asm!(
            "xor r10d, r10d",
            "mulx r10, r8, qword ptr [rsi]",
            "adcx r8, qword ptr [rdi]",
            "lea rsi, [rsi + 8]",
            "lea rdi, [rdi + 8]",
            "2:",
            "jrcxz 3f",
            "mulx r9, r8, qword ptr [rsi]",
            "adox r8, r10",
            "adcx r8, qword ptr [rdi]",
            "mov qword ptr [rdi - 8], r8",
            "mov r10, r9",
            "lea rsi, [rsi + 8]",
            "lea rdi, [rdi + 8]",
            "lea rcx, [rcx - 1]",
            "jmp 2b",
            "3:",
            "mov rcx, r11",
            "4:",
            "jrcxz 5f",
            "mulx r9, r8, qword ptr [rsi]",
            "adox r8, r10",
            "adcx r8, qword ptr [rdi]",
            "mov qword ptr [rdi - 8], r8",
            "mulx r10, r8, qword ptr [rsi + 8]",
            "adox r8, r9",
            "adcx r8, qword ptr [rdi + 8]",
            "mov qword ptr [rdi], r8",
            "mulx r9, r8, qword ptr [rsi + 16]",
            "adox r8, r10",
            "adcx r8, qword ptr [rdi + 16]",
            "mov qword ptr [rdi + 8], r8",
            "mulx r10, r8, qword ptr [rsi + 24]",
            "adox r8, r9",
            "adcx r8, qword ptr [rdi + 24]",
            "mov qword ptr [rdi + 16], r8",
            "lea rsi, [rsi + 32]",
            "lea rdi, [rdi + 32]",
            "lea rcx, [rcx - 1]",
            "jmp 4b",
            "5:",
            // New t_(s-1) = t_s + hi_(s-1) + OF + CF; new t_s = t_(s+1) + carry; t_(s+1) = 0.
            "mov r8, 0",
            "adox r10, r8",
            "adcx r10, qword ptr [rdi]",
            "mov qword ptr [rdi - 8], r10",
            "adcx r8, qword ptr [rdi + 8]",
            "mov qword ptr [rdi], r8",
            "mov qword ptr [rdi + 8], 0",
            inout("rdi") t => _,
            inout("rsi") n => _,
            inout("rcx") (s - 1) % 4 => _,
            in("r11") (s - 1) / 4,
            in("rdx") m,
            out("r8") _,
            out("r9") _,
            out("r10") _,
            options(nostack),
        );
    }
}

/// [`Adx::addmul_1`] on raw pointers.
///
/// # Safety
/// BMI2 and ADX present; `r` and `a` valid for `len` limbs.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn addmul_1_asm(r: *mut Limb, a: *const Limb, v: Limb, len: usize) -> Limb {
    let carry: Limb;
    // SAFETY: the caller's contract.
    unsafe {
        core::arch::asm!(
            "xor r10d, r10d",
            "2:",
            "jrcxz 3f",
            "mulx r9, r8, qword ptr [rsi]",
            "adox r8, r10",
            "adcx r8, qword ptr [rdi]",
            "mov qword ptr [rdi], r8",
            "mov r10, r9",
            "lea rsi, [rsi + 8]",
            "lea rdi, [rdi + 8]",
            "lea rcx, [rcx - 1]",
            "jmp 2b",
            "3:",
            "mov rcx, r11",
            "4:",
            "jrcxz 5f",
            "mulx r9, r8, qword ptr [rsi]",
            "adox r8, r10",
            "adcx r8, qword ptr [rdi]",
            "mov qword ptr [rdi], r8",
            "mulx r10, r8, qword ptr [rsi + 8]",
            "adox r8, r9",
            "adcx r8, qword ptr [rdi + 8]",
            "mov qword ptr [rdi + 8], r8",
            "mulx r9, r8, qword ptr [rsi + 16]",
            "adox r8, r10",
            "adcx r8, qword ptr [rdi + 16]",
            "mov qword ptr [rdi + 16], r8",
            "mulx r10, r8, qword ptr [rsi + 24]",
            "adox r8, r9",
            "adcx r8, qword ptr [rdi + 24]",
            "mov qword ptr [rdi + 24], r8",
            "lea rsi, [rsi + 32]",
            "lea rdi, [rdi + 32]",
            "lea rcx, [rcx - 1]",
            "jmp 4b",
            "5:",
            // carry = hi_(len-1) + OF + CF: r + v a < 2^(64 (len + 1)), so it fits a limb.
            "mov r8, 0",
            "adox r10, r8",
            "adcx r10, r8",
            inout("rdi") r => _,
            inout("rsi") a => _,
            inout("rcx") len % 4 => _,
            in("r11") len / 4,
            in("rdx") v,
            out("r8") _,
            out("r9") _,
            out("r10") carry,
            options(nostack),
        );
    }
    carry
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mont::{cios, sqr};
    use crate::params::MontParams;

    #[test]
    fn addmul_1_matches_u128_arithmetic() {
        if !adx_or_skip("adx::addmul_1") {
            return;
        }
        let adx = Adx::new().expect("checked");
        let mut seed = 0x0bad_cafe_dead_beef;
        for len in 0..=21 {
            for v in [0, 1, Limb::MAX, limb::xorshift_limbs(&mut seed, 1)[0]] {
                let (a, r0) = (
                    limb::xorshift_limbs(&mut seed, len),
                    limb::xorshift_limbs(&mut seed, len),
                );
                let maxed = vec![Limb::MAX; len];
                for (a, r0) in [(a, r0), (maxed.clone(), maxed.clone())] {
                    let mut want = r0.clone();
                    let want_c = sqr::addmul_1(&mut want, &a, v);
                    let mut got = r0.clone();
                    assert_eq!(adx.addmul_1(&mut got, &a, v), want_c, "len {len}");
                    assert_eq!(got, want, "len {len}");
                }
            }
        }
    }

    /// Products, wide products (x up to R - 1) and squarings on the ADX rows equal the portable
    /// kernels' for every length 1 to 70 (every `len mod 4` and both sides of `MIN_LIMBS`), on
    /// all-ones, random and short-top-limb moduli, at N - 1, 0 and random operands.
    #[test]
    fn equal_the_portable_kernels() {
        if !adx_or_skip("adx kernels") {
            return;
        }
        let adx = Adx::new().expect("checked");
        let mut seed = 0x1234_5678_9abc_def1;
        for s in 1..=70 {
            for case in 0..4 {
                let mut n = match case {
                    0 => vec![Limb::MAX; s],
                    _ => limb::xorshift_limbs(&mut seed, s),
                };
                n[0] |= 1;
                n[s - 1] |= 1 << 63;
                if case == 1 {
                    n[s - 1] = 1 + u64::from(s == 1) * 2; // a short top limb (N > 1)
                }
                let p = MontParams::from_limbs(&n).unwrap();
                let below = |mut v: Vec<Limb>| {
                    while limb::cmp(&v, p.modulus()).is_ge() {
                        v[s - 1] >>= 1;
                    }
                    v
                };
                let mut nm1 = p.modulus().to_vec();
                nm1[0] -= 1;
                let pairs = [
                    (
                        below(limb::xorshift_limbs(&mut seed, s)),
                        below(limb::xorshift_limbs(&mut seed, s)),
                    ),
                    (nm1.clone(), nm1.clone()),
                    (vec![0; s], nm1.clone()),
                    (vec![Limb::MAX; s], nm1.clone()), // wide: x = R - 1
                ];
                for (x, y) in pairs {
                    let (mut want, mut got) = (vec![0; s], vec![0; s]);
                    let mut t = vec![0; cios::scratch_len(s)];
                    cios::mul_portable(&p, &x, &y, &mut want, &mut t);
                    adx.cios_mul(p.modulus(), p.n0_inv(), &x, &y, &mut got, &mut t);
                    assert_eq!(got, want, "mul: s = {s}, case {case}");
                    if limb::cmp(&x, p.modulus()).is_ge() {
                        continue;
                    }
                    let mut w = vec![0; sqr::scratch_len(s)];
                    sqr::sqr_with(&p, &x, &mut want, &mut w, None);
                    sqr::sqr_with(&p, &x, &mut got, &mut w, Some(adx));
                    assert_eq!(got, want, "sqr: s = {s}, case {case}");
                    cios::mul_portable(&p, &x, &x, &mut got, &mut t);
                    assert_eq!(got, want, "sqr against the product: s = {s}, case {case}");
                }
            }
        }
    }
}
