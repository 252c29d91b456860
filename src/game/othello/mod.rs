//! Othello (Reversi) as the course's Python framework plays it, and under standard rules.
//!
//! Boards are any even size from 4 to 16, indexed `board[row][col]` with 0 empty, 1 dark, 2 light. A move is
//! (column, row) = (i, j) as the course writes it. Dark (Max) moves first from the course's start position (see
//! [`Grid::start`]). Legal moves come in the course's `get_possible_moves` order: column in the outer loop, row
//! inner. A move places a disc and flips every straight line of opponent discs it closes in the 8 directions
//! ([`DIRECTIONS`], the course's `find_lines` order).
//!
//! Two rule sets ([`Rules`]) differ only when the side to move has no legal move:
//! - [`Rules::Framework`]: the game ends there (the course's game manager), even if the opponent could move;
//! - [`Rules::Standard`]: that side passes; the game ends when neither side can move.
//!
//! **Passes are not moves.** Under standard rules a pass is folded into [`Game::apply`]: after a move the turn goes
//! to the opponent, unless the opponent has no legal move and the mover still has one, in which case the state's
//! side to move stays the mover's (the opponent passed). So [`Game::legal_moves`] is never empty in a non-terminal
//! state and a state is terminal exactly when its side to move has no legal move, under both rule sets. A search
//! depth therefore counts placed discs, not passes.
//!
//! Two board representations implement [`Board`]: [`Bits`] (two `u64` bitboards, sizes 4, 6, 8, the fast path)
//! and [`Grid`] (a plain array, any size). [`Othello`] is generic over them, defaulting to [`Bits`].
//! [`literal`] reads and writes the course's Python board literals; [`agent`] holds the built-in agents.

pub mod agent;
mod bits;
mod board;
mod cell;
mod grid;
pub mod literal;
mod perft;

pub use bits::{BitMoves, Bits};
pub use board::{cell_of, Board, DARK, EMPTY, LIGHT};
pub use grid::{Grid, GridMoves};
pub use perft::perft;

use crate::game::{Game, Player};
use std::fmt;

/// The 8 directions (dx, dy) = (column step, row step) in the order the course's `find_lines` scans them.
pub const DIRECTIONS: [(i8, i8); 8] = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)];

/// A board size the rules or a representation do not support.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("board size {size} is not supported: it must be {limit}")]
pub struct SizeError {
    /// The size asked for.
    pub size: usize,
    /// What is allowed.
    pub limit: &'static str,
}

impl SizeError {
    /// Ok for an even size 4 to 16 (the sizes any representation may hold).
    ///
    /// # Errors
    /// [`SizeError`] for any other size.
    pub fn check(size: usize) -> Result<(), SizeError> {
        if (4..=16).contains(&size) && size % 2 == 0 {
            Ok(())
        } else {
            Err(SizeError { size, limit: "even, from 4 to 16" })
        }
    }
}

/// Which rules decide what happens when the side to move has no legal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rules {
    /// The course's game manager: the game ends as soon as the side to move has no legal move.
    Framework,
    /// Standard Othello: a side with no move passes; the game ends when neither side can move.
    Standard,
}

/// A move: place a disc on column `col`, row `row` (the course's (i, j)). Displayed `i j`, as agents answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// The column, the course's i.
    pub col: u8,
    /// The row, the course's j.
    pub row: u8,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.col, self.row)
    }
}

/// A position: the board and the side to move (see the module docs for how passes leave the side to move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OthelloState<B> {
    board: B,
    to_move: Player,
}

impl<B: Board> OthelloState<B> {
    /// The board.
    pub fn board(&self) -> &B {
        &self.board
    }

    /// The discs as a plain array board (for drawing and [`literal::format_board`]).
    pub fn grid(&self) -> Grid {
        self.board.to_grid()
    }

