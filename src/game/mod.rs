//! Game rules behind one small trait.
//!
//! [`Game`] is the only thing the search (`crate::search`) knows about a game: whose turn it is, the legal moves in
//! a fixed canonical order, how a move changes the state, and whether the game is over. Evaluation is not part of
//! the trait; it is injected into the search as an [`crate::search::Evaluator`], because the same rules are scored
//! differently by different assignments (the two Take-Stones editions share rules, not values).
//!
//! One module per game: [`takestones`], [`mancala`], [`othello`], and [`tree`] for the explicit trees of written
//! problems.

pub mod mancala;
pub mod othello;
pub mod takestones;
pub mod tree;

use std::fmt;

/// The two sides of a two-player zero-sum game, named as the course names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// The maximizing side (player 1, moves first).
    Max,
    /// The minimizing side (player 2).
    Min,
}

impl Player {
    /// The other side.
    pub fn opponent(self) -> Player {
        match self {
            Player::Max => Player::Min,
            Player::Min => Player::Max,
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Player::Max => "Max",
            Player::Min => "Min",
        })
    }
}

/// The rules of a deterministic, perfect-information, two-player game.
///
/// A value of the implementing type holds the fixed parameters of one game (board size, stones); positions are
/// [`Game::State`] values. Every method is pure.
///
/// ```
/// use referee::game::{Game, Player};
/// use referee::game::takestones::{Position, SmallBoard, Stones};
///
/// let position = Position::new(7, vec![1, 4, 2])?;
/// let board = SmallBoard::new(7).ok_or("7 stones fit the fast board")?;
/// let root = board.root(&position);
/// assert_eq!(board.to_move(&root), Player::Min);
/// assert_eq!(board.legal_moves(&root).collect::<Vec<_>>(), vec![6]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Game {
    /// A position. Cheap to clone for the fast games (`Copy` bitboards).
    type State: Clone;
    /// A move; its `Display` form is the one the course prints.
    type Move: Copy + Eq + fmt::Debug + fmt::Display;
    /// The legal moves of a state, in the game's canonical order.
    type Moves: Iterator<Item = Self::Move>;

    /// The side to move in `state`.
    fn to_move(&self, state: &Self::State) -> Player;

    /// The legal moves of `state`, in the canonical order the course's programs use (ties break to the first).
    fn legal_moves(&self, state: &Self::State) -> Self::Moves;

    /// The state after `mv` is played in `state`. `mv` must be one of `legal_moves(state)`.
    fn apply(&self, state: &Self::State, mv: Self::Move) -> Self::State;

    /// Whether the game is over in `state`.
    fn is_terminal(&self, state: &Self::State) -> bool;

    /// The winner of a terminal state, or `None` for a draw.
    fn winner(&self, state: &Self::State) -> Option<Player>;
}
