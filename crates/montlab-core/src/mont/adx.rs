//! `adx`: the x86-64 MULX/ADCX/ADOX rows under the word-level kernels [`super::cios`] and
//! [`super::sqr`].
//!
//! Citation: Intel, "New Instructions Supporting Large Integer Arithmetic on Intel
//! Architecture Processors" (2012): MULX leaves the flags alone, ADCX carries through CF and
//! ADOX through OF, so one pass runs two independent carry chains, as GMP's `mpn_addmul_1` for
//! BMI2/ADX CPUs does. The products of [`super::cios`] on this path separate the operand
//! scanning (Koc-Acar-Kaliski's SOS, "Analyzing and comparing Montgomery multiplication
//! algorithms", IEEE Micro 16(3), 1996): the rows of the product ([`Adx::mul_rows`], under
//! [`super::karatsuba`]), then the REDC rows ([`Adx::redc_rows`]: m = w_i N' mod 2^64, w +=
//! m N W^i). `sqr` runs the rows of its square ([`Adx::cross_products`]) and the same REDC rows.
//! Each set of rows is one assembly loop. `karatsuba` adds and subtracts with [`Adx::add_n`],
//! [`Adx::sub_n`] and their in-place forms (plain ADC/SBB chains, four limbs a step, as GMP's
//! `mpn_add_n`).
//!
//! Word size 64, radix 2^64. A row runs one group of four limbs when `len / 4` is odd, then
//! groups of eight, then `len mod 4` single steps; the loop control (`lea`/`jrcxz`/`jmp`)
//! leaves both flags alone. Lengths are the callers' (slices checked before each assembly
//! block).
//!
//! The boundary: [`enabled`] (BMI2 and ADX present, `MONTLAB_NO_ADX` unset) gates the dispatch
//! from [`MIN_LIMBS`] limbs; elsewhere the portable loops run. Results equal the portable
//! kernels' bit for bit (tests below). No branch or address depends on operand values.
//! Valgrind hides ADX from CPUID, so the `montlab-ct` taint harness checks the portable rows
//! only. Left out: other ISAs (Arm runs the portable loops).

#![allow(unsafe_code)]

use crate::limb::Limb;

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
    super::run_or_skip(
        available(),
        "MONTLAB_REQUIRE_ADX",
        what,
        "this CPU lacks BMI2 or ADX",
    )
}

/// One MULX/ADX row over `len` limbs (in r11), as assembly text, over r (rdi) and a (rsi), v in
/// rdx; both pointers end one past their last limb and the returned limb is in r10. The limbs
/// go low to high: one group of four when `len / 4` is odd, then `len / 8` unrolled groups of
/// eight, then `len mod 4` single steps. Per limb: MULX the product, ADOX its low word onto
/// the previous high word (the product's own carry chain, OF), then `$neg` (nothing, or NOT,
/// which leaves the flags alone), then ADCX onto r's limb (CF). `$start` sets up CF; `$end`
/// turns the last high word, OF and CF into the returned limb. Once the chains start, nothing
/// writes the flags but them: the loop control is `lea`/`jrcxz`/`jmp`, and the counts come
/// out of r11, packed as [`packed`] does (in Rust, or by `cross_products`' row head, whose
/// lengths vary), by `mov`/`rorx`/`movzx`.
/// Clobbers r8 to r11 and rcx. Labels 3 to 8 are its own; the callers' loops use 9.
#[cfg(target_arch = "x86_64")]
macro_rules! row_text {
    (start: $start:literal, neg: $neg:literal, end: $end:literal) => {
        concat!(
            "mov rcx, r11\n",
            "shr rcx, 48\n",
            "xor r10d, r10d\n",
            $start,
            "\n",
            "jrcxz 3f\n",
            group_text!($neg, "", " + 8", " + 16", " + 24"),
            "lea rsi, [rsi + 32]\n",
            "lea rdi, [rdi + 32]\n",
            "3:\n",
            "mov ecx, r11d\n",
            "jrcxz 8f\n",
            "jmp 4f\n",
            "8:\n",
            "jmp 5f\n",
            "4:\n",
            group_text!($neg, "", " + 8", " + 16", " + 24"),
            group_text!($neg, " + 32", " + 40", " + 48", " + 56"),
            "lea rsi, [rsi + 64]\n",
            "lea rdi, [rdi + 64]\n",
            "lea rcx, [rcx - 1]\n",
            "jrcxz 5f\n",
            "jmp 4b\n",
            "5:\n",
            "rorx rcx, r11, 32\n",
            "movzx ecx, cx\n",
            "6:\n",
            "jrcxz 7f\n",
            limb_text!($neg, "r9", "r10", ""),
            "mov r10, r9\n",
            "lea rsi, [rsi + 8]\n",
            "lea rdi, [rdi + 8]\n",
            "lea rcx, [rcx - 1]\n",
            "jmp 6b\n",
            "7:\n",
            "mov r8, 0\n",
            "adox r10, r8\n",
            $end,
            "\n",
            "adcx r10, r8\n",
        )
    };
}