    /// The side to move (Max is dark).
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// Disc counts (dark, light), the course's `get_score`.
    pub fn score(&self) -> (u32, u32) {
        (self.board.count(Player::Max), self.board.count(Player::Min))
    }
}

impl<B: Board> fmt::Display for OthelloState<B> {
    /// The board drawing ([`Grid`]'s `Display`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.grid().fmt(f)
    }
}

/// Othello of one board size under one rule set, on board representation `B`.
///
/// ```
/// use referee::game::othello::{literal, Move, Othello, Rules};
/// use referee::game::{Game, Player};
///
/// let game: Othello = Othello::new(4, Rules::Framework)?;
/// let start = game.start();
/// assert_eq!(game.legal_moves(&start).map(|m| m.to_string()).collect::<Vec<_>>(), ["0 1", "1 0", "2 3", "3 2"]);
/// let next = game.apply(&start, Move { col: 0, row: 1 });
/// assert_eq!((next.score(), next.to_move()), ((4, 1), Player::Min));
/// let sent = literal::format_board(&next.grid());
/// assert_eq!(sent, "((0, 0, 0, 0), (1, 1, 1, 0), (0, 1, 2, 0), (0, 0, 0, 0))");
/// assert_eq!(game.state(&literal::parse_board(&sent)?, Player::Min)?, next);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Othello<B = Bits> {
    size: usize,
    rules: Rules,
    start: B,
}

impl<B: Board> Othello<B> {
    /// The game on a `size` x `size` board under `rules`.
    ///
    /// # Errors
    /// [`SizeError`] when the size is not even in 4..=16 or `B` cannot hold it.
    pub fn new(size: usize, rules: Rules) -> Result<Othello<B>, SizeError> {
        let start = B::from_grid(&Grid::start(size)?)?;
        Ok(Othello { size, rules, start })
    }

    /// Squares per side.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The rule set.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The course's start position, dark to move.
    pub fn start(&self) -> OthelloState<B> {
        OthelloState { board: self.start, to_move: Player::Max }
    }

    /// The position with `grid`'s discs and `to_move` to move. Under standard rules, if `to_move` has no move
    /// but the opponent has, the opponent is to move (the pass is taken at once).
    ///
    /// # Errors
    /// [`SizeError`] when `grid` is not of this game's size.
    pub fn state(&self, grid: &Grid, to_move: Player) -> Result<OthelloState<B>, SizeError> {
        if grid.size() != self.size {
            return Err(SizeError { size: grid.size(), limit: "the game's board size" });
        }
        let board = B::from_grid(grid)?;
        Ok(OthelloState { board, to_move: self.next_to_move(&board, to_move) })
    }

    /// Who moves on `board` when `player` is due: `player`, or under standard rules the opponent when only it can.
    fn next_to_move(&self, board: &B, player: Player) -> Player {
        match self.rules {
            Rules::Standard if !board.has_move(player) && board.has_move(player.opponent()) => player.opponent(),
            _ => player,
        }
    }
}

impl<B: Board> Game for Othello<B> {
    type State = OthelloState<B>;
    type Move = Move;
    type Moves = B::Moves;

    fn to_move(&self, state: &OthelloState<B>) -> Player {
        state.to_move
    }

    fn legal_moves(&self, state: &OthelloState<B>) -> B::Moves {
        state.board.moves(state.to_move)
    }

    fn apply(&self, state: &OthelloState<B>, mv: Move) -> OthelloState<B> {
        let board = state.board.play(state.to_move, mv);
        OthelloState { board, to_move: self.next_to_move(&board, state.to_move.opponent()) }
    }

    fn is_terminal(&self, state: &OthelloState<B>) -> bool {
        !state.board.has_move(state.to_move)
    }

    fn winner(&self, state: &OthelloState<B>) -> Option<Player> {
        if !self.is_terminal(state) {
            return None;
        }
        let (dark, light) = state.score();
        match dark.cmp(&light) {
            std::cmp::Ordering::Greater => Some(Player::Max),
            std::cmp::Ordering::Less => Some(Player::Min),
            std::cmp::Ordering::Equal => None,
        }
    }
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;

