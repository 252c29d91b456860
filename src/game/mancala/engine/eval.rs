//! The engine's static evaluation: what the rest of the game is likely worth to the mover, from the bins alone.
//!
//! Search values are gains ([`super::board`]) in units of `1 / SCALE` stone, so a heuristic can weigh a stone
//! in a bin at a fraction of a stone in a mancala. With every weight at zero the evaluation is 0, the future gain
//! of the course's simple agent (its static value is the mancala difference, which the gains already add up).

use super::board::Board;

/// Search values are in units of `1 / SCALE` stone.
pub const SCALE: i32 = 4;

/// The heuristic's weights, in `1 / SCALE` stone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per stone in the mover's bins, minus the same for the opponent's bins: stones a side keeps on its own
    /// row are swept into its mancala at the end (unless captured first).
    pub side: i32,
    /// Per bin of the mover's that would give it another turn right now, minus the opponent's.
    pub extra_turns: i32,
}

impl Weights {
    /// The mancala difference alone: exactly the course's simple evaluation.
    pub const STORES_ONLY: Weights = Weights { side: 0, extra_turns: 0 };

    /// The weights the strong agent plays with. Matches against the simple agent (32 games per setting from
    /// random openings) could not tell `side` 0, 1 and 2 or `extra_turns` 0 and 2 apart; a quarter stone per
    /// stone on one's own row is kept because it breaks ties toward keeping stones home.
    pub const TUNED: Weights = Weights { side: 1, extra_turns: 0 };

    /// The value of a leaf `board` for its mover, in `1 / SCALE` stone.
    #[inline]
    pub fn evaluate(&self, board: Board) -> i32 {
        let mut value = 0;
        if self.side != 0 {
            value += self.side * (board.own_stones() - board.other_stones());
        }
        if self.extra_turns != 0 {
            value += self.extra_turns * (extra_turns(board) - extra_turns(board.flipped()));
        }
        value
    }
}

/// How many of the mover's bins would end in its mancala.
#[inline]
fn extra_turns(board: Board) -> i32 {
    (0..6).filter(|&bin| board.pit(bin) > 0 && board.is_extra_turn(bin)).count() as i32
}