/// The counts of a row of `len` limbs as [`row_text`] reads them: `len / 8` in bits 0..32,
/// `len mod 4` from bit 32 and `(len / 4) mod 2` (the leading group of four) at bit 48.
const fn packed(len: usize) -> u64 {
    let len = len as u64;
    (len >> 3) | ((len & 3) << 32) | (((len >> 2) & 1) << 48)
}

/// One limb of [`row_text`] at byte offset `$off` from rsi and rdi: the product's high word
/// into `$hi`, its low word plus the previous high word `$prev` (OF), then onto r (CF).
#[cfg(target_arch = "x86_64")]
macro_rules! limb_text {
    ($neg:literal, $hi:literal, $prev:literal, $off:literal) => {
        concat!(
            "mulx ",
            $hi,
            ", r8, qword ptr [rsi",
            $off,
            "]\n",
            "adox r8, ",
            $prev,
            "\n",
            $neg,
            "\n",
            "adcx r8, qword ptr [rdi",
            $off,
            "]\n",
            "mov qword ptr [rdi",
            $off,
            "], r8\n",
        )
    };
}

/// Four limbs of [`row_text`], the high words alternating between r9 and r10.
#[cfg(target_arch = "x86_64")]
macro_rules! group_text {
    ($neg:literal, $o0:literal, $o1:literal, $o2:literal, $o3:literal) => {
        concat!(
            limb_text!($neg, "r9", "r10", $o0),
            limb_text!($neg, "r10", "r9", $o1),
            limb_text!($neg, "r9", "r10", $o2),
            limb_text!($neg, "r10", "r9", $o3),
        )
    };
}

/// An assembly loop over r15 rows of [`row_text`] (r15 >= 1): each row adds into the limbs at
/// r13 the limbs at r14 times rdx; `head` sets rdx and the length r11 before it, `tail` stores
/// its carry (r10) and moves r13, r14 and what else it reads on. `core::arch::asm!` with the
/// registers every row clobbers (rdi, rsi, rcx, rdx, r8 to r11) and no stack; the caller names
/// r13 to r15 and the rest.
#[cfg(target_arch = "x86_64")]
macro_rules! rows_loop {
    (head: [$($head:literal),*], tail: [$($tail:literal),*], $($args:tt)*) => {
        core::arch::asm!(
            "9:",
            "mov rdi, r13",
            "mov rsi, r14",
            $($head,)*
            row_text!(start: "", neg: "", end: ""),
            $($tail,)*
            "dec r15",
            "jnz 9b",
            $($args)*
            out("rdi") _,
            out("rsi") _,
            out("rcx") _,
            out("rdx") _,
            out("r8") _,
            out("r9") _,
            out("r10") _,
            out("r11") _,
            options(nostack),
        )
    };
}