    fn moves<B: Board>(game: &Othello<B>, state: &OthelloState<B>) -> Vec<(u8, u8)> {
        game.legal_moves(state).map(|m| (m.col, m.row)).collect()
    }

    #[test]
    fn the_8x8_start_has_four_moves_in_column_major_order_on_both_boards() {
        let fast = Othello::<Bits>::new(8, Rules::Framework).unwrap();
        let plain = Othello::<Grid>::new(8, Rules::Framework).unwrap();
        let expected = vec![(2, 3), (3, 2), (4, 5), (5, 4)];
        assert_eq!(moves(&fast, &fast.start()), expected);
        assert_eq!(moves(&plain, &plain.start()), expected);
        assert_eq!(fast.start().score(), (2, 2));
        assert_eq!(fast.to_move(&fast.start()), Player::Max);
    }

    #[test]
    fn the_4x4_start_and_its_first_move() {
        let game = Othello::<Bits>::new(4, Rules::Standard).unwrap();
        let start = game.start();
        assert_eq!(moves(&game, &start), vec![(0, 1), (1, 0), (2, 3), (3, 2)]);
        let after = game.apply(&start, Move { col: 0, row: 1 });
        assert_eq!(after.score(), (4, 1));
        assert_eq!(after.to_move(), Player::Min);
        assert_eq!(
            literal::format_board(&after.board().to_grid()),
            "((0, 0, 0, 0), (1, 1, 1, 0), (0, 1, 2, 0), (0, 0, 0, 0))"
        );
    }

    #[test]
    fn sizes_are_checked_not_panicked_on() {
        for size in [0, 2, 3, 5, 7, 18, 100] {
            assert!(Othello::<Grid>::new(size, Rules::Standard).is_err(), "{size}");
        }
        for size in [10, 12, 14, 16] {
            assert!(Othello::<Bits>::new(size, Rules::Standard).is_err(), "{size}");
            let game = Othello::<Grid>::new(size, Rules::Standard).unwrap();
            assert_eq!(game.legal_moves(&game.start()).count(), 4);
        }
    }

    #[test]
    fn framework_ends_where_standard_passes() {
        // Light in the corner, dark beside it: dark cannot move, light can (column 2, row 0).
        let grid = literal::parse_board("((2, 1, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0))").unwrap();
        let framework = Othello::<Bits>::new(4, Rules::Framework).unwrap();
        let standard = Othello::<Bits>::new(4, Rules::Standard).unwrap();
        let ended = framework.state(&grid, Player::Max).unwrap();
        assert!(framework.is_terminal(&ended));
        assert_eq!(framework.winner(&ended), None);
        let passed = standard.state(&grid, Player::Max).unwrap();
        assert!(!standard.is_terminal(&passed));
        assert_eq!(passed.to_move(), Player::Min);
        assert_eq!(moves(&standard, &passed), vec![(2, 0)]);
        let last = standard.apply(&passed, Move { col: 2, row: 0 });
        assert!(standard.is_terminal(&last));
        assert_eq!(last.score(), (0, 3));
        assert_eq!(standard.winner(&last), Some(Player::Min));
    }

    #[test]
    fn the_board_is_drawn_rows_top_to_bottom() {
        let game = Othello::<Bits>::new(4, Rules::Framework).unwrap();
        assert_eq!(game.start().to_string(), "  0 1 2 3\n0 . . . .\n1 . O X .\n2 . X O .\n3 . . . .\n");
        let big = Othello::<Grid>::new(12, Rules::Framework).unwrap();
        let text = big.start().to_string();
        assert!(text.starts_with("    0  1  2"), "{text}");
        assert!(text.contains("\n 5  .  .  .  .  .  O  X  .  .  .  .  .\n"), "{text}");
    }
}
