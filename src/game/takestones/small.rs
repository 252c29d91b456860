//! The fast board: stone `i` is bit `i` of a `u128`, so legal moves are one AND with a precomputed mask.

use super::{follows, primes::largest_prime_factors, Position, Stones};
use crate::game::{Game, Player};

/// Take-Stones for `n <= 127` on `u128` bitmasks.
#[derive(Clone, Debug)]
pub struct SmallBoard {
    n: u32,
    /// `related[last]`: the stones that may follow `last` (index 0: the first move). Fixed-size tables indexed by
    /// `x & 127` need no bounds check on the hot path.
    related: Box<[u128; 128]>,
    /// `multiples[p]`: every stone that is a multiple of `p`.
    multiples: Box<[u128; 128]>,
    largest_prime: Vec<u32>,
}

/// A position on a [`SmallBoard`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SmallState {
    /// Bit `i` set: stone `i` is available (bit 0 is never set).
    pub available: u128,
    /// The previous move, 0 before the first move.
    pub last: u32,
    /// How many stones have been taken.
    pub taken: u32,
}

/// The set bits of a mask in increasing order: the legal moves of a [`SmallState`].
#[derive(Clone, Copy, Debug)]
pub struct Bits(u128);

impl Iterator for Bits {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            return None;
        }
        let bit = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(bit)
    }
}

impl SmallBoard {
    /// The largest `n` this board holds.
    pub const MAX_STONES: u32 = 127;

    /// A board of `n` stones; `None` unless `1 <= n <= 127`.
    pub fn new(n: u32) -> Option<SmallBoard> {
        if !(1..=Self::MAX_STONES).contains(&n) {
            return None;
        }
        let stones = 1..=n;
        let mask_of = |keep: &dyn Fn(u32) -> bool| stones.clone().filter(|&s| keep(s)).fold(0u128, |m, s| m | 1 << s);
        let mut related = Box::new([0u128; 128]);
        let mut multiples = Box::new([0u128; 128]);
        for x in 0..=n {
            related[x as usize] = mask_of(&|s| follows(n, (x > 0).then_some(x), s));
            multiples[x as usize] = if x == 0 { 0 } else { mask_of(&|s| s % x == 0) };
        }
        Some(SmallBoard { n, related, multiples, largest_prime: largest_prime_factors(n) })
    }

    #[inline]
    fn legal_mask(&self, state: &SmallState) -> u128 {
        state.available & self.related[(state.last & 127) as usize]
    }
}

impl Game for SmallBoard {
    type State = SmallState;
    type Move = u32;
    type Moves = Bits;

    #[inline]
    fn to_move(&self, state: &SmallState) -> Player {
        if state.taken % 2 == 0 {
            Player::Max
        } else {
            Player::Min
        }
    }

    #[inline]
    fn legal_moves(&self, state: &SmallState) -> Bits {
        Bits(self.legal_mask(state))
    }

    #[inline]
    fn apply(&self, state: &SmallState, mv: u32) -> SmallState {
        debug_assert!(self.legal_mask(state) >> mv & 1 == 1, "illegal move {mv}");
        SmallState { available: state.available & !(1u128 << mv), last: mv, taken: state.taken + 1 }
    }

    #[inline]
    fn is_terminal(&self, state: &SmallState) -> bool {
        self.legal_mask(state) == 0
    }

    fn winner(&self, state: &SmallState) -> Option<Player> {
        self.is_terminal(state).then(|| self.to_move(state).opponent())
    }
}

impl Stones for SmallBoard {
    fn stones(&self) -> u32 {
        self.n
    }

    fn root(&self, position: &Position) -> SmallState {
        debug_assert_eq!(position.n(), self.n);
        let all = (1..=self.n).fold(0u128, |m, s| m | 1 << s);
        let available = position.taken().iter().fold(all, |m, &s| m & !(1u128 << s));
        SmallState { available, last: position.last().unwrap_or(0), taken: position.taken().len() as u32 }
    }

    fn last(&self, state: &SmallState) -> Option<u32> {
        (state.last > 0).then_some(state.last)
    }

    fn taken_count(&self, state: &SmallState) -> u32 {
        state.taken
    }

    #[inline]
    fn is_available(&self, state: &SmallState, stone: u32) -> bool {
        stone <= self.n && state.available >> stone & 1 == 1
    }

    fn available(&self, state: &SmallState) -> Vec<u32> {
        Bits(state.available).collect()
    }

    #[inline]
    fn legal_count(&self, state: &SmallState) -> u32 {
        self.legal_mask(state).count_ones()
    }

    #[inline]
    fn count_available_multiples(&self, state: &SmallState, p: u32) -> u32 {
        (state.available & self.multiples[(p & 127) as usize]).count_ones()
    }

    #[inline]
    fn count_legal_multiples(&self, state: &SmallState, p: u32) -> u32 {
        (self.legal_mask(state) & self.multiples[(p & 127) as usize]).count_ones()
    }

    #[inline]
    fn largest_prime_factor(&self, x: u32) -> u32 {
        self.largest_prime[x as usize]
    }
}
