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
//! m N W^i). `sqr` runs its square ([`Adx::square`]: the cross-product rows, then one pass
//! that doubles and adds the diagonal) and the same REDC rows. Each set of rows is one
//! assembly loop (the square's, one per row length mod 8), or for s = 16, 24, 32, 48, 64 and
//! 96 (1024- to 6144-bit moduli, and the halves of the split products and squares above them)
//! rows whose length is written into the text: no branch within a row, and for s = 16, 24, 32
//! and 48 the square written out whole ([`Adx::square_straight`]), and the 16 x 16 product
//! (`Adx::product_straight`), the basecase of the split products. `karatsuba` adds and
//! subtracts with [`Adx::add_n`], [`Adx::sub_n`] and their in-place forms (plain ADC/SBB
//! chains, four limbs a step, as GMP's `mpn_add_n`).
//!
//! Word size 64, radix 2^64. A row of a loop whose lengths agree mod 8 runs `len mod 8` limbs
//! written out, then groups of eight ([`row_fixed_text`]); a single row of any length
//! ([`Adx::addmul_1`]) one group of four when `len / 4` is odd, then groups of eight, then
//! `len mod 4` single steps. The loop control (`lea`/`jrcxz`/`jmp`) leaves both flags alone.
//! Lengths are the callers' (slices checked before each assembly block).
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
/// out of r11, packed as [`packed`] does, by `mov`/`rorx`/`movzx`.
/// Clobbers r8 to r11 and rcx. Labels 3 to 8 are its own.
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
            groups_text!($neg),
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

/// The loop over rcx >= 1 groups of eight limbs of [`row_text`] and [`row_fixed_text`]
/// (labels 4 and 5: it falls out at 5).
#[cfg(target_arch = "x86_64")]
macro_rules! groups_text {
    ($neg:literal) => {
        concat!(
            "4:\n",
            group_text!($neg, "", " + 8", " + 16", " + 24"),
            group_text!($neg, " + 32", " + 40", " + 48", " + 56"),
            "lea rsi, [rsi + 64]\n",
            "lea rdi, [rdi + 64]\n",
            "lea rcx, [rcx - 1]\n",
            "jrcxz 5f\n",
            "jmp 4b\n",
            "5:\n",
        )
    };
}

/// The counts of a row of `len` limbs as [`row_text`] reads them: `len / 8` in bits 0..32,
/// `len mod 4` from bit 32 and `(len / 4) mod 2` (the leading group of four) at bit 48.
const fn packed(len: usize) -> u64 {
    let len = len as u64;
    (len >> 3) | ((len & 3) << 32) | (((len >> 2) & 1) << 48)
}

/// [`packed`] in assembly: r11 = the counts of a row of rax limbs (clobbers rcx).
#[cfg(target_arch = "x86_64")]
macro_rules! packed_text {
    () => {
        concat!(
            "mov r11, rax\n",
            "shr r11, 3\n",
            "mov ecx, eax\n",
            "and ecx, 3\n",
            "shl rcx, 32\n",
            "or r11, rcx\n",
            "mov ecx, eax\n",
            "shr ecx, 2\n",
            "and ecx, 1\n",
            "shl rcx, 48\n",
            "or r11, rcx",
        )
    };
}

/// One limb of [`row_text`] at byte offset `$off` from rsi and rdi: the product's high word
/// into `$hi`, its low word plus the previous high word `$prev` (OF), then onto r (CF). The
/// first argument is the row's mode: `$neg` (nothing, or NOT) for a row that adds into r, or
/// `set` for one that stores its limbs over r (no ADCX: CF stays 0).
#[cfg(target_arch = "x86_64")]
macro_rules! limb_text {
    (set, $hi:literal, $prev:literal, $off:literal) => {
        limb_with!($hi, $prev, $off, "")
    };
    ($neg:literal, $hi:literal, $prev:literal, $off:literal) => {
        limb_with!(
            $hi,
            $prev,
            $off,
            concat!($neg, "\n", "adcx r8, qword ptr [rdi", $off, "]\n")
        )
    };
}

/// A limb of [`limb_text`] with `$mid` (the add onto r, or nothing in a `set` row) between the
/// product's low word and its store.
#[cfg(target_arch = "x86_64")]
macro_rules! limb_with {
    ($hi:literal, $prev:literal, $off:literal, $mid:expr) => {
        concat!(
            "mulx ",
            $hi,
            ", r8, qword ptr [rsi",
            $off,
            "]\n",
            "adox r8, ",
            $prev,
            "\n",
            $mid,
            "mov qword ptr [rdi",
            $off,
            "], r8\n",
        )
    };
}

/// Four limbs of [`row_text`], the high words alternating between r9 and r10.
#[cfg(target_arch = "x86_64")]
macro_rules! group_text {
    ($neg:tt, $o0:literal, $o1:literal, $o2:literal, $o3:literal) => {
        concat!(
            limb_text!($neg, "r9", "r10", $o0),
            limb_text!($neg, "r10", "r9", $o1),
            limb_text!($neg, "r9", "r10", $o2),
            limb_text!($neg, "r10", "r9", $o3),
        )
    };
}

