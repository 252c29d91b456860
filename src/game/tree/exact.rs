//! An exact rational search value, with `-inf` and `+inf` as the bounds alpha-beta starts from.

use std::fmt;

use num_bigint::BigInt;
use num_rational::Ratio;
use num_traits::ToPrimitive;

use crate::keys::number::{self, Q};
use crate::search::Value;

/// A leaf value or a window bound: a fraction of two `i64`s, or one of the infinities.
///
/// The derived order puts `NegInf` below every fraction and `PosInf` above, and compares fractions exactly.
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub enum Exact {
    /// Below every value (the initial alpha, and a MAX node's starting `v`).
    NegInf,
    /// A finite value.
    Finite(Ratio<i64>),
    /// Above every value (the initial beta, and a MIN node's starting `v`).
    PosInf,
}

impl Value for Exact {
    const MIN_BOUND: Self = Exact::NegInf;
    const MAX_BOUND: Self = Exact::PosInf;
}

impl Exact {
    /// `q` as a search value, or `None` when its numerator or denominator does not fit in an `i64`.
    pub fn from_q(q: &Q) -> Option<Exact> {
        Some(Exact::Finite(Ratio::new(q.numer().to_i64()?, q.denom().to_i64()?)))
    }

    /// The finite value as a big rational; `None` for an infinity.
    pub fn to_q(self) -> Option<Q> {
        match self {
            Exact::Finite(r) => Some(Q::new(BigInt::from(*r.numer()), BigInt::from(*r.denom()))),
            Exact::NegInf | Exact::PosInf => None,
        }
    }
}

/// `-inf`, `+inf`, or the fraction in lowest terms (`14/3`, `-2`).
impl fmt::Display for Exact {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.to_q() {
            Some(q) => f.write_str(&number::fraction(&q)),
            None if *self == Exact::NegInf => f.write_str("-inf"),
            None => f.write_str("+inf"),
        }
    }
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;

    #[test]
    fn orders_and_prints() {
        let third = Exact::from_q(&number::parse("1/3").unwrap()).unwrap();
        let half = Exact::from_q(&number::parse("0.5").unwrap()).unwrap();
        assert!(Exact::NegInf < third && third < half && half < Exact::PosInf);
        assert_eq!(format!("{third} {} {}", Exact::NegInf, Exact::PosInf), "1/3 -inf +inf");
        assert_eq!(half.to_q(), Some(number::parse("1/2").unwrap()));
        assert_eq!(Exact::from_q(&number::parse("99999999999999999999").unwrap()), None);
    }
}
