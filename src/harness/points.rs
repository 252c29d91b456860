//! Points as exact rationals, from the rubric to every output (issue 33, item 1).
//!
//! A rubric's points (a suite's `points`, `--points`) are read to [`INPUT_DECIMALS`] decimals; shares of them
//! (50/7 a game, 2 of 3 lines) stay exact fractions, so seven sevenths of 50 are exactly 50 and a student who earns
//! every point has exactly the maximum.
//!
//! The one display rule, for every output:
//! - text for people ([`Points`]'s `Display`, [`pair`]): a whole number as a whole number (`100`), otherwise at most
//!   [`DECIMALS`] decimals cut toward zero, never rounded up (`50/7` is `7.1428`, `2/3` is `0.6666`); when that
//!   would show a score below its maximum as equal to it, more decimals are shown until it does not;
//! - machine text (the gradebook CSV, JUnit's properties: [`Points::machine`]): the exact decimal when it has at
//!   most [`INPUT_DECIMALS`] decimals, otherwise cut toward zero there;
//! - JSON numbers (the results model, Gradescope, PrairieLearn): the exact `f64` when the value is a decimal of at
//!   most [`INPUT_DECIMALS`] decimals (`0.5`, `0.1`, `100`), otherwise the largest `f64` below the value, so a JSON
//!   number never exceeds the points earned and equals a maximum only when it is one. Reading such a number back
//!   gives the decimal when it writes with at most nine decimals, else the fraction of smallest denominator that
//!   writes as that number: exact for a rubric's decimals and shares (50/7), so a resumed run keeps exact scores;
//!   not for every fraction (an f64 cannot tell apart every two fractions), but always one that writes the same.

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign, Sub};

use num_rational::Ratio;
use num_traits::{CheckedAdd, CheckedDiv, CheckedMul, CheckedSub, ToPrimitive, Zero};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Decimals a point value given as a number (a rubric, `--points`) is read to.
pub const INPUT_DECIMALS: u32 = 9;

/// Decimals text for people shows, cut toward zero.
pub const DECIMALS: u32 = 4;

/// The largest magnitude a point value given as a number may have; larger ones are read as this.
const LIMIT: f64 = 1e15;

type Q = Ratio<i128>;

/// An exact number of points (a score or a maximum).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Points(Q);

impl Default for Points {
    fn default() -> Points {
        Points::ZERO
    }
}

impl Points {
    /// No points.
    pub const ZERO: Points = Points(Ratio::new_raw(0, 1));

    /// `n` whole points.
    pub fn whole(n: i64) -> Points {
        Points(Q::from_integer(i128::from(n)))
    }

    /// A number of points given as a number (a rubric, the command line), read to [`INPUT_DECIMALS`] decimals
    /// (the nearest), so `0.1` is exactly one tenth; not a number reads as 0, beyond ±10^15 as ±10^15.
    pub fn from_f64(x: f64) -> Points {
        if !x.is_finite() {
            return Points::ZERO;
        }
        let x = x.clamp(-LIMIT, LIMIT);
        // The shortest decimal that reads back as `x`: exact digits, no binary noise.
        let text = format!("{}", x.abs());
        let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
        let unit = 10i128.pow(INPUT_DECIMALS);
        let whole: i128 = whole.parse().unwrap_or(0);
        let mut kept: String = fraction.chars().take(INPUT_DECIMALS as usize).collect();
        while kept.len() < INPUT_DECIMALS as usize {
            kept.push('0');
        }
        let mut units = whole * unit + kept.parse::<i128>().unwrap_or(0);
        if fraction.chars().nth(INPUT_DECIMALS as usize).is_some_and(|d| d >= '5') {
            units += 1;
        }
        let units = if x < 0.0 { -units } else { units };
        Points(Q::new(units, unit))
    }