/// The `r` leading limbs of a row of `r + 8 g` limbs (r = 0 to 7, a literal) in mode `$m`
/// ([`limb_text`]), straight: [`row_text`]'s limbs and registers, then rsi and rdi 8 r bytes
/// on and the last high word in r10 (for r = 0, r10 = 0 as the row's start set it).
#[cfg(target_arch = "x86_64")]
macro_rules! head_mod8 {
    ($m:tt, 0) => {
        ""
    };
    ($m:tt, 1) => {
        concat!(limb_text!($m, "r9", "r10", ""), adv!("8"), "mov r10, r9\n")
    };
    ($m:tt, 2) => {
        concat!(
            limb_text!($m, "r9", "r10", ""),
            limb_text!($m, "r10", "r9", " + 8"),
            adv!("16")
        )
    };
    ($m:tt, 3) => {
        concat!(
            limb_text!($m, "r9", "r10", ""),
            limb_text!($m, "r10", "r9", " + 8"),
            limb_text!($m, "r9", "r10", " + 16"),
            adv!("24"),
            "mov r10, r9\n"
        )
    };
    ($m:tt, 4) => {
        concat!(group_text!($m, "", " + 8", " + 16", " + 24"), adv!("32"))
    };
    ($m:tt, 5) => {
        concat!(
            group_text!($m, "", " + 8", " + 16", " + 24"),
            limb_text!($m, "r9", "r10", " + 32"),
            adv!("40"),
            "mov r10, r9\n"
        )
    };
    ($m:tt, 6) => {
        concat!(
            group_text!($m, "", " + 8", " + 16", " + 24"),
            limb_text!($m, "r9", "r10", " + 32"),
            limb_text!($m, "r10", "r9", " + 40"),
            adv!("48")
        )
    };
    ($m:tt, 7) => {
        concat!(
            group_text!($m, "", " + 8", " + 16", " + 24"),
            limb_text!($m, "r9", "r10", " + 32"),
            limb_text!($m, "r10", "r9", " + 40"),
            limb_text!($m, "r9", "r10", " + 48"),
            adv!("56"),
            "mov r10, r9\n"
        )
    };
}

/// rsi and rdi `$bytes` on (LEA: the flags stay).
#[cfg(target_arch = "x86_64")]
macro_rules! adv {
    ($bytes:literal) => {
        concat!(
            "lea rsi, [rsi + ",
            $bytes,
            "]\n",
            "lea rdi, [rdi + ",
            $bytes,
            "]\n"
        )
    };
}

/// A row of `r + 8 g` limbs with `r` written into the text: [`row_text`]'s limbs, registers
/// and carry (r10), the [`head_mod8`] of `r`, then g = r11 groups of eight. Loops of rows whose
/// `len mod 8` stays fixed (the product's, the REDC's, and the square's taken by length class)
/// run this row: its one branch on the length is the group loop's (JRCXZ reaches only 127
/// bytes, hence the JMPs over the loop). Labels 3 to 5.
#[cfg(target_arch = "x86_64")]
macro_rules! row_fixed_text {
    ($r:tt) => {
        concat!(
            "xor r10d, r10d\n",
            head_mod8!("", $r),
            "mov rcx, r11\n",
            "jrcxz 3f\n",
            "jmp 4f\n",
            "3:\n",
            "jmp 5f\n",
            groups_text!(""),
            row_end!(),
        )
    };
}

/// The end of a row: the last high word plus OF and CF into r10.
#[cfg(target_arch = "x86_64")]
macro_rules! row_end {
    () => {
        concat!("mov r8, 0\n", "adox r10, r8\n", "adcx r10, r8\n")
    };
}

/// A row of `r + 8 g` limbs in mode `$m` ([`limb_text`]) written out whole, for `r` (a
/// literal) and one token per group of eight: [`row_fixed_text`] without its loop, for rows
/// whose length is fixed.
#[cfg(target_arch = "x86_64")]
macro_rules! row_straight {
    ($m:tt, $r:tt; $($g:tt)*) => {
        concat!(
            "xor r10d, r10d\n",
            head_mod8!($m, $r),
            $(group8_straight!($m, $g),)*
            row_end!(),
        )
    };
}

/// Row i of [`Adx::square_straight`] (r12 at x_i, r13 at w_(2 i + 1)): [`row_straight`] of x_i
/// times x[i + 1..] in mode `$m`, its carry stored past its end.
#[cfg(target_arch = "x86_64")]
macro_rules! sq_row {
    ($m:tt, $r:tt; $($g:tt)*) => {
        concat!(
            "mov rdx, qword ptr [r12]\n",
            "lea rsi, [r12 + 8]\n",
            "mov rdi, r13\n",
            row_straight!($m, $r; $($g)*),
            "mov qword ptr [rdi], r10\n",
            "lea r12, [r12 + 8]\n",
            "lea r13, [r13 + 16]\n",
        )
    };
}

