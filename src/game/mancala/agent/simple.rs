//! The course's simple agent: alpha-beta with the mancala difference as its evaluation, deepened until the deadline.

use std::time::Instant;

use crate::game::mancala::{Mancala, MancalaState};
use crate::game::{Game, Player};
use crate::search::{iterative_deepening, Evaluator};

/// The simple agent's static board evaluation from Max's point of view: Max's mancala minus Min's, at the depth
/// limit and at the end of the game alike (the end is scored after the sweep).
///
/// The course states it from the agent's side (own mancala minus the opponent's, the agent maximizing); searched
/// as Max's value with the agent minimizing when it is Min, it chooses the same moves and values, ties included.
#[derive(Clone, Copy, Debug, Default)]
pub struct StoreDifference;

impl Evaluator<Mancala> for StoreDifference {
    type Value = i32;

    fn evaluate(&self, _game: &Mancala, state: &MancalaState, _terminal: bool) -> i32 {
        i32::from(Mancala::store(state, Player::Max)) - i32::from(Mancala::store(state, Player::Min))
    }
}

/// Chooses a move for `state.to_move` by iterative deepening until `deadline` (depth 1 always completes), calling
/// `report` after each completed iteration; `None` when the game is over.
pub fn think(game: &Mancala, state: &MancalaState, deadline: Instant, report: &mut dyn FnMut(u8, &str)) -> Option<u8> {
    if game.is_terminal(state) {
        return None;
    }
    let sign = if state.to_move == Player::Max { 1 } else { -1 };
    let mut on_iteration = |depth: u32, best: Option<u8>, value: i32| {
        if let Some(bin) = best {
            report(bin, &format!("depth {depth} score {:+}", sign * value));
        }
    };
    let done = iterative_deepening(game, state, &StoreDifference, deadline, None, &mut on_iteration);
    done.result.best.or_else(|| game.legal_moves(state).next())
}