/// `r = a (+|-) b (+|-) c` over `len` limbs with the carry (borrow) out, `$op` ADC or SBB:
/// `len mod 4` single limbs, then groups of four. `neg` sets CF to c (0 - c borrows when c = 1)
/// before the chain; `dec` and `lea` leave CF alone, so the loops carry it through.
#[cfg(target_arch = "x86_64")]
macro_rules! addsub_n_asm {
    ($op:literal, $r:expr, $a:expr, $b:expr, $len:expr, $c:expr) => {{
        let c: Limb;
        core::arch::asm!(
            "mov r9, rcx",
            "shr rcx, 2",
            "and r9d, 3",
            "neg rax",
            "xchg rcx, r9",
            "jrcxz 3f",
            "2:",
            "mov r10, qword ptr [rsi]",
            concat!($op, " r10, qword ptr [rdx]"),
            "mov qword ptr [rdi], r10",
            "lea rsi, [rsi + 8]",
            "lea rdx, [rdx + 8]",
            "lea rdi, [rdi + 8]",
            "dec rcx",
            "jnz 2b",
            "3:",
            "xchg rcx, r9",
            "jrcxz 5f",
            "4:",
            "mov r10, qword ptr [rsi]",
            "mov r11, qword ptr [rsi + 8]",
            concat!($op, " r10, qword ptr [rdx]"),
            concat!($op, " r11, qword ptr [rdx + 8]"),
            "mov qword ptr [rdi], r10",
            "mov qword ptr [rdi + 8], r11",
            "mov r10, qword ptr [rsi + 16]",
            "mov r11, qword ptr [rsi + 24]",
            concat!($op, " r10, qword ptr [rdx + 16]"),
            concat!($op, " r11, qword ptr [rdx + 24]"),
            "mov qword ptr [rdi + 16], r10",
            "mov qword ptr [rdi + 24], r11",
            "lea rsi, [rsi + 32]",
            "lea rdx, [rdx + 32]",
            "lea rdi, [rdi + 32]",
            "dec rcx",
            "jnz 4b",
            "5:",
            "mov eax, 0",
            "setc al",
            inout("rdi") $r => _,
            inout("rsi") $a => _,
            inout("rdx") $b => _,
            inout("rcx") $len => _,
            inout("rax") $c => c,
            out("r9") _,
            out("r10") _,
            out("r11") _,
            options(nostack),
        );
        c
    }};
}

