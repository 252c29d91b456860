//! Java-compatible fixed-point formatting of doubles.
//!
//! Java's `String.format("%.1f", x)` does not round the binary value of `x`: it takes the shortest decimal string
//! that reads back as `x` (what `Double.toString` prints) and rounds that string HALF_UP. So `0.15` prints `0.2`
//! and `1.15` prints `1.2`, where C and Rust's `{:.1}` print `0.1` and `1.1`. `java.text.DecimalFormat("0.0")`
//! instead rounds the exact binary value HALF_EVEN (`1.25` -> `1.2`, `0.15` -> `0.1`), which is what Rust's
//! `{:.1}` does. Both behaviours are checked against a real JVM in the tests.

/// How a double is rounded to a fixed number of decimals.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Rounding {
    /// Java `String.format("%.1f")`: HALF_UP on the shortest decimal form (1.25 -> 1.3, 0.15 -> 0.2).
    #[default]
    HalfUp,
    /// Java `DecimalFormat("0.0")`: HALF_EVEN on the exact binary value (1.25 -> 1.2, 0.15 -> 0.1).
    HalfEven,
}

/// What to print for a value that is, or rounds to, zero with a negative sign.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum NegativeZero {
    /// Print `0.0`: negative zero is numerically equal to zero.
    #[default]
    Normalize,
    /// Print `-0.0`, as Java does for `-0.0` (a heuristic of 0 negated on Min's turn).
    Keep,
}

/// Formats `x` with `decimals` digits after the point the way Java does under `rounding`.
///
/// `x` must be finite (the course never prints infinities).
pub fn format_fixed(x: f64, decimals: usize, rounding: Rounding, negative_zero: NegativeZero) -> String {
    let magnitude = match rounding {
        Rounding::HalfUp => half_up_shortest(x.abs(), decimals),
        Rounding::HalfEven => format!("{:.*}", decimals, x.abs()),
    };
    let is_zero = magnitude.bytes().all(|b| b == b'0' || b == b'.');
    let negative = x.is_sign_negative() && !(is_zero && negative_zero == NegativeZero::Normalize);
    if negative {
        format!("-{magnitude}")
    } else {
        magnitude
    }
}

/// Rounds the shortest round-trip decimal form of `x >= 0` HALF_UP to `decimals` places.
fn half_up_shortest(x: f64, decimals: usize) -> String {
    // `{:e}` gives the shortest digits that read back as `x`: "1.25e0", "1.5e-1", "0e0".
    let sci = format!("{x:e}");
    let (mantissa, exponent) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exponent: i64 = exponent.parse().unwrap_or(0);
    let mut digits: Vec<u8> = mantissa.bytes().filter(u8::is_ascii_digit).map(|b| b - b'0').collect();
    // A leading 0 gives a carry somewhere to go (9.96 -> 10.0) and makes `point` at least 1.
    digits.insert(0, 0);
    let point = exponent + 2; // digits before the decimal point in `digits`
    let keep = point + decimals as i64;
    if keep <= 0 {
        // Every digit lies below half a unit of the last place kept.
        return zero(decimals);
    }
    let keep = keep as usize;
    if keep < digits.len() {
        let round_up = digits[keep] >= 5;
        digits.truncate(keep);
        if round_up {
            for d in digits.iter_mut().rev() {
                if *d == 9 {
                    *d = 0;
                } else {
                    *d += 1;
                    break;
                }
            }
        }
    }
    digits.resize(keep.max(digits.len()), 0);
    let point = point as usize;
    if point > digits.len() {
        digits.resize(point, 0);
    }
    let int_part: String = digits[..point].iter().map(|d| char::from(b'0' + d)).collect();
    let int_part = int_part.trim_start_matches('0');
    let int_part = if int_part.is_empty() { "0" } else { int_part };
    let frac: String = digits[point..point + decimals].iter().map(|d| char::from(b'0' + d)).collect();
    if decimals == 0 {
        int_part.to_string()
    } else {
        format!("{int_part}.{frac}")
    }
}

fn zero(decimals: usize) -> String {
    if decimals == 0 {
        "0".into()
    } else {
        format!("0.{}", "0".repeat(decimals))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn java(x: f64) -> String {
        format_fixed(x, 1, Rounding::HalfUp, NegativeZero::Keep)
    }

    #[test]
    fn half_up_rounds_ties_on_the_shortest_form() {
        assert_eq!(java(1.25), "1.3");
        assert_eq!(java(1.45), "1.5");
        assert_eq!(java(0.15), "0.2");
        assert_eq!(java(1.15), "1.2");
        assert_eq!(java(2.25), "2.3");
        assert_eq!(java(-1.25), "-1.3");
        assert_eq!(java(9.95), "10.0");
        assert_eq!(java(99.95), "100.0");
        assert_eq!(java(0.05), "0.1");
    }

    #[test]
    fn half_up_leaves_non_ties_alone() {
        assert_eq!(java(1.5), "1.5");
        assert_eq!(java(2.0), "2.0");
        assert_eq!(java(11.0 / 5.0), "2.2");
        assert_eq!(java(1.0 / 3.0), "0.3");
        assert_eq!(java(2.0 / 3.0), "0.7");
        assert_eq!(java(0.04), "0.0");
        assert_eq!(java(0.0001), "0.0");
        assert_eq!(java(123456.789), "123456.8");
        assert_eq!(java(1e20), "100000000000000000000.0");
        assert_eq!(java(0.0), "0.0");
    }

    #[test]
    fn half_even_rounds_the_binary_value() {
        let df = |x| format_fixed(x, 1, Rounding::HalfEven, NegativeZero::Keep);
        assert_eq!(df(1.25), "1.2");
        assert_eq!(df(0.15), "0.1");
        assert_eq!(df(1.35), "1.4");
        assert_eq!(df(1.75), "1.8");
        assert_eq!(df(99.95), "100.0");
    }

    #[test]
    fn negative_zero_is_kept_or_normalized() {
        assert_eq!(format_fixed(-0.0, 1, Rounding::HalfUp, NegativeZero::Keep), "-0.0");
        assert_eq!(format_fixed(-0.0, 1, Rounding::HalfUp, NegativeZero::Normalize), "0.0");
        assert_eq!(format_fixed(-0.01, 1, Rounding::HalfUp, NegativeZero::Keep), "-0.0");
        assert_eq!(format_fixed(-0.01, 1, Rounding::HalfEven, NegativeZero::Normalize), "0.0");
        assert_eq!(format_fixed(-0.6, 1, Rounding::HalfUp, NegativeZero::Normalize), "-0.6");
    }

    #[test]
    fn other_precisions() {
        assert_eq!(format_fixed(2.5, 0, Rounding::HalfUp, NegativeZero::Keep), "3");
        assert_eq!(format_fixed(0.125, 2, Rounding::HalfUp, NegativeZero::Keep), "0.13");
        assert_eq!(format_fixed(0.125, 2, Rounding::HalfEven, NegativeZero::Keep), "0.12");
    }
}