    /// A decimal as written in a machine format (`2.849`, `-0.5`, `100`), read exactly; `None` when it is not one
    /// (an exponent, a sign alone, more than 30 decimals or a value too large to hold).
    pub fn parse_decimal(text: &str) -> Option<Points> {
        let text = text.trim();
        let (negative, digits) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text.strip_prefix('+').unwrap_or(text)),
        };
        let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
        let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if whole.is_empty() && fraction.is_empty() || !all_digits(whole) || !all_digits(fraction) || fraction.len() > 30
        {
            return None;
        }
        let unit = 10i128.checked_pow(u32::try_from(fraction.len()).ok()?)?;
        let whole: i128 = if whole.is_empty() { 0 } else { whole.parse().ok()? };
        let fraction: i128 = if fraction.is_empty() { 0 } else { fraction.parse().ok()? };
        let units = whole.checked_mul(unit)?.checked_add(fraction)?;
        Some(Points(Q::new(if negative { -units } else { units }, unit)))
    }

    /// A number of points as a TA writes it (`--points 10`, `2.5`): a decimal of at most [`INPUT_DECIMALS`]
    /// decimals, not negative, at most 10^15, read exactly. Usable as a clap value parser.
    ///
    /// # Errors
    /// One line saying what was expected (NaN, `inf`, an exponent, a sign, too many decimals, too large).
    pub fn parse_rubric(text: &str) -> Result<Points, String> {
        let expected = || {
            format!(
                "'{text}' is not a number of points: expected a decimal >= 0 with at most {INPUT_DECIMALS} decimals, \
                 like 10 or 2.5"
            )
        };
        let decimals = text.trim().split_once('.').map_or(0, |(_, f)| f.len());
        let points =
            Points::parse_decimal(text).filter(|_| !text.trim().starts_with(['-', '+'])).ok_or_else(expected)?;
        if decimals > INPUT_DECIMALS as usize || points > Points::whole(LIMIT as i64) {
            return Err(expected());
        }
        Ok(points)
    }

    /// A share of something (`--check-share 0.5`): [`Points::parse_rubric`] of at most 1.
    ///
    /// # Errors
    /// One line saying what was expected.
    pub fn parse_share(text: &str) -> Result<Points, String> {
        match Points::parse_rubric(text) {
            Ok(share) if share <= Points::whole(1) => Ok(share),
            _ => Err(format!("'{text}' is not a share: expected a decimal from 0 to 1, like 0.5")),
        }
    }

    /// The exact fraction `numer / denom` of a point (0 for a zero `denom`).
    pub fn fraction(numer: i64, denom: i64) -> Points {
        if denom == 0 {
            return Points::ZERO;
        }
        Points(Q::new(i128::from(numer), i128::from(denom)))
    }

    /// `numer / denom` of these points, exactly (0 for a zero `denom`): a share of a rubric's points.
    pub fn share(self, numer: u64, denom: u64) -> Points {
        if denom == 0 {
            return Points::ZERO;
        }
        let part = Q::new(i128::from(numer), i128::from(denom));
        match self.0.checked_mul(&part) {
            Some(q) => Points(q),
            None => Points::from_f64(self.to_f64() * numer as f64 / denom as f64),
        }
    }

    /// The product of two point values (a share given as a number times points), exactly.
    pub fn times(self, other: Points) -> Points {
        match self.0.checked_mul(&other.0) {
            Some(q) => Points(q),
            None => Points::from_f64(self.to_f64() * other.to_f64()),
        }
    }

    /// `self / other` exactly (None for a zero `other`): the factor that scales one maximum to another.
    pub fn over(self, other: Points) -> Option<Points> {
        if other.is_zero() {
            return None;
        }
        self.0.checked_div(&other.0).map(Points)
    }

    /// The nearest `f64` (for proportions, means and bar widths, never for a score someone reads as exact).
    pub fn to_f64(self) -> f64 {
        self.0.to_f64().unwrap_or(0.0)
    }

    /// These points as a share of `max` in [0, 1], as a JSON number by the rule of [`Points::json`]: 1 exactly when
    /// they are the maximum, below 1 otherwise (PrairieLearn's `score`); 0 for a maximum of 0.
    pub fn proportion(self, max: Points) -> f64 {
        if !max.is_positive() || !self.is_positive() {
            return 0.0;
        }
        if self >= max {
            return 1.0;
        }
        match self.0.checked_div(&max.0) {
            Some(q) => Points(q).json().clamp(0.0, step_down(1.0)),
            None => (self.to_f64() / max.to_f64()).clamp(0.0, step_down(1.0)),
        }
    }

    /// Whether it is no points.
    pub fn is_zero(self) -> bool {
        self.0.is_zero()
    }

    /// Whether it is above zero.
    pub fn is_positive(self) -> bool {
        self > Points::ZERO
    }

    /// The largest whole number of points at most this.
    pub fn floor(self) -> i128 {
        self.0.floor().to_integer()
    }

    /// Whether it is a whole number of points.
    pub fn is_whole(self) -> bool {
        self.0.is_integer()
    }

    /// Whether it is an exact decimal of at most `decimals` decimals.
    fn is_decimal(self, decimals: u32) -> bool {
        self.units(decimals).is_some_and(|u| Q::new(u, 10i128.pow(decimals)) == self.0)
    }

    /// The value in `1/10^decimals` units, cut toward zero (None when it does not fit).
    fn units(self, decimals: u32) -> Option<i128> {
        let scaled = self.0.numer().checked_mul(&10i128.checked_pow(decimals)?)?;
        Some(scaled / self.0.denom())
    }

    /// The value with at most `decimals` decimals, cut toward zero, no trailing zeros.
    fn cut(self, decimals: u32) -> String {
        let Some(units) = self.units(decimals) else {
            return format!("{}", self.to_f64());
        };
        let unit = 10i128.pow(decimals);
        let sign = if units < 0 { "-" } else { "" };
        let (whole, fraction) = (units.unsigned_abs() / unit as u128, units.unsigned_abs() % unit as u128);
        if fraction == 0 {
            return format!("{sign}{whole}");
        }
        let digits = format!("{fraction:0width$}", width = decimals as usize);
        format!("{sign}{whole}.{}", digits.trim_end_matches('0'))
    }

    /// The value for machine formats (the gradebook CSV, JUnit's properties): exact when it is a decimal of at
    /// most [`INPUT_DECIMALS`] decimals, otherwise cut toward zero there.
    pub fn machine(self) -> String {
        self.cut(INPUT_DECIMALS)
    }

    /// The JSON number (see the module docs): exact for a decimal, otherwise the largest `f64` below the value.
    pub fn json(self) -> f64 {
        if self.is_decimal(INPUT_DECIMALS) {
            return self.machine().parse().unwrap_or(0.0);
        }
        let (n, d) = (*self.0.numer() as f64, *self.0.denom() as f64);
        let f = n / d;
        // Exact sign of f*d - n (both are exact in f64 up to 2^53): above the value, step one below.
        if f.mul_add(d, -n) > 0.0 {
            step_down(f)
        } else {
            f
        }
    }

    /// The exact value a JSON number written by [`Points::json`] stands for: the decimal when it has at most
    /// [`INPUT_DECIMALS`] decimals, otherwise the fraction of smallest denominator that [`Points::json`] writes as
    /// `x` (see the module docs), else `x` read to [`INPUT_DECIMALS`] decimals.
    pub fn from_json(x: f64) -> Points {
        if !x.is_finite() {
            return Points::ZERO;
        }
        let text = format!("{x}");
        let decimal = (text.split_once('.').map_or(0, |(_, f)| f.len()) <= INPUT_DECIMALS as usize)
            .then(|| Points::from_f64(x))
            .filter(|d| d.json() == x);
        let fraction = convergents(x).into_iter().find(|p| p.json() == x);
        // A decimal first: a convergent with a smaller denominator can write as the same number as a nine-decimal
        // score (1.558586647), which a TA's rubric gives far more often than such a fraction. A fraction of more
        // decimals (71.42857142857143 is 500/7) is the simplest that writes as `x`: exact for the shares a
        // rubric makes, not for every fraction (no f64 can tell two fractions apart that write the same).
        match (decimal, fraction) {
            (Some(d), _) => d,
            (None, Some(f)) => f,
            (None, None) => Points::from_f64(x),
        }
    }

    /// Checked sum; on overflow (never for a real rubric) the nearest value the inputs give as floats.
    fn plus(self, other: Points) -> Points {
        match self.0.checked_add(&other.0) {
            Some(q) => Points(q),
            None => Points::from_f64(self.to_f64() + other.to_f64()),
        }
    }
}