/// One row, `r[0..len] (+|-)= v a[0..len]` (see [`row_text`]), returning its last limb.
#[cfg(target_arch = "x86_64")]
macro_rules! row_asm {
    ($r:expr, $a:expr, $v:expr, $len:expr, start: $start:literal, neg: $neg:literal, end: $end:literal) => {{
        let out: Limb;
        core::arch::asm!(
            row_text!(start: $start, neg: $neg, end: $end),
            inout("rdi") $r => _,
            inout("rsi") $a => _,
            inout("r11") packed($len) => _,
            out("rcx") _,
            in("rdx") $v,
            out("r8") _,
            out("r9") _,
            out("r10") out,
            options(nostack),
        );
        out
    }};
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

    /// `r[0..len] -= v a[0..len]`, returning the borrow limb (what to subtract at `r[len]`),
    /// for `len = r.len() = a.len()`: the row of [`crate::limbdiv`]. `len = 0` returns 0.
    ///
    /// # Panics
    /// If the lengths differ.
    #[inline(always)]
    pub fn submul_1(self, r: &mut [Limb], a: &[Limb], v: Limb) -> Limb {
        assert_eq!(r.len(), a.len(), "adx: submul_1 lengths differ");
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as for `addmul_1`.
        unsafe {
            submul_1_asm(r.as_mut_ptr(), a.as_ptr(), v, r.len())
        }
        #[cfg(not(target_arch = "x86_64"))]
        unreachable!("no token off x86-64")
    }

    /// Step 1 of [`super::sqr`]'s square, every row in one assembly loop: for i in 0..s - 1,
    /// `w[2 i + 1..i + s] += x_i x[i + 1..]`, its carry stored at `w[i + s]`. `w` has `2 s`
    /// limbs and is 0 on entry below limb s (the rows read nothing else before writing it).
    ///
    /// # Panics
    /// If `w.len() != 2 x.len()`.
    pub(crate) fn cross_products(self, x: &[Limb], w: &mut [Limb]) {
        let s = x.len();
        assert_eq!(w.len(), 2 * s, "adx: cross_products needs 2 s limbs");
        if s < 2 {
            return;
        }
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the token proves BMI2 and ADX. Row i (length s - 1 - i >= 1) reads
        // x[i..s] and writes w[2 i + 1..=i + s], all in bounds for i <= s - 2.
        unsafe {
            rows_loop!(
                head: [
                    "mov rdx, qword ptr [r12]",
                    // r11 = packed(r15), as `packed` computes it.
                    "mov r11, r15",
                    "mov r8, r11",
                    "shr r8, 2",
                    "and r8d, 1",
                    "shl r8, 48",
                    "mov rcx, r11",
                    "and ecx, 3",
                    "shl rcx, 32",
                    "shr r11, 3",
                    "or r11, r8",
                    "or r11, rcx"
                ],
                tail: [
                    "mov qword ptr [rdi], r10",
                    "lea r13, [r13 + 16]",
                    "lea r14, [r14 + 8]",
                    "lea r12, [r12 + 8]"
                ],
                inout("r12") x.as_ptr() => _,
                inout("r13") w.as_mut_ptr().add(1) => _,
                inout("r14") x.as_ptr().add(1) => _,
                inout("r15") s - 1 => _,
            );
        }
    }

    /// The rows of a schoolbook product in one assembly loop: for i in 0..s, `w[i..i + s] +=
    /// x_i y`, the row's carry stored at `w[i + s]` (no row has written it yet). `w` has
    /// `x.len() + s` limbs and is 0 below limb s on entry; s = `y.len()` >= 1.
    ///
    /// # Panics
    /// If `w.len() != x.len() + y.len()` or `y` is empty.
    pub(crate) fn mul_rows(self, x: &[Limb], y: &[Limb], w: &mut [Limb]) {
        let s = y.len();
        assert!(
            s >= 1 && w.len() == x.len() + s,
            "adx: mul_rows needs x.len() + y.len() limbs"
        );
        if x.is_empty() {
            return;
        }
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the token proves BMI2 and ADX. Row i reads x_i and y[0..s] and writes
        // w[i..=i + s], in bounds for i < x.len().
        unsafe {
            rows_loop!(
                head: ["mov rdx, qword ptr [r12]", "mov r11, rax"],
                tail: [
                    "mov qword ptr [rdi], r10",
                    "lea r13, [r13 + 8]",
                    "lea r12, [r12 + 8]"
                ],
                in("rax") packed(s),
                inout("r12") x.as_ptr() => _,
                inout("r13") w.as_mut_ptr() => _,
                in("r14") y.as_ptr(),
                inout("r15") x.len() => _,
            );
        }
    }

    /// `r = a + b + cin` over `len = r.len()` limbs (`a`, `b` as long), returning the carry:
    /// one ADC chain, four limbs a step. `r` may be `a` (see [`Adx::add_assign_n`]).
    ///
    /// # Panics
    /// If the lengths differ or `cin > 1`.
    #[inline]
    pub(crate) fn add_n(self, r: &mut [Limb], a: &[Limb], b: &[Limb], cin: Limb) -> Limb {
        assert!(a.len() == r.len() && b.len() == r.len() && cin <= 1);
        // SAFETY: the lengths are checked; the asm reads a and b and writes r, len limbs each.
        #[cfg(target_arch = "x86_64")]
        unsafe {
            addsub_n_asm!("adc", r.as_mut_ptr(), a.as_ptr(), b.as_ptr(), r.len(), cin)
        }
        #[cfg(not(target_arch = "x86_64"))]
        unreachable!("no token off x86-64")
    }

    /// `r += b + cin` over `r.len() = b.len()` limbs, returning the carry.
    ///
    /// # Panics
    /// If the lengths differ or `cin > 1`.
    #[inline]
    pub(crate) fn add_assign_n(self, r: &mut [Limb], b: &[Limb], cin: Limb) -> Limb {
        assert!(b.len() == r.len() && cin <= 1);
        let p = r.as_mut_ptr();
        // SAFETY: as for `add_n`; each limb of r is read before it is written.
        #[cfg(target_arch = "x86_64")]
        unsafe {
            addsub_n_asm!("adc", p, p.cast_const(), b.as_ptr(), r.len(), cin)
        }
        #[cfg(not(target_arch = "x86_64"))]
        unreachable!("no token off x86-64")
    }

    /// `r = a - b - bin` over `len = r.len()` limbs, returning the borrow: one SBB chain.
    ///
    /// # Panics
    /// If the lengths differ or `bin > 1`.
    #[inline]
    pub(crate) fn sub_n(self, r: &mut [Limb], a: &[Limb], b: &[Limb], bin: Limb) -> Limb {
        assert!(a.len() == r.len() && b.len() == r.len() && bin <= 1);
        // SAFETY: as for `add_n`.
        #[cfg(target_arch = "x86_64")]
        unsafe {
            addsub_n_asm!("sbb", r.as_mut_ptr(), a.as_ptr(), b.as_ptr(), r.len(), bin)
        }
        #[cfg(not(target_arch = "x86_64"))]
        unreachable!("no token off x86-64")
    }

    /// `r -= a + bin` over `r.len() = a.len()` limbs, returning the borrow.
    ///
    /// # Panics
    /// If the lengths differ or `bin > 1`.
    #[inline]
    pub(crate) fn sub_assign_n(self, r: &mut [Limb], a: &[Limb], bin: Limb) -> Limb {
        assert!(a.len() == r.len() && bin <= 1);
        let p = r.as_mut_ptr();
        // SAFETY: as for `add_assign_n`.
        #[cfg(target_arch = "x86_64")]
        unsafe {
            addsub_n_asm!("sbb", p, p.cast_const(), a.as_ptr(), r.len(), bin)
        }
        #[cfg(not(target_arch = "x86_64"))]
        unreachable!("no token off x86-64")
    }

    /// The rows of word-by-word REDC in one assembly loop: for i in 0..s, `m = w[i] n0_inv`,
    /// `w[i..i + s] += m N`, which zeroes `w[i]`, and the row's carry (due at limb i + s) is
    /// parked in `w[i]`, as [`super::sqr`]'s portable REDC does. `w` has `2 s` limbs.
    ///
    /// # Panics
    /// If `w.len() != 2 n.len()` or N is empty.
    pub(crate) fn redc_rows(self, n: &[Limb], n0_inv: Limb, w: &mut [Limb]) {
        let s = n.len();
        assert!(s >= 1 && w.len() == 2 * s, "adx: redc_rows needs 2 s limbs");
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the token proves BMI2 and ADX. Row i reads N and reads and writes
        // w[i..i + s], in bounds for i < s.
        unsafe {
            rows_loop!(
                head: ["mov rdx, qword ptr [r13]", "imul rdx, r12", "mov r11, rax"],
                tail: ["mov qword ptr [r13], r10", "lea r13, [r13 + 8]"],
                in("rax") packed(s),
                in("r12") n0_inv,
                inout("r13") w.as_mut_ptr() => _,
                in("r14") n.as_ptr(),
                inout("r15") s => _,
            );
        }
    }
}

