//! The threshold table: at which sizes of N (bits) [`crate::FastModulus`] runs each operation
//! on the spectral kernel rather than the word level, and short exponentiations on `ntt_redc`.
//!
//! A spectral cut-over is a [`Cut`]: one size ("from here on"), or a short list of sizes at
//! which the spectral kernel switches on, off, on, ... The spectral transform length is a power
//! of two, so just above each doubling the spectral kernel pays for twice the length and can
//! lose again to the word level for a stretch before it wins once more; a list skips such a
//! stretch (`montlab tune` finds them per transform length). Tables are the checked-in generic
//! ones (`src/thresholds/*.toml`, one per kind of CPU) or a tuned table's text.

use std::fmt;
use std::sync::OnceLock;

use crate::error::MontError;
use crate::mont::adx;
use crate::mont::amm;

/// The checked-in generic threshold table for x86-64 CPUs with MULX/ADX and without AVX-512
/// IFMA (`src/thresholds/generic.toml`).
pub const GENERIC_THRESHOLDS: &str = include_str!("thresholds/generic.toml");

/// The checked-in generic threshold table for CPUs without AVX-512 IFMA or MULX/ADX, whose
/// word-level kernel runs the portable loops (`src/thresholds/generic-portable.toml`).
pub const GENERIC_THRESHOLDS_PORTABLE: &str = include_str!("thresholds/generic-portable.toml");

/// The checked-in generic threshold table for CPUs whose word-level kernel runs on AVX-512
/// IFMA (`src/thresholds/generic-ifma.toml`): that kernel moves both cut-overs up.
pub const GENERIC_THRESHOLDS_IFMA: &str = include_str!("thresholds/generic-ifma.toml");

/// The generic table for this CPU: [`GENERIC_THRESHOLDS_IFMA`] when the IFMA word-level
/// kernel is enabled ([`amm::enabled`]), else [`GENERIC_THRESHOLDS`] when the MULX/ADX rows are
/// ([`adx::enabled`]), else [`GENERIC_THRESHOLDS_PORTABLE`].
#[must_use]
pub fn generic_thresholds_text() -> &'static str {
    if amm::enabled() {
        GENERIC_THRESHOLDS_IFMA
    } else if adx::enabled() {
        GENERIC_THRESHOLDS
    } else {
        GENERIC_THRESHOLDS_PORTABLE
    }
}

/// Where the spectral kernel runs, by size of N (bits): the sizes at which it switches on,
/// off, on, ... (strictly increasing, the first switches it on). One point is a plain cut-over;
/// `Cut::from(u64::MAX)` ([`Cut::NEVER`]) never switches on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cut {
    /// The switch points; entries from `len` on are 0 (so equal cuts compare and hash equal).
    points: [u64; Cut::MAX_POINTS],
    len: usize,
}

impl Cut {
    /// The most switch points a cut holds (four stretches on the spectral kernel).
    pub const MAX_POINTS: usize = 8;

    /// Never spectral.
    pub const NEVER: Self = Self::at(u64::MAX);

    /// Spectral from `bits` on.
    #[must_use]
    pub const fn at(bits: u64) -> Self {
        let mut points = [0; Self::MAX_POINTS];
        points[0] = bits;
        Self { points, len: 1 }
    }

    /// The cut with these switch points; `None` unless there are 1 to [`Cut::MAX_POINTS`] of
    /// them, strictly increasing.
    #[must_use]
    pub fn new(points: &[u64]) -> Option<Self> {
        let ok = (1..=Self::MAX_POINTS).contains(&points.len())
            && points.windows(2).all(|w| w[0] < w[1]);
        ok.then(|| {
            let mut p = [0; Self::MAX_POINTS];
            p[..points.len()].copy_from_slice(points);
            Self {
                points: p,
                len: points.len(),
            }
        })
    }

    /// True when N of `bits` bits runs spectral: an odd number of switch points are `<= bits`.
    #[must_use]
    pub fn on(&self, bits: u64) -> bool {
        self.points().iter().filter(|&&p| p <= bits).count() % 2 == 1
    }

    /// The switch points.
    #[must_use]
    pub fn points(&self) -> &[u64] {
        &self.points[..self.len]
    }

    /// The smallest size that runs spectral (the first switch point).
    #[must_use]
    pub const fn first(&self) -> u64 {
        self.points[0]
    }
}

impl From<u64> for Cut {
    fn from(bits: u64) -> Self {
        Self::at(bits)
    }
}

/// The table's notation: `12345` for one point, `[1, 2, 3]` for several.
impl fmt::Display for Cut {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.points() {
            [one] => write!(f, "{one}"),
            many => {
                let list: Vec<String> = many.iter().map(u64::to_string).collect();
                write!(f, "[{}]", list.join(", "))
            }
        }
    }
}