/// The `f64` just below `f` (for the finite values [`Points::json`] makes).
fn step_down(f: f64) -> f64 {
    if f == 0.0 {
        -f64::from_bits(1)
    } else if f > 0.0 {
        f64::from_bits(f.to_bits() - 1)
    } else {
        -f64::from_bits((-f).to_bits() + 1)
    }
}

/// The continued-fraction convergents of `x` (exact, from its binary value) with denominators up to 2^53.
fn convergents(x: f64) -> Vec<Points> {
    let negative = x < 0.0;
    let bits = x.abs().to_bits();
    let exponent = ((bits >> 52) & 0x7ff) as i32;
    let mantissa = if exponent == 0 { (bits & ((1 << 52) - 1)) << 1 } else { (bits & ((1 << 52) - 1)) | (1 << 52) };
    let shift = 1075 - exponent; // x = mantissa / 2^shift
    if !(0..=120).contains(&shift) {
        return Vec::new();
    }
    let (mut n, mut d) = (i128::from(mantissa), 1i128 << shift);
    let (mut h, mut h1, mut k, mut k1) = (1i128, 0i128, 0i128, 1i128);
    let mut out = Vec::new();
    while d != 0 {
        let a = n / d;
        let (Some(hn), Some(kn)) =
            (a.checked_mul(h).and_then(|v| v.checked_add(h1)), a.checked_mul(k).and_then(|v| v.checked_add(k1)))
        else {
            break;
        };
        if kn > 1 << 53 {
            break;
        }
        (h1, h, k1, k) = (h, hn, k, kn);
        out.push(Points(Q::new(if negative { -h } else { h }, k)));
        (n, d) = (d, n - a * d);
    }
    out
}