/// Row i of [`Adx::product_straight`] (r12 at x_i, r13 at w_i, r14 at y): [`row_straight`]
/// of x_i times y in mode `$m`, its carry stored past its end; `add` and a token: an adding
/// row (the token only counts).
#[cfg(target_arch = "x86_64")]
macro_rules! prod_row {
    (add $r:ident) => {
        prod_row!(""; g g)
    };
    ($m:tt; $($g:tt)*) => {
        concat!(
            "mov rdx, qword ptr [r12]\n",
            "mov rsi, r14\n",
            "mov rdi, r13\n",
            row_straight!($m, 0; $($g)*),
            "mov qword ptr [rdi], r10\n",
            "lea r12, [r12 + 8]\n",
            "lea r13, [r13 + 8]\n",
        )
    };
}

/// The text of [`Adx::product_straight`]: row 0 storing its limbs (so `w` needs no zeroing),
/// then one adding [`prod_row`] per token.
#[cfg(target_arch = "x86_64")]
macro_rules! product_straight_text {
    ($($r:ident)*) => {
        concat!(prod_row!(set; g g), $(prod_row!(add $r),)*)
    };
}

/// The assembly of [`Adx::square_straight`]: row 0 (`7 + 8 g` limbs, one `g` per group) storing
/// its limbs, so that `w` needs no zeroing under it, then one adding [`sq_row`] per `[r g..]`
/// (its length `r + 8 g`), then one diagonal pair ([`diag_pair_text`], no
/// carries) per `p`; `$left` gets what would carry out of the square (0).
#[cfg(target_arch = "x86_64")]
macro_rules! square_straight_asm {
    ($x:expr, $w:expr, $left:ident, [$($g0:ident)*] $([$r:tt $($g:ident)*])*; $($p:ident)*) => {
        straight_asm!(
            [
                sq_row!(set, 7; $($g0)*),
                $(sq_row!("", $r; $($g)*),)*
                "mov rsi, r14",
                "mov rdi, r15",
                "xor r9d, r9d",
                "mov r10d, 63",
                $(pair_text!($p),)*
                "mov eax, 0",
                "mov ecx, 0",
                "adcx rax, rcx",
                "adox rax, rcx",
            ]
            out("rax") $left,
            inout("r12") $x.as_ptr() => _,
            inout("r13") $w.as_mut_ptr().add(1) => _,
            in("r14") $x.as_ptr(),
            in("r15") $w.as_mut_ptr(),
        )
    };
}

/// `core::arch::asm!` of a written-out text (`[...]`) with its own operands, plus the
/// registers every written-out row clobbers: rcx, rdx, rsi, rdi and r8 to r11.
#[cfg(target_arch = "x86_64")]
macro_rules! straight_asm {
    ([$($text:expr),* $(,)?] $($args:tt)*) => {
        core::arch::asm!(
            $($text,)*
            $($args)*
            out("rcx") _,
            out("rdx") _,
            out("rsi") _,
            out("rdi") _,
            out("r8") _,
            out("r9") _,
            out("r10") _,
            out("r11") _,
            options(nostack),
        )
    };
}

/// The low triangle of a 32-limb product written out whole ([`Adx::low_product`]): row t
/// (one `[r g..]` each, its length `r + 8 g = 32 - t`) adds v_t times a[..32 - t] into
/// r[t..32] ([`row_straight`]; its carry, past limb 31, is dropped). r12 at a, r13 at r_t, r14
/// at v_t. The short products of `redc_n` end in these triangles at 128 and 256 limbs:
/// written out, its reduction at 128 limbs went from 0.97 to 0.91–0.95 of the REDC rows'
/// time (`examples/word_timings.rs`, reductions table).
#[cfg(target_arch = "x86_64")]
macro_rules! low_triangle_asm {
    ($r:expr, $a:expr, $v:expr, $([$k:tt $($g:ident)*])*) => {
        core::arch::asm!(
            $(
                "mov rdx, qword ptr [r14]",
                "mov rsi, r12",
                "mov rdi, r13",
                row_straight!("", $k; $($g)*),
                "lea r13, [r13 + 8]",
                "lea r14, [r14 + 8]",
            )*
            out("rdx") _,
            out("rsi") _,
            out("rdi") _,
            out("r8") _,
            out("r9") _,
            out("r10") _,
            in("r12") $a.as_ptr(),
            inout("r13") $r.as_mut_ptr() => _,
            inout("r14") $v.as_ptr() => _,
            options(nostack),
        )
    };
}

/// One carry-free [`diag_pair_text`] (the token only counts).
#[cfg(target_arch = "x86_64")]
macro_rules! pair_text {
    ($p:ident) => {
        diag_pair_text!("", "")
    };
}

/// Eight limbs of [`row_straight`] in mode `$m`, then rsi and rdi on past them.
#[cfg(target_arch = "x86_64")]
macro_rules! group8_straight {
    ($m:tt, $g:tt) => {
        concat!(
            group_text!($m, "", " + 8", " + 16", " + 24"),
            group_text!($m, " + 32", " + 40", " + 48", " + 56"),
            adv!("64")
        )
    };
}

