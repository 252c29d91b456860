//! What the rules need from a board representation, so one [`Game`](crate::game::Game) implementation serves both
//! the fast bitboard and the plain array board.

pub use super::cell::{cell_of, DARK, EMPTY, LIGHT};
use super::grid::{Grid, GridMoves};
use super::{Move, SizeError};
use crate::game::Player;
use std::fmt::Debug;
use std::hash::Hash;

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

/// The plain array board is a [`Board`] of any supported size; its rules live in [`Grid`]'s own methods.
impl Board for Grid {
    type Moves = GridMoves;

    fn supports(size: usize) -> bool {
        SizeError::check(size).is_ok()
    }

    fn from_grid(grid: &Grid) -> Result<Grid, SizeError> {
        Ok(*grid)
    }

    fn to_grid(&self) -> Grid {
        *self
    }

    fn size(&self) -> usize {
        Grid::size(self)
    }

    fn moves(&self, player: Player) -> GridMoves {
        self.legal_moves(player)
    }

    fn has_move(&self, player: Player) -> bool {
        Grid::has_move(self, player)
    }

    fn play(&self, player: Player, mv: Move) -> Grid {
        Grid::play(self, player, mv)
    }

    fn count(&self, player: Player) -> u32 {
        Grid::count(self, player)
    }
}