/// `score / max` (or `score/max` without `spaced`) as people read it: each by the display rule, with more decimals
/// where a score below its maximum would otherwise read as equal to it.
pub fn pair(score: Points, max: Points, spaced: bool) -> String {
    let sep = if spaced { " / " } else { "/" };
    let mut decimals = DECIMALS;
    while score < max && score.cut(decimals) == max.cut(decimals) && decimals < 30 {
        decimals += 1;
    }
    let (shown, of) = if decimals == DECIMALS {
        (score.to_string(), max.to_string())
    } else {
        (score.cut(decimals), max.cut(decimals))
    };
    format!("{shown}{sep}{of}")
}

impl fmt::Display for Points {
    /// The display rule for people: whole numbers whole, otherwise [`DECIMALS`] decimals cut toward zero.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.cut(DECIMALS))
    }
}

impl From<f64> for Points {
    /// [`Points::from_f64`]: a number read to [`INPUT_DECIMALS`] decimals.
    fn from(x: f64) -> Points {
        Points::from_f64(x)
    }
}

impl PartialEq<f64> for Points {
    /// Whether these are exactly the points `x` reads as ([`Points::from_f64`]).
    fn eq(&self, x: &f64) -> bool {
        *self == Points::from_f64(*x)
    }
}

impl Add for Points {
    type Output = Points;

    fn add(self, other: Points) -> Points {
        self.plus(other)
    }
}

impl AddAssign for Points {
    fn add_assign(&mut self, other: Points) {
        *self = self.plus(other);
    }
}

impl Sub for Points {
    type Output = Points;

    fn sub(self, other: Points) -> Points {
        match self.0.checked_sub(&other.0) {
            Some(q) => Points(q),
            None => Points::from_f64(self.to_f64() - other.to_f64()),
        }
    }
}

impl Sum for Points {
    fn sum<I: Iterator<Item = Points>>(iter: I) -> Points {
        iter.fold(Points::ZERO, Points::plus)
    }
}

impl<'a> Sum<&'a Points> for Points {
    fn sum<I: Iterator<Item = &'a Points>>(iter: I) -> Points {
        iter.copied().sum()
    }
}

impl Serialize for Points {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_f64(self.json())
    }
}

