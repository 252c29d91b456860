//! The strong agent: the engine of [`crate::game::mancala::engine`] behind the agents' interface.

use std::time::Instant;

use super::simple;
use crate::game::mancala::engine::{Board, Config, Engine, Iteration, SCALE};
use crate::game::mancala::{Mancala, MancalaState};

/// The strong agent's memory across a game: the engine, whose table and history outlive each move.
pub struct Strong {
    engine: Engine,
}

impl Strong {
    /// A fresh agent searching with `config` ([`Config::STRONG`] for the built-in agent).
    pub fn new(config: Config) -> Strong {
        Strong { engine: Engine::new(config) }
    }

    /// Chooses a move for `state.to_move` by iterative deepening until `deadline` (depth 1 always completes),
    /// reporting each completed iteration; `None` when the game is over. A game of more than
    /// [`Board::MAX_STONES`] stones does not fit the engine's board and is played by the simple agent's search.
    pub fn think(
        &mut self,
        game: &Mancala,
        state: &MancalaState,
        deadline: Instant,
        report: &mut dyn FnMut(u8, &str),
    ) -> Option<u8> {
        if state.over {
            return None;
        }
        let Some((board, lead)) = Board::from_state(state) else {
            return simple::think(game, state, deadline, report);
        };
        let mut on_iteration = |it: &Iteration| {
            let score = f64::from(lead * SCALE + it.value) / f64::from(SCALE);
            let exact = if it.exact { " exact" } else { "" };
            report(it.best, &format!("depth {} score {score:+}{exact} nodes {}", it.depth, it.nodes));
        };
        self.engine.think(board, deadline, None, &mut on_iteration).map(|it| it.best)
    }
}
