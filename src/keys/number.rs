//! Exact rational numbers for answer keys: parsed from `3`, `-2`, `14/3` or `0.25`, printed as a fraction and as a
//! decimal, so `14/3` is never shown as `4.666666666666667`.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, Zero};

/// An exact rational number.
pub type Q = BigRational;

/// `n` as a rational.
pub fn int(n: i64) -> Q {
    Q::from_integer(BigInt::from(n))
}

/// Parses an integer (`-3`), a fraction (`14/3`, `-1/2`) or a finite decimal (`0.25`, `-.5`, `1e-2` is not
/// accepted). Spaces around the text are ignored.
///
/// # Errors
/// One line saying what the text should have been.
pub fn parse(text: &str) -> Result<Q, String> {
    let t = text.trim();
    let bad = || format!("'{t}' is not a number (expected an integer, a fraction like 14/3, or a decimal like 0.25)");
    if let Some((n, d)) = t.split_once('/') {
        let n: BigInt = n.trim().parse().map_err(|_| bad())?;
        let d: BigInt = d.trim().parse().map_err(|_| bad())?;
        if d.is_zero() {
            return Err(format!("'{t}' divides by zero"));
        }
        return Ok(Q::new(n, d));
    }
    if let Some((whole, frac)) = t.split_once('.') {
        let negative = whole.trim_start().starts_with('-');
        let digits = whole.trim_start_matches(['-', '+']);
        if !(digits.chars().all(|c| c.is_ascii_digit()) && frac.chars().all(|c| c.is_ascii_digit()))
            || (digits.is_empty() && frac.is_empty())
        {
            return Err(bad());
        }
        let all: BigInt = format!("{digits}{frac}").parse().map_err(|_| bad())?;
        let scale = num_traits::pow(BigInt::from(10), frac.len());
        let q = Q::new(all, scale);
        return Ok(if negative { -q } else { q });
    }
    t.parse::<BigInt>().map(Q::from_integer).map_err(|_| bad())
}

/// The fraction in lowest terms: `14/3`, `-2`, `0`.
pub fn fraction(q: &Q) -> String {
    if q.is_integer() {
        q.numer().to_string()
    } else {
        format!("{}/{}", q.numer(), q.denom())
    }
}

/// The decimal rounded half away from zero to `places` digits, trailing zeros removed: `4.667`, `-0.5`, `3`.
pub fn decimal(q: &Q, places: usize) -> String {
    let scale = num_traits::pow(BigInt::from(10), places);
    let scaled = q.abs() * Q::from_integer(scale.clone());
    let rounded = (scaled + Q::new(BigInt::from(1), BigInt::from(2))).floor().to_integer();
    let digits = rounded.to_string();
    let (whole, frac) = if places == 0 {
        (digits, String::new())
    } else {
        let padded = format!("{digits:0>width$}", width = places + 1);
        let (w, f) = padded.split_at(padded.len() - places);
        (w.to_string(), f.trim_end_matches('0').to_string())
    };
    let sign = if q.is_negative() && (whole != "0" || !frac.is_empty()) { "-" } else { "" };
    if frac.is_empty() {
        format!("{sign}{whole}")
    } else {
        format!("{sign}{whole}.{frac}")
    }
}

/// The fraction, followed by its decimal when it is not an integer: `14/3 (4.667)`, `5`.
pub fn both(q: &Q) -> String {
    if q.is_integer() {
        fraction(q)
    } else {
        format!("{} ({})", fraction(q), decimal(q, 3))
    }
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;

    #[test]
    fn parses_and_prints_exactly() {
        let q = parse("14/3").unwrap();
        assert_eq!(fraction(&q), "14/3");
        assert_eq!(decimal(&q, 3), "4.667");
        assert_eq!(both(&q), "14/3 (4.667)");
        assert_eq!(fraction(&parse("0.25").unwrap()), "1/4");
        assert_eq!(fraction(&parse("-.5").unwrap()), "-1/2");
        assert_eq!(fraction(&parse(" -6/4 ").unwrap()), "-3/2");
        assert_eq!(decimal(&parse("-1/2").unwrap(), 0), "-1");
        assert_eq!(decimal(&parse("-1/2000").unwrap(), 3), "-0.001");
        assert_eq!(decimal(&parse("-1/3000").unwrap(), 3), "0");
        assert_eq!(decimal(&parse("5").unwrap(), 3), "5");
        assert!(parse("1/0").is_err());
        assert!(parse("x").is_err());
        assert!(parse(".").is_err());
        assert!(parse("1.2.3").is_err());
    }
}
