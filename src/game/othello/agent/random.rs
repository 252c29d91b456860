//! The random agent: a uniformly random legal move.

use crate::game::othello::{Board, Move, Othello, OthelloState};
use crate::game::Game;
use crate::rng::Rng;

/// A uniformly random legal move of `state`, drawn from `rng`; `None` when there is none.
pub fn choose<B: Board>(game: &Othello<B>, state: &OthelloState<B>, rng: &mut Rng) -> Option<Move> {
    let moves: Vec<Move> = game.legal_moves(state).collect();
    if moves.is_empty() {
        return None;
    }
    Some(moves[rng.below(moves.len())])
}