/// `r += v a` over `len` limbs, returning the carry: hi_(len-1) + OF + CF, which fits a limb
/// because r + v a < 2^(64 (len + 1)).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn addmul_1_asm(r: *mut Limb, a: *const Limb, v: Limb, len: usize) -> Limb {
    // SAFETY: the caller's contract (`Adx::addmul_1`).
    unsafe { row_asm!(r, a, v, len, start: "", neg: "", end: "") }
}

/// `r -= v a` as `r + !(v a) + 1`: the product's limbs complemented (NOT) and added with CF = 1
/// at the start (STC). The borrow is the product's top limb plus 1 - CF (CMC, then ADCX): at
/// most 2^64 - 1.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn submul_1_asm(r: *mut Limb, a: *const Limb, v: Limb, len: usize) -> Limb {
    // SAFETY: the caller's contract (`Adx::submul_1`).
    unsafe { row_asm!(r, a, v, len, start: "stc", neg: "not r8", end: "cmc") }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limb;
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

    /// The product rows and the add and subtract chains equal the portable ones for every
    /// length 0 to 21 (every `len mod 4` and `len / 8`), with carry-in 0 and 1, on random and
    /// all-ones limbs.
    #[test]
    fn passes_match_portable() {
        if !adx_or_skip("adx add/sub passes and product rows") {
            return;
        }
        let adx = Adx::new().expect("checked");
        let mut seed = 0x7061_7373_6573_0001;
        for len in 0..=21 {
            let rnd = |seed: &mut u64| limb::xorshift_limbs(seed, len);
            let ones = vec![Limb::MAX; len];
            for (a, b) in [
                (rnd(&mut seed), rnd(&mut seed)),
                (ones.clone(), ones.clone()),
            ] {
                for c in [0, 1] {
                    let (mut want, mut got) = (vec![0; len], vec![0; len]);
                    let wc = sqr::Rows::add_n(sqr::Portable, &mut want, &a, &b, c);
                    assert_eq!(adx.add_n(&mut got, &a, &b, c), wc, "add_n len {len}");
                    assert_eq!(got, want, "add_n len {len}");
                    got.copy_from_slice(&a);
                    assert_eq!(adx.add_assign_n(&mut got, &b, c), wc, "add_assign_n {len}");
                    assert_eq!(got, want, "add_assign_n len {len}");
                    let wb = sqr::Rows::sub_n(sqr::Portable, &mut want, &a, &b, c);
                    assert_eq!(adx.sub_n(&mut got, &a, &b, c), wb, "sub_n len {len}");
                    assert_eq!(got, want, "sub_n len {len}");
                    got.copy_from_slice(&a);
                    assert_eq!(adx.sub_assign_n(&mut got, &b, c), wb, "sub_assign_n {len}");
                    assert_eq!(got, want, "sub_assign_n len {len}");
                }
                if len == 0 {
                    continue;
                }
                let x = rnd(&mut seed);
                let (mut want, mut got) = (vec![0; len + x.len()], vec![0; len + x.len()]);
                sqr::Rows::mul_rows(sqr::Portable, &x, &a, &mut want);
                adx.mul_rows(&x, &a, &mut got);
                assert_eq!(got, want, "mul_rows len {len}");
            }
        }
    }

    /// Products (the SOS product, split from Karatsuba's threshold), wide products (x up to
    /// R - 1) and squarings on the ADX rows equal the portable kernels' for every length 1 to 70
    /// (every `len mod 4`, both sides of `MIN_LIMBS` and of Karatsuba's threshold), on
    /// the moduli of `limb::edge_moduli`, at N - 1, 0, R - 1 and random operands.
    #[test]
    fn equal_the_portable_kernels() {
        if !adx_or_skip("adx kernels") {
            return;
        }
        let adx = Adx::new().expect("checked");
        let mut seed = 0x1234_5678_9abc_def1;
        for s in 1..=70 {
            for (case, n) in limb::edge_moduli(&mut seed, s).into_iter().enumerate() {
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
                    cios::sos_adx(p.modulus(), p.n0_inv(), &x, &y, &mut got, &mut t, adx);
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
