//! The strong agent on boards the bitboard cannot hold (10x10 and up): the generic iterative deepening on the
//! array board with a disc-difference evaluation.

use std::time::Instant;

use crate::game::othello::{Grid, Move, Othello, OthelloState};
use crate::game::{Game, Player};
use crate::search::{iterative_deepening, Evaluator};

/// Dark's discs minus light's, from Max's (dark's) point of view; terminal or not.
pub struct DiscDifference;

impl Evaluator<Othello<Grid>> for DiscDifference {
    type Value = i32;

    fn evaluate(&self, _: &Othello<Grid>, state: &OthelloState<Grid>, _: bool) -> i32 {
        let (dark, light) = state.score();
        dark as i32 - light as i32
    }
}

/// Iterative deepening until `deadline` (depth 1 always completes), reporting each completed iteration.
pub fn think(
    game: &Othello<Grid>,
    state: &OthelloState<Grid>,
    deadline: Instant,
    report: &mut dyn FnMut(Move, &str),
) -> Option<Move> {
    if game.is_terminal(state) {
        return None;
    }
    let sign = if state.to_move() == Player::Max { 1 } else { -1 };
    let done = iterative_deepening(game, state, &DiscDifference, deadline, None, |depth, best, value| {
        if let Some(mv) = best {
            report(mv, &format!("depth {depth} score {:+}", sign * value));
        }
    });
    done.result.best
}