/// One value of a table line: an integer (`_` separators allowed) or, where `list` is allowed,
/// `[a, b, ...]` (a trailing comma too).
fn parse_value(text: &str, list: bool) -> Option<Cut> {
    let int = |v: &str| v.trim().replace('_', "").parse::<u64>().ok();
    let text = text.trim();
    match text.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
        Some(inner) if list => {
            let inner = inner.trim();
            let inner = inner.strip_suffix(',').unwrap_or(inner);
            let points: Option<Vec<u64>> = inner.split(',').map(int).collect();
            Cut::new(&points?)
        }
        Some(_) => None,
        None => int(text).map(Cut::at),
    }
}

/// Size cut-overs between the kernels, in bits of N.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Thresholds {
    /// Where products and squarings (`mul`, `sqr`, `mul_many`) run spectral.
    pub spectral_mul_bits: Cut,
    /// Where exponentiations (`pow`, `pow_many`) run spectral.
    pub spectral_pow_bits: Cut,
    /// From this size on (where `spectral_pow_bits` is on), short exponentiations run on
    /// `ntt_redc` rather than the word-level kernel (see [`crate::engine::SHORT_POW_BITS`]).
    pub ntt_redc_pow_bits: u64,
    /// Where constant-time exponentiations (`pow_sec`) run on the spectral kernel
    /// (branch-free, [`crate::pow::fixed::pow_sec_with`]) rather than the word level.
    pub spectral_sec_bits: Cut,
    /// From this size on (up to [`crate::mont::amm::MAX_BITS`]), word-level products on ints
    /// (`mul`, `sqr`, `mul_many`) run on the IFMA kernel `amm` rather than Barrett on the word
    /// level, where the CPU has AVX-512 IFMA (set by the IFMA table; a table without it takes
    /// this CPU's).
    pub ifma_mul_bits: u64,
    /// As `ifma_mul_bits`, for residues (whose products are one Montgomery product on `amm`
    /// or `cios`, against two Montgomery products or one Barrett step on ints).
    pub ifma_residue_bits: u64,
}

impl Thresholds {
    /// The generic default table for this CPU ([`generic_thresholds_text`]), parsed once per
    /// process (the CPU checks behind it are read once too).
    ///
    /// # Panics
    /// Never: every checked-in table is parsed by a unit test.
    #[must_use]
    pub fn generic() -> Self {
        static TABLE: OnceLock<Thresholds> = OnceLock::new();
        *TABLE.get_or_init(|| {
            Self::parse(generic_thresholds_text()).expect("the generic threshold table parses")
        })
    }

