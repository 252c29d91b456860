//! The general board: any `n` up to [`super::MAX_STONES`], one bit per stone in a `Vec<u64>`, divisors and
//! multiples computed when asked. Slower than [`super::SmallBoard`], and checked against it.

use super::{follows, primes::largest_prime_factors, Position, Stones};
use crate::game::{Game, Player};

/// Take-Stones for any supported `n`.
#[derive(Clone, Debug)]
pub struct LargeBoard {
    n: u32,
    largest_prime: Vec<u32>,
}

/// A position on a [`LargeBoard`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LargeState {
    /// Bit `i % 64` of word `i / 64` set: stone `i` is available.
    available: Vec<u64>,
    /// The previous move, 0 before the first move.
    last: u32,
    /// How many stones have been taken.
    taken: u32,
}

impl LargeState {
    fn has(&self, stone: u32) -> bool {
        self.available[(stone / 64) as usize] >> (stone % 64) & 1 == 1
    }

    fn remove(&mut self, stone: u32) {
        self.available[(stone / 64) as usize] &= !(1u64 << (stone % 64));
    }
}

impl LargeBoard {
    /// A board of `n` stones (`n >= 1`).
    pub fn new(n: u32) -> LargeBoard {
        LargeBoard { n, largest_prime: largest_prime_factors(n) }
    }

    /// Every stone that may follow the previous move, availability aside, in increasing order.
    fn candidates(&self, last: u32) -> Vec<u32> {
        if last == 0 {
            return (1..=self.n).filter(|&s| follows(self.n, None, s)).collect();
        }
        let mut small = Vec::new();
        let mut large = Vec::new();
        let mut d = 1;
        while d * d <= last {
            if last % d == 0 {
                small.push(d);
                if d * d != last {
                    large.push(last / d);
                }
            }
            d += 1;
        }
        small.extend(large.into_iter().rev());
        small.extend((2..).map(|k| k * last).take_while(|&m| m <= self.n));
        small
    }
}

impl Game for LargeBoard {
    type State = LargeState;
    type Move = u32;
    type Moves = std::vec::IntoIter<u32>;

    fn to_move(&self, state: &LargeState) -> Player {
        if state.taken % 2 == 0 {
            Player::Max
        } else {
            Player::Min
        }
    }

    fn legal_moves(&self, state: &LargeState) -> Self::Moves {
        let mut moves = self.candidates(state.last);
        moves.retain(|&s| state.has(s));
        moves.into_iter()
    }

    fn apply(&self, state: &LargeState, mv: u32) -> LargeState {
        let mut next = state.clone();
        next.remove(mv);
        next.last = mv;
        next.taken += 1;
        next
    }

    fn is_terminal(&self, state: &LargeState) -> bool {
        !self.candidates(state.last).into_iter().any(|s| state.has(s))
    }

    fn winner(&self, state: &LargeState) -> Option<Player> {
        self.is_terminal(state).then(|| self.to_move(state).opponent())
    }
}

impl Stones for LargeBoard {
    fn stones(&self) -> u32 {
        self.n
    }

    fn root(&self, position: &Position) -> LargeState {
        let mut state = LargeState {
            available: vec![0; self.n as usize / 64 + 1],
            last: position.last().unwrap_or(0),
            taken: position.taken().len() as u32,
        };
        for s in 1..=self.n {
            state.available[(s / 64) as usize] |= 1 << (s % 64);
        }
        for &s in position.taken() {
            state.remove(s);
        }
        state
    }

    fn last(&self, state: &LargeState) -> Option<u32> {
        (state.last > 0).then_some(state.last)
    }

    fn taken_count(&self, state: &LargeState) -> u32 {
        state.taken
    }

    fn is_available(&self, state: &LargeState, stone: u32) -> bool {
        (1..=self.n).contains(&stone) && state.has(stone)
    }

    fn available(&self, state: &LargeState) -> Vec<u32> {
        (1..=self.n).filter(|&s| state.has(s)).collect()
    }

    fn legal_count(&self, state: &LargeState) -> u32 {
        self.legal_moves(state).count() as u32
    }

    fn count_available_multiples(&self, state: &LargeState, p: u32) -> u32 {
        (p..=self.n).step_by(p as usize).filter(|&s| state.has(s)).count() as u32
    }

    fn count_legal_multiples(&self, state: &LargeState, p: u32) -> u32 {
        self.legal_moves(state).filter(|s| s % p == 0).count() as u32
    }

    fn largest_prime_factor(&self, x: u32) -> u32 {
        self.largest_prime[x as usize]
    }
}