/// One limb pair (2 j, 2 j + 1) of [`Adx::square`]'s second pass, rsi at x_j, rdi at
/// w_(2 j): a = w (+ the carries `$c0`, `$c1` on CF, into r12, r13), then 2 a with the top
/// bit of the limb before (r9, then the pair's own; r10 = 63) plus x_j^2 on OF. Clobbers rdx,
/// rax, r11 to r15.
#[cfg(target_arch = "x86_64")]
macro_rules! diag_pair_text {
    ($c0:literal, $c1:literal) => {
        concat!(
            "mov rdx, qword ptr [rsi]\n",
            "mulx rax, r11, rdx\n",
            "mov r12, qword ptr [rdi]\n",
            $c0,
            "\n",
            "shrx r14, r9, r10\n",
            "lea r14, [r14 + 2 * r12]\n",
            "adox r14, r11\n",
            "mov qword ptr [rdi], r14\n",
            "mov r13, qword ptr [rdi + 8]\n",
            $c1,
            "\n",
            "shrx r15, r12, r10\n",
            "lea r15, [r15 + 2 * r13]\n",
            "adox r15, rax\n",
            "mov qword ptr [rdi + 8], r15\n",
            "mov r9, r13\n",
            "lea rsi, [rsi + 8]\n",
            "lea rdi, [rdi + 16]\n",
        )
    };
}

/// `rows_loop!(row, args)` with the [`row_fixed_text`] of rows of `$r` mod 8 limbs.
#[cfg(target_arch = "x86_64")]
macro_rules! rows_loop_mod8 {
    ($r:expr, $($args:tt)*) => {
        match $r {
            0 => rows_loop!(row_fixed_text!(0), $($args)*),
            1 => rows_loop!(row_fixed_text!(1), $($args)*),
            2 => rows_loop!(row_fixed_text!(2), $($args)*),
            3 => rows_loop!(row_fixed_text!(3), $($args)*),
            4 => rows_loop!(row_fixed_text!(4), $($args)*),
            5 => rows_loop!(row_fixed_text!(5), $($args)*),
            6 => rows_loop!(row_fixed_text!(6), $($args)*),
            _ => rows_loop!(row_fixed_text!(7), $($args)*),
        }
    };
}

/// `rows_loop!(row, args)` for rows of `$s` limbs each: written out whole
/// ([`row_straight`]) for s = 16, 24, 32, 48, 64 and 96, else [`rows_loop_mod8`]. Written out,
/// the rows of 24 to 96 limbs ran faster than the loop of their length class on a Zen 3; the
/// effect on `pow` and `pow_sec` is in `docs/baseline-ab-9241e41-rows.json`.
#[cfg(target_arch = "x86_64")]
macro_rules! rows_loop_len {
    ($s:expr, $($args:tt)*) => {
        match $s {
            16 => rows_loop!(row_straight!("", 0; g g), $($args)*),
            24 => rows_loop!(row_straight!("", 0; g g g), $($args)*),
            32 => rows_loop!(row_straight!("", 0; g g g g), $($args)*),
            48 => rows_loop!(row_straight!("", 0; g g g g g g), $($args)*),
            64 => rows_loop!(row_straight!("", 0; g g g g g g g g), $($args)*),
            96 => rows_loop!(row_straight!("", 0; g g g g g g g g g g g g), $($args)*),
            s => rows_loop_mod8!(s % 8, $($args)*),
        }
    };
}

