//! The strong agent's engine: a fast Mancala search of its own, apart from the generic [`crate::search`].
//!
//! - [`board`]: the bins packed into a `u128` in the mover's frame; a move returns its gain.
//! - [`table`]: the transposition table, keyed by the exact packed board.
//! - [`eval`]: the leaf heuristic and its weights.
//! - [`search`]: principal-variation negamax over gains, move ordering, endgame solving, iterative deepening.
//! - [`bench`]: nodes per second and depth reached, for the `bench` command.
//!
//! Values are always from the side to move's point of view and count only what is still to come, so a caller
//! adds the current mancala difference ([`Board::from_state`] returns it) to get the final score difference.

pub mod bench;
pub mod board;
pub mod eval;
pub mod search;
pub mod table;

pub use board::{Board, Next};
pub use eval::{Weights, SCALE};
pub use search::{Config, Engine, Iteration};
