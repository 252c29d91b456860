//! The strong agent: the bitboard [`Engine`] on sizes 4, 6 and 8, behind the agents' interface.

use std::time::Instant;

use super::engine::{Engine, Iteration};
use super::eval::DISC;
use crate::game::othello::{Bits, Move, OthelloState, Rules};

/// The strong agent's memory across a game: the engine and its transposition table.
pub struct Strong {
    engine: Engine,
}

impl Strong {
    /// A fresh agent for games under `rules`.
    pub fn new(rules: Rules) -> Strong {
        Strong { engine: Engine::new(rules) }
    }

    /// Chooses a move for the side to move by iterative deepening until `deadline` (depth 1 always completes),
    /// reporting each completed iteration; `None` when the side to move has no move.
    pub fn think(
        &mut self,
        state: &OthelloState<Bits>,
        deadline: Instant,
        report: &mut dyn FnMut(Move, &str),
    ) -> Option<Move> {
        let mut on_iteration = |it: &Iteration| {
            let score = f64::from(it.value) / f64::from(DISC);
            let exact = if it.exact { " exact" } else { "" };
            report(it.best, &format!("depth {} score {score:+}{exact} nodes {}", it.depth, it.nodes));
        };
        self.engine.think(state.board(), state.to_move(), deadline, &mut on_iteration).map(|it| it.best)
    }
}