/// An assembly loop over r15 rows `$row` (r15 >= 1, [`row_fixed_text`]): each row adds into
/// the limbs at rdi the limbs at rsi times rdx; `head` sets rdi, rsi, rdx and r11 before it,
/// `tail` stores its carry (r10) and moves on what the next head reads. `core::arch::asm!`
/// with the registers every row clobbers (rdi, rsi, rcx, rdx, r8 to r11) and no stack; the
/// caller names r15 and the rest.
#[cfg(target_arch = "x86_64")]
macro_rules! rows_loop {
    ($row:expr, head: [$($head:expr),*], tail: [$($tail:expr),*], $($args:tt)*) => {
        core::arch::asm!(
            "9:",
            $($head,)*
            $row,
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

/// The loop of [`Adx::rows_up`] and [`Adx::rows_down`]: [`rows_loop`] of [`row_text`] rows,
/// row t adding the limbs at r12 times the limb at r14 into those at r13, rax limbs long
/// (its counts packed in the loop); `tail` moves the pointers and the length on.
#[cfg(target_arch = "x86_64")]
macro_rules! triangle_loop {
    (tail: [$($tail:expr),*], $($args:tt)*) => {
        rows_loop!(
            row_text!(start: "", neg: "", end: ""),
            head: [
                "mov rdi, r13",
                "mov rsi, r12",
                "mov rdx, qword ptr [r14]",
                packed_text!()
            ],
            tail: [$($tail),*],
            $($args)*
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

    /// [`super::sqr`]'s square: `w = x^2` (`2 s` limbs, overwritten) for `x` of s limbs;
    /// `buf` (at least s + 1 limbs) holds the rows' carries.
    ///
    /// 1. The cross products, rows `w[2 i + 1..i + s] += x_i x[i + 1..]` for i in 0..s - 1, in
    ///    eight assembly loops, one per row length mod 8 (rows i, i + 8, ...), each on the
    ///    [`row_fixed_text`] of its length class: within a loop only the count of eight-limb
    ///    groups changes, by one a row. The order of the rows is free because row i's carry
    ///    goes to `buf[1 + i]`, not to `w[i + s]`, which rows of other classes add into.
    /// 2. One assembly pass over the limb pairs: `w = 2 (w + c) + sum x_i^2 W^(2 i)`, where
    ///    c, the carries, is `buf[0..=s]` at limb s - 1 (`buf[0] = buf[s] = 0`): the carries go
    ///    in on CF (ADCX), the doubling is flag-free (SHRX, LEA) and the squares go in on OF
    ///    (ADOX). Below limb s - 1 (an even count of limbs) the same pass without the carries.
    ///
    /// For s = 16, 24, 32 and 48, [`Adx::square_straight`] instead (`buf` unused).
    ///
    /// # Panics
    /// If `w.len() != 2 x.len()`, `buf.len() <= x.len()` or x is empty.
    pub(crate) fn square(self, x: &[Limb], w: &mut [Limb], buf: &mut [Limb]) {
        let s = x.len();
        assert!(
            s >= 1 && w.len() == 2 * s && buf.len() > s,
            "adx: square needs 2 s limbs and s + 1 carries"
        );
        if self.square_straight(x, w) {
            return;
        }
        w.fill(0);
        buf[0] = 0;
        buf[s] = 0;
        for k in 0..(s - 1).min(8) {
            // Rows k, k + 8, ...: the first is l = s - 1 - k limbs long, each next 8 shorter.
            let l = s - 1 - k;
            let rows = l.div_ceil(8);
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the token proves BMI2 and ADX. Row i = k + 8 j (j < rows, so i <= s - 2)
            // reads x[i..s], reads and writes w[2 i + 1..i + s] and writes buf[1 + i], all in
            // bounds; its l - 8 j limbs are l mod 8 straight and r11 = rax + r15 = l / 8 - j
            // groups of eight.
            unsafe {
                rows_loop_mod8!(
                    l % 8,
                    head: [
                        "mov rdi, r13",
                        "lea rsi, [r12 + 8]",
                        "mov rdx, qword ptr [r12]",
                        "lea r11, [r15 + rax]"
                    ],
                    tail: [
                        "mov qword ptr [r14], r10",
                        "lea r12, [r12 + 64]",
                        "lea r13, [r13 + 128]",
                        "lea r14, [r14 + 64]"
                    ],
                    in("rax") (l / 8).wrapping_sub(rows),
                    inout("r12") x.as_ptr().add(k) => _,
                    inout("r13") w.as_mut_ptr().add(2 * k + 1) => _,
                    inout("r14") buf.as_mut_ptr().add(1 + k) => _,
                    inout("r15") rows => _,
                );
            }
        }
        // Pairs of limbs (2 j, 2 j + 1): j < s / 2 without carries, then from limb
        // 2 (s / 2) >= s - 1 with them, c starting at buf[2 (s / 2) - (s - 1)].
        let (k0, c0) = (s / 2, 1 - (s & 1));
        #[cfg(target_arch = "x86_64")]
        {
            let left: Limb;
            // SAFETY: the token proves BMI2 and ADX. Pair j reads x_j and reads and writes
            // w[2 j..2 j + 2]; the second loop reads buf[c0..c0 + 2 (s - k0)] = buf[..=s].
            unsafe {
                core::arch::asm!(
                    // ecx counts the first loop's pairs, the high half of rcx the second's.
                    "xor r9d, r9d",
                    "mov r10d, 63",
                    "jecxz 3f",
                    "2:",
                    diag_pair_text!("", ""),
                    "lea rcx, [rcx - 1]",
                    "jecxz 3f",
                    "jmp 2b",
                    "3:",
                    "rorx rcx, rcx, 32",
                    "4:",
                    diag_pair_text!("adcx r12, qword ptr [r8]", "adcx r13, qword ptr [r8 + 8]"),
                    "lea r8, [r8 + 16]",
                    "lea rcx, [rcx - 1]",
                    "jrcxz 5f",
                    "jmp 4b",
                    "5:",
                    "mov eax, 0",
                    "mov ecx, 0",
                    "adcx rax, rcx",
                    "adox rax, rcx",
                    inout("rcx") (k0 | ((s - k0) << 32)) as u64 => _,
                    out("rax") left,
                    inout("rsi") x.as_ptr() => _,
                    inout("rdi") w.as_mut_ptr() => _,
                    inout("r8") buf.as_ptr().add(c0) => _,
                    out("rdx") _,
                    out("r9") _,
                    out("r10") _,
                    out("r11") _,
                    out("r12") _,
                    out("r13") _,
                    out("r14") _,
                    out("r15") _,
                    options(nostack),
                );
            }
            debug_assert_eq!(left, 0, "adx: square carried out of 2 s limbs");
        }
    }

    /// `w = x y` (32 limbs, overwritten) for x and y of 16 limbs, written out: row 0 storing
    /// its limbs (so `w` needs no zeroing), then 15 adding rows, each carry stored at the limb
    /// past its row. The basecase of `karatsuba`'s products from 32 limbs on, and of the
    /// products under `redc_n` at 128 limbs. Other lengths return false.
    pub(crate) fn product_straight(self, x: &[Limb], y: &[Limb], w: &mut [Limb]) -> bool {
        if x.len() != 16 || y.len() != 16 || w.len() != 32 {
            return false;
        }
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the token proves BMI2 and ADX; row i reads x_i and y[..16] and writes
        // w[i..=i + 16], in bounds for i < 16 (lengths checked above).
        unsafe {
            straight_asm!(
                [product_straight_text!(r r r r r r r r r r r r r r r)]
                inout("r12") x.as_ptr() => _,
                inout("r13") w.as_mut_ptr() => _,
                in("r14") y.as_ptr(),
            );
        }
        #[cfg(not(target_arch = "x86_64"))]
        unreachable!("the ADX token exists only on x86-64: {:?}", (x, y, w));
        true
    }

    /// [`Adx::square`] for s = 16, 24, 32 and 48, written out: the s - 1 cross-product rows in
    /// order, each carry stored at the limb past its row (no row has written it yet), then the
    /// s diagonal pairs. Other lengths return false. `w` is 2 s limbs ([`Adx::square`] checks
    /// it).
    fn square_straight(self, x: &[Limb], w: &mut [Limb]) -> bool {
        let s = x.len();
        // Row 0 writes limbs 1 to s and every later row's carry a limb of its own: only the
        // two ends start at 0 (for other lengths `square` clears all of w).
        (w[0], w[2 * s - 1]) = (0, 0);
        #[cfg(target_arch = "x86_64")]
        {
            let left: Limb;
            // SAFETY: the token proves BMI2 and ADX; row i reads x[i..s] and reads and writes
            // w[2 i + 1..=i + s]; pair j reads x_j and reads and writes w[2 j..2 j + 2].
            unsafe {
                match s {
                    16 => square_straight_asm!(
                        x, w, left,
                        [g] [6 g] [5 g] [4 g] [3 g] [2 g] [1 g] [0 g] [7] [6] [5] [4] [3] [2]
                        [1];
                        p p p p p p p p p p p p p p p p
                    ),
                    24 => square_straight_asm!(
                        x, w, left,
                        [g g] [6 g g] [5 g g] [4 g g] [3 g g] [2 g g] [1 g g] [0 g g] [7 g]
                        [6 g] [5 g] [4 g] [3 g] [2 g] [1 g] [0 g] [7] [6] [5] [4] [3] [2] [1];
                        p p p p p p p p p p p p p p p p p p p p p p p p
                    ),
                    32 => square_straight_asm!(
                        x, w, left,
                        [g g g] [6 g g g] [5 g g g] [4 g g g] [3 g g g] [2 g g g] [1 g g g]
                        [0 g g g] [7 g g] [6 g g] [5 g g] [4 g g] [3 g g] [2 g g] [1 g g]
                        [0 g g] [7 g] [6 g] [5 g] [4 g] [3 g] [2 g] [1 g] [0 g] [7] [6] [5]
                        [4] [3] [2] [1];
                        p p p p p p p p p p p p p p p p p p p p p p p p p p p p p p p p
                    ),
                    48 => square_straight_asm!(
                        x, w, left,
                        [g g g g g] [6 g g g g g] [5 g g g g g] [4 g g g g g] [3 g g g g g]
                        [2 g g g g g] [1 g g g g g] [0 g g g g g] [7 g g g g] [6 g g g g]
                        [5 g g g g] [4 g g g g] [3 g g g g] [2 g g g g] [1 g g g g]
                        [0 g g g g] [7 g g g] [6 g g g] [5 g g g] [4 g g g] [3 g g g]
                        [2 g g g] [1 g g g] [0 g g g] [7 g g] [6 g g] [5 g g] [4 g g] [3 g g]
                        [2 g g] [1 g g] [0 g g] [7 g] [6 g] [5 g] [4 g] [3 g] [2 g] [1 g]
                        [0 g] [7] [6] [5] [4] [3] [2] [1];
                        p p p p p p p p p p p p p p p p p p p p p p p p p p p p p p p p p p p
                        p p p p p p p p p p p p p
                    ),
                    _ => return false,
                }
            }
            debug_assert_eq!(left, 0, "adx: square carried out of 2 s limbs");
        }
        true
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
            rows_loop_len!(
                s,
                head: ["mov rdi, r13", "mov rsi, r14", "mov rdx, qword ptr [r12]", "mov r11, rax"],
                tail: [
                    "mov qword ptr [rdi], r10",
                    "lea r13, [r13 + 8]",
                    "lea r12, [r12 + 8]"
                ],
                in("rax") s / 8,
                inout("r12") x.as_ptr() => _,
                inout("r13") w.as_mut_ptr() => _,
                in("r14") y.as_ptr(),
                inout("r15") x.len() => _,
            );
        }
    }

    /// [`super::sqr::Rows::rows_up`] in one assembly loop of [`row_text`] rows, each row's
    /// counts packed from its length in the loop.
    ///
    /// # Panics
    /// If the lengths break that contract.
    pub(crate) fn rows_up(self, r: &mut [Limb], a: &[Limb], v: &[Limb], l0: usize) {
        let rows = v.len();
        if rows == 0 {
            return;
        }
        assert!(
            l0 >= 1 && r.len() >= l0 + rows && a.len() + 1 >= l0 + rows,
            "adx: rows_up lengths"
        );
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the token proves BMI2 and ADX. Row t reads v_t and a[m - l0 - t..m] (m =
        // a.len() >= l0 + t) and reads and writes r[..=l0 + t], in bounds by the assert.
        unsafe {
            triangle_loop!(
                tail: [
                    "mov qword ptr [rdi], r10",
                    "lea r12, [r12 - 8]",
                    "lea r14, [r14 + 8]",
                    "lea rax, [rax + 1]"
                ],
                inout("rax") l0 => _,
                inout("r12") a.as_ptr().add(a.len() - l0) => _,
                in("r13") r.as_mut_ptr(),
                inout("r14") v.as_ptr() => _,
                inout("r15") rows => _,
            );
        }
    }

    /// [`super::sqr::Rows::rows_down`] in one assembly loop, as [`Adx::rows_up`].
    ///
    /// # Panics
    /// If the lengths break that contract.
    pub(crate) fn rows_down(self, r: &mut [Limb], a: &[Limb], v: &[Limb], l0: usize) {
        let rows = v.len();
        if rows == 0 {
            return;
        }
        assert!(
            l0 >= rows && r.len() >= l0 && a.len() >= l0,
            "adx: rows_down lengths"
        );
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the token proves BMI2 and ADX. Row t reads v_t and a[..l0 - t] and reads
        // and writes r[t..l0], in bounds by the assert.
        unsafe {
            triangle_loop!(
                tail: ["lea r13, [r13 + 8]", "lea r14, [r14 + 8]", "lea rax, [rax - 1]"],
                inout("rax") l0 => _,
                in("r12") a.as_ptr(),
                inout("r13") r.as_mut_ptr() => _,
                inout("r14") v.as_ptr() => _,
                inout("r15") rows => _,
            );
        }
    }

    /// [`super::sqr::Rows::low_product`]: for 32 limbs the triangle written out whole
    /// ([`low_triangle_asm`]), else [`Adx::rows_down`]. Only `redc_n`'s short products take
    /// it, inside exponentiations; Barrett's triangles keep the loop, as a single `mul` from
    /// Python may find 12 KB of written-out rows cold.
    ///
    /// # Panics
    /// If the lengths differ.
    pub(crate) fn low_product(self, r: &mut [Limb], a: &[Limb], v: &[Limb]) {
        let n = r.len();
        assert!(a.len() == n && v.len() == n, "adx: low_product lengths");
        #[cfg(target_arch = "x86_64")]
        if n == 32 {
            // SAFETY: the token proves BMI2 and ADX. Row t reads v_t and a[..32 - t] and
            // reads and writes r[t..32], in bounds by the assert.
            unsafe {
                low_triangle_asm!(
                    r, a, v,
                    [0 g g g g] [7 g g g] [6 g g g] [5 g g g] [4 g g g] [3 g g g] [2 g g g]
                    [1 g g g] [0 g g g] [7 g g] [6 g g] [5 g g] [4 g g] [3 g g] [2 g g] [1 g g]
                    [0 g g] [7 g] [6 g] [5 g] [4 g] [3 g] [2 g] [1 g] [0 g] [7] [6] [5] [4] [3]
                    [2] [1]
                );
            }
            return;
        }
        self.rows_down(r, a, v, n);
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
            rows_loop_len!(
                s,
                head: [
                    "mov rdi, r13",
                    "mov rsi, r14",
                    "mov rdx, qword ptr [r13]",
                    "imul rdx, r12",
                    "mov r11, rax"
                ],
                tail: ["mov qword ptr [r13], r10", "lea r13, [r13 + 8]"],
                in("rax") s / 8,
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
    use crate::mont::vartime::VarTime;
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

    /// The triangle loops (`rows_up`, `rows_down`) equal the portable rows for every row
    /// count 0 to 20 and first length 1 to 10 (every `len mod 8` and group count), on random
    /// and all-ones limbs.
    #[test]
    fn triangle_rows_match_portable() {
        if !adx_or_skip("adx triangle rows") {
            return;
        }
        let adx = Adx::new().expect("checked");
        let mut seed = 0x7472_6961_6e67_6c65;
        for (rows, l0) in (0..=20).flat_map(|rows| (1..=10).map(move |l0| (rows, l0))) {
            let m = l0 + rows;
            let rnd = |seed: &mut u64, len| limb::xorshift_limbs(seed, len);
            for ones in [false, true] {
                let pick = |seed: &mut u64, len| {
                    if ones {
                        vec![Limb::MAX; len]
                    } else {
                        rnd(seed, len)
                    }
                };
                let (a, v, r0) = (
                    pick(&mut seed, m),
                    pick(&mut seed, rows),
                    pick(&mut seed, m + 1),
                );
                let (mut want, mut got) = (r0.clone(), r0.clone());
                sqr::Rows::rows_up(sqr::Portable, &mut want, &a, &v, l0);
                adx.rows_up(&mut got, &a, &v, l0);
                assert_eq!(got, want, "rows_up rows {rows} l0 {l0}");
                if l0 >= rows {
                    let (mut want, mut got) = (r0.clone(), r0);
                    sqr::Rows::rows_down(sqr::Portable, &mut want, &a, &v, l0);
                    adx.rows_down(&mut got, &a, &v, l0);
                    assert_eq!(got, want, "rows_down rows {rows} l0 {l0}");
                }
            }
        }
    }

    /// The rows of a product, the REDC rows and the square at the lengths written out
    /// (16, 24, 32, 48, 64 and 96 rows; 16, 24, 32 and 48 squares) and beside them, on random
    /// and all-ones operands, against the portable rows.
    #[test]
    fn written_out_lengths_match_portable() {
        if !adx_or_skip("adx written-out rows") {
            return;
        }
        let adx = Adx::new().expect("checked");
        let mut seed = 0x7772_6974_7465_6e21;
        for s in [
            15, 16, 17, 23, 24, 25, 31, 32, 33, 47, 48, 49, 63, 64, 65, 95, 96, 97,
        ] {
            let rnd = limb::xorshift_limbs(&mut seed, 2 * s);
            let ones = vec![Limb::MAX; s];
            let mut n = limb::xorshift_limbs(&mut seed, s);
            (n[0], n[s - 1]) = (n[0] | 1, n[s - 1] | 1 << 63);
            let n0_inv = MontParams::from_limbs(&n).unwrap().n0_inv();
            for (x, y) in [
                (&rnd[..s], &rnd[s..]),
                (&ones[..], &ones[..]),
                (&rnd[..s], &ones[..]),
            ] {
                for rows in [1, 3, s] {
                    let (mut want, mut got) = (vec![0; rows + s], vec![0; rows + s]);
                    sqr::Rows::mul_rows(sqr::Portable, &x[..rows], y, &mut want);
                    adx.mul_rows(&x[..rows], y, &mut got);
                    assert_eq!(got, want, "mul_rows s {s} rows {rows}");
                }
                let mut want = [x, y].concat();
                let mut got = want.clone();
                sqr::Rows::redc_rows::<0>(sqr::Portable, &n, n0_inv, &mut want);
                adx.redc_rows(&n, n0_inv, &mut got);
                assert_eq!(got, want, "redc_rows s {s}");
                let (mut want, mut got) = (vec![0; 2 * s], vec![Limb::MAX; 2 * s]);
                sqr::Rows::square::<0>(sqr::Portable, x, &mut want, &mut []);
                adx.square(x, &mut got, &mut vec![0; s + 1]);
                assert_eq!(got, want, "square s {s}");
            }
        }
    }

    /// The short product's triangle (`low_product`: written out whole at 32 limbs) equals
    /// the portable rows at 1 to 40 limbs, on random and all-ones limbs, and leaves the limb
    /// past `r` alone.
    #[test]
    fn low_product_matches_portable() {
        if !adx_or_skip("adx low_product") {
            return;
        }
        let adx = Adx::new().expect("checked");
        let mut seed = 0x6c6f_775f_7072_6f64;
        for n in 1..=40 {
            let rnd = limb::xorshift_limbs(&mut seed, 2 * n);
            let (x, y) = rnd.split_at(n);
            let ones = vec![Limb::MAX; n];
            for (a, v) in [(x, y), (&ones[..], &ones[..]), (x, &ones[..])] {
                let (mut want, mut got) = (vec![0; n], vec![0; n + 1]);
                got[n] = 0x5e47_17e1;
                sqr::Rows::low_product(sqr::Portable, &mut want, a, v);
                adx.low_product(&mut got[..n], a, v);
                assert_eq!(got[..n], want, "low_product n {n}");
                assert_eq!(got[n], 0x5e47_17e1, "low_product n {n} wrote past r");
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
    /// (every `len mod 8`, both sides of `MIN_LIMBS` and of Karatsuba's threshold) and at 80,
    /// 81, 96, 128 and 160 (squares split once or twice), constant and variable time, on the
    /// moduli of `limb::edge_moduli`, at N - 1, 0, R - 1 and random operands.
    #[test]
    fn equal_the_portable_kernels() {
        if !adx_or_skip("adx kernels") {
            return;
        }
        let adx = Adx::new().expect("checked");
        let mut seed = 0x1234_5678_9abc_def1;
        for s in (1..=70).chain([80, 81, 96, 128, 160]) {
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
                    cios::sos_adx(&p, &x, &y, &mut got, &mut t, adx);
                    assert_eq!(got, want, "mul: s = {s}, case {case}");
                    got.fill(Limb::MAX);
                    cios::sos_adx(&p, &x, &y, &mut got, &mut t, VarTime(adx));
                    assert_eq!(got, want, "vartime mul: s = {s}, case {case}");
                    if limb::cmp(&x, p.modulus()).is_ge() {
                        continue;
                    }
                    let mut w = vec![0; sqr::scratch_len(s)];
                    sqr::sqr_with(&p, &x, &mut want, &mut w, None);
                    sqr::sqr_with(&p, &x, &mut got, &mut w, Some(adx));
                    assert_eq!(got, want, "sqr: s = {s}, case {case}");
                    got.fill(Limb::MAX);
                    sqr::mont_sqr_vartime_into(&p, &x, &mut got, &mut w);
                    assert_eq!(got, want, "vartime sqr: s = {s}, case {case}");
                    cios::mul_portable(&p, &x, &x, &mut got, &mut t);
                    assert_eq!(got, want, "sqr against the product: s = {s}, case {case}");
                }
            }
        }
    }
}
