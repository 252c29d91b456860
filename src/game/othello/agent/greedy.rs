//! The greedy agent: the move that flips the most discs, the first in column-major order on ties.

use crate::game::othello::{Board, Move, Othello, OthelloState};
use crate::game::Game;

/// The legal move of `state` flipping the most discs (first in canonical order on ties); `None` when there is none.
pub fn choose<B: Board>(game: &Othello<B>, state: &OthelloState<B>) -> Option<Move> {
    let me = state.to_move();
    let before = state.board().count(me);
    let mut best: Option<(u32, Move)> = None;
    for mv in game.legal_moves(state) {
        let flips = state.board().play(me, mv).count(me) - before - 1;
        if best.map_or(true, |(most, _)| flips > most) {
            best = Some((flips, mv));
        }
    }
    best.map(|(_, mv)| mv)
}