    /// Reads a table: `key = integer` lines (the spectral keys also `key = [a, b, ...]`, a
    /// [`Cut`]'s switch points), `[section]` headers and `#` comments (a TOML subset, so a tuned
    /// table written by a TOML library is accepted). Keys not given keep their generic value;
    /// unknown keys are errors.
    ///
    /// # Errors
    /// [`MontError::InvalidThresholds`] with the 1-based line of the first bad line.
    pub fn parse(text: &str) -> Result<Self, MontError> {
        // The generic table itself starts from "never" (it sets every key it needs).
        let mut t = if text == generic_thresholds_text() {
            Self {
                spectral_mul_bits: Cut::NEVER,
                spectral_pow_bits: Cut::NEVER,
                ntt_redc_pow_bits: u64::MAX,
                spectral_sec_bits: Cut::NEVER,
                ifma_mul_bits: u64::MAX,
                ifma_residue_bits: u64::MAX,
            }
        } else {
            Self::generic()
        };
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() || (line.starts_with('[') && line.ends_with(']')) {
                continue;
            }
            let bad = MontError::InvalidThresholds { line: i + 1 };
            let (key, value) = line.split_once('=').ok_or(bad)?;
            let key = key.trim();
            // `ntt64_pow_bits`: this key's name in tables tuned before `ntt_redc` had an id.
            let single = matches!(
                key,
                "ntt_redc_pow_bits" | "ntt64_pow_bits" | "ifma_mul_bits" | "ifma_residue_bits"
            );
            let cut = parse_value(value, !single).ok_or(bad)?;
            match key {
                "spectral_mul_bits" => t.spectral_mul_bits = cut,
                "spectral_pow_bits" => t.spectral_pow_bits = cut,
                "spectral_sec_bits" => t.spectral_sec_bits = cut,
                "ifma_mul_bits" => t.ifma_mul_bits = cut.first(),
                "ifma_residue_bits" => t.ifma_residue_bits = cut.first(),
                _ if single => t.ntt_redc_pow_bits = cut.first(),
                _ => return Err(bad),
            }
        }
        Ok(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generic_tables_parse() {
        for text in [
            GENERIC_THRESHOLDS,
            GENERIC_THRESHOLDS_IFMA,
            GENERIC_THRESHOLDS_PORTABLE,
        ] {
            let t = Thresholds::parse(text).unwrap();
            for cut in [
                t.spectral_mul_bits,
                t.spectral_pow_bits,
                t.spectral_sec_bits,
            ] {
                assert!(cut.first() > 0 && cut.first() < u64::MAX, "{cut}");
                // Every table ends on the spectral kernel (it wins more the larger N).
                assert_eq!(cut.points().len() % 2, 1, "{cut}");
            }
            assert!(t.ntt_redc_pow_bits > 0 && t.ntt_redc_pow_bits < u64::MAX);
        }
        // The IFMA table sets the IFMA cuts; the others take them from the table of this CPU.
        let ifma = Thresholds::parse(GENERIC_THRESHOLDS_IFMA).unwrap();
        for key in ["ifma_mul_bits", "ifma_residue_bits"] {
            assert!(
                GENERIC_THRESHOLDS_IFMA.contains(&format!("\n{key} = ")),
                "{key}"
            );
        }
        assert!(ifma.ifma_mul_bits < u64::MAX && ifma.ifma_residue_bits < u64::MAX);
        assert_eq!(
            Thresholds::generic(),
            Thresholds::parse(generic_thresholds_text()).unwrap()
        );
    }

    #[test]
    fn table_syntax() {
        let t = Thresholds::parse("# tuned\n[thresholds]\nspectral_mul_bits = 1_000\n").unwrap();
        assert_eq!(t.spectral_mul_bits, Cut::at(1000));
        assert_eq!(t.spectral_pow_bits, Thresholds::generic().spectral_pow_bits);
        assert_eq!(t.ntt_redc_pow_bits, Thresholds::generic().ntt_redc_pow_bits);
        let t = Thresholds::parse("ntt_redc_pow_bits = 7").unwrap();
        assert_eq!(t.ntt_redc_pow_bits, 7);
        let t = Thresholds::parse("ifma_mul_bits = 1_281\nifma_residue_bits = 833").unwrap();
        assert_eq!((t.ifma_mul_bits, t.ifma_residue_bits), (1281, 833));
        assert_eq!(t.spectral_pow_bits, Thresholds::generic().spectral_pow_bits);
        assert_eq!(
            Thresholds::parse("a = 1"),
            Err(MontError::InvalidThresholds { line: 1 })
        );
        assert_eq!(
            Thresholds::parse("\nspectral_pow_bits = -3"),
            Err(MontError::InvalidThresholds { line: 2 })
        );
        assert_eq!(
            Thresholds::parse("spectral_pow_bits"),
            Err(MontError::InvalidThresholds { line: 1 })
        );
    }

    #[test]
    fn cut_lists() {
        let t = Thresholds::parse("spectral_sec_bits = [15_040, 16385, 23168,]\n").unwrap();
        let cut = t.spectral_sec_bits;
        assert_eq!(cut.points(), [15040, 16385, 23168]);
        assert_eq!(cut.first(), 15040);
        assert_eq!(cut.to_string(), "[15040, 16385, 23168]");
        assert_eq!(
            Thresholds::parse(&format!("spectral_sec_bits = {cut}")),
            Ok(t)
        );
        let on: Vec<u64> = [0, 15039, 15040, 16384, 16385, 23167, 23168, u64::MAX]
            .into_iter()
            .filter(|&b| cut.on(b))
            .collect();
        assert_eq!(on, [15040, 16384, 23168, u64::MAX]);
        assert!(!Cut::NEVER.on(1 << 40) && Cut::at(7).on(7) && !Cut::at(7).on(6));
        assert_eq!(Cut::at(7).to_string(), "7");
        assert_eq!(Cut::from(7), Cut::new(&[7]).unwrap());
        for bad in [
            "spectral_pow_bits = []",
            "spectral_pow_bits = [3, 3]",
            "spectral_pow_bits = [4, 3]",
            "spectral_pow_bits = [1, 2, 3, 4, 5, 6, 7, 8, 9]",
            "spectral_pow_bits = [1, x]",
            "spectral_pow_bits = [1, 2",
            "ntt_redc_pow_bits = [1, 2]",
            "ifma_mul_bits = [1, 2]",
            "ifma_residue_bits = [1, 2]",
        ] {
            assert_eq!(
                Thresholds::parse(bad),
                Err(MontError::InvalidThresholds { line: 1 }),
                "{bad}"
            );
        }
        assert!(Cut::new(&[1, 2, 3, 4, 5, 6, 7, 8]).is_some());
    }
}
