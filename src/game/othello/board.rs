//! What the rules need from a board representation, so one [`Game`](crate::game::Game) implementation serves both
//! the fast bitboard and the plain array board.

use super::grid::Grid;
use super::{Move, SizeError};
use crate::game::Player;
use std::fmt::Debug;
use std::hash::Hash;

/// Cell value of an empty square (the course's `0`).
pub const EMPTY: u8 = 0;
/// Cell value of a dark disc (the course's `1`, Max, moves first).
pub const DARK: u8 = 1;
/// Cell value of a light disc (the course's `2`, Min).
pub const LIGHT: u8 = 2;

/// The course's cell value of `player`'s discs: dark (1) for Max, light (2) for Min.
pub fn cell_of(player: Player) -> u8 {
    match player {
        Player::Max => DARK,
        Player::Min => LIGHT,
    }
}

/// An Othello board of one fixed size: which square holds which disc. Moves are (column, row).
pub trait Board: Copy + Eq + Debug + Hash {
    /// The legal moves of one side, column-major (column outer, row inner), as `get_possible_moves` lists them.
    type Moves: Iterator<Item = Move>;

    /// Whether this representation holds boards of `size` squares a side.
    fn supports(size: usize) -> bool;

    /// The board with the same discs as `grid`; an error when this representation cannot hold its size.
    ///
    /// # Errors
    /// [`SizeError`] when `!Self::supports(grid.size())`.
    fn from_grid(grid: &Grid) -> Result<Self, SizeError>;

    /// The same discs as a plain array board.
    fn to_grid(&self) -> Grid;

    /// Squares per side.
    fn size(&self) -> usize;

    /// `player`'s legal moves in column-major order.
    fn moves(&self, player: Player) -> Self::Moves;

    /// Whether `player` has a legal move.
    fn has_move(&self, player: Player) -> bool;

    /// The board after `player` plays `mv` (which must be legal): the disc is placed and every line of opponent
    /// discs it closes (the course's `find_lines`) is flipped.
    fn play(&self, player: Player, mv: Move) -> Self;

    /// How many discs `player` has on the board.
    fn count(&self, player: Player) -> u32;
}