impl<'de> Deserialize<'de> for Points {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Points, D::Error> {
        f64::deserialize(deserializer).map(Points::from_json)
    }
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes.
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn seven_sevenths_of_fifty_and_fifty_are_exactly_a_hundred() {
        let each = Points::whole(50).share(1, 7);
        let total: Points = std::iter::repeat(each).take(7).chain([Points::whole(50)]).sum();
        assert_eq!(total, Points::whole(100));
        assert_eq!((total.to_string(), total.machine(), total.json()), ("100".into(), "100".into(), 100.0));
        // What f64 gives, adding each game's share to the check's 50: the bug of issue 33.
        assert_ne!(std::iter::repeat(50.0 / 7.0).take(7).fold(50.0, |sum, each| sum + each), 100.0);
    }

    #[test]
    fn a_machine_decimal_reads_back_exactly() {
        for p in [Points::fraction(2849, 1000), Points::fraction(-1, 2), Points::whole(100), Points::fraction(2, 3)] {
            let read = Points::parse_decimal(&p.machine());
            assert_eq!(read.map(Points::machine), Some(p.machine()), "{p:?}");
        }
        assert_eq!(Points::parse_decimal("0.1"), Some(Points::fraction(1, 10)));
        for bad in ["", "-", ".", "1e5", "x", "1.2.3", "NaN", "inf"] {
            assert_eq!(Points::parse_decimal(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_display_rule_cuts_toward_zero() {
        assert_eq!(Points::whole(50).share(1, 7).to_string(), "7.1428");
        assert_eq!(Points::fraction(2, 3).to_string(), "0.6666");
        assert_eq!(Points::from_f64(0.1).to_string(), "0.1");
        assert_eq!(Points::from_f64(2.25).machine(), "2.25");
        assert_eq!(Points::fraction(2, 3).machine(), "0.666666666");
        assert_eq!(Points::from_f64(-1.5).to_string(), "-1.5");
        assert_eq!(Points::from_f64(0.1).json(), 0.1);
        // A rubric's shares read back exactly (three sevenths of 50 and 50, as `grade othello` makes them); so does
        // a nine-decimal score. (A fraction whose f64 writes with at most nine decimals, such as 50000000/7, reads
        // back as that decimal: the decimal is the far likelier score.)
        for p in [
            Points::whole(50).share(3, 7) + Points::whole(50),
            Points::from_f64(0.849),
            Points::fraction(1, 3),
            Points::whole(100),
            Points::fraction(1_558_586_647, 1_000_000_000),
        ] {
            assert_eq!(Points::from_json(p.json()), p);
        }
        assert_eq!(pair(Points::fraction(99_999, 1000), Points::whole(100), true), "99.999 / 100");
        assert_eq!(pair(Points::fraction(999_999, 10_000), Points::whole(100), false), "99.9999/100");
        // Four decimals already tell 99.99999 from 100: more are shown only where they would not.
        assert_eq!(pair(Points::fraction(9_999_999, 100_000), Points::whole(100), false), "99.9999/100");
        assert_eq!(
            pair(Points::fraction(9_999_999, 100_000), Points::fraction(99_999_991, 1_000_000), false),
            "99.99999/99.999991"
        );
    }

    fn points() -> impl Strategy<Value = Points> {
        prop_oneof![
            (0i64..10_000, 1i64..500).prop_map(|(n, d)| Points::fraction(n, d)),
            (0.0f64..1e6).prop_map(Points::from_f64),
        ]
    }

    proptest! {
        #[test]
        fn json_round_trips_exactly_and_never_rounds_up(p in points(), q in points()) {
            prop_assert_eq!(Points::from_json(p.json()), p);
            // Never above the value, unless the value is a decimal (then the number is the nearest f64 to it).
            let (n, d) = (*p.0.numer() as f64, *p.0.denom() as f64);
            prop_assert!(p.is_decimal(INPUT_DECIMALS) || p.json().mul_add(d, -n) <= 0.0);
            if p < q {
                if q.is_whole() {
                    prop_assert!(p.json() < q.json());
                }
                prop_assert!(pair(p, q, true) != pair(q, q, true));
                prop_assert!(Points::from_f64(p.machine().parse::<f64>().unwrap()) <= p);
            }
            let text: String = serde_json::to_string(&p).unwrap();
            prop_assert_eq!(serde_json::from_str::<Points>(&text).unwrap(), p);
        }
    }
}
