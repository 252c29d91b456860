//! Take-Stones (UW CS540): the rules, on two boards that must agree move for move.
//!
//! Stones `1..=n`. The first move takes an odd stone `i` with `2i < n` (strictly less than `n/2`); every later move
//! takes an available stone that is a multiple or a factor of the previous move. A player who cannot move loses.
//! Max moves when an even number of stones has been taken. Legal moves are always listed in increasing order.
//!
//! - [`Position`]: a validated `n` and sequence of taken stones (what the student program gets on its command line).
//! - [`SmallBoard`]: the fast path, a `u128` bitmask state, for `n <= 127`.
//! - [`LargeBoard`]: the general path, any `n` up to [`MAX_STONES`], computing divisors and multiples on the fly.
//! - [`Stones`]: what both boards expose beyond [`Game`](crate::game::Game), for heuristics and traces.

mod large;
mod position;
mod primes;
mod small;

pub use large::{LargeBoard, LargeState};
pub use position::{Position, PositionError, MAX_STONES};
pub use small::{SmallBoard, SmallState};

use crate::game::Game;

/// A Take-Stones board: the rules plus the queries the course's heuristic and trace make of a state.
pub trait Stones: Game<Move = u32> {
    /// The number of stones, `n`.
    fn stones(&self) -> u32;

    /// The state `position` describes. `position.n()` must equal [`Stones::stones`].
    fn root(&self, position: &Position) -> Self::State;

    /// The stone taken by the previous move, `None` before the first move.
    fn last(&self, state: &Self::State) -> Option<u32>;

    /// How many stones have been taken.
    fn taken_count(&self, state: &Self::State) -> u32;

    /// Whether `stone` is still on the table.
    fn is_available(&self, state: &Self::State, stone: u32) -> bool;

    /// The stones still on the table, in increasing order.
    fn available(&self, state: &Self::State) -> Vec<u32>;

    /// The number of legal moves.
    fn legal_count(&self, state: &Self::State) -> u32;

    /// How many available stones are multiples of `p` (`p` itself included).
    fn count_available_multiples(&self, state: &Self::State, p: u32) -> u32;

    /// How many legal moves are multiples of `p`.
    fn count_legal_multiples(&self, state: &Self::State, p: u32) -> u32;

    /// The largest prime factor of `x` (`x >= 2`); `x` itself when `x` is prime.
    fn largest_prime_factor(&self, x: u32) -> u32;
}

/// Whether `stone` may be taken right after `last` (`None`: the first move of a game of `n` stones), availability
/// aside. The rule both boards and [`Position`] validation implement.
pub fn follows(n: u32, last: Option<u32>, stone: u32) -> bool {
    match last {
        None => stone % 2 == 1 && 2 * u64::from(stone) < u64::from(n),
        Some(last) => stone % last == 0 || last % stone == 0,
    }
}
