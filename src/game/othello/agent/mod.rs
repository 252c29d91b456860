//! The built-in Othello agents behind one in-process interface, for the referee's agent subprocess.
//!
//! [`Builtin`] names an agent; a [`Brain`] is one agent's memory across a game (the strong agent's transposition
//! table, the random agent's generator) and answers one position at a time with [`Brain::think`].
//!
//! - `random`: a uniformly random legal move ([`random`]).
//! - `greedy`: the move flipping the most discs, the first in column-major order on ties ([`greedy`]).
//! - `strong`: PVS alpha-beta on the bitboard with a transposition table and exact endgame solving ([`strong`]).

pub mod bench;
pub mod engine;
pub mod eval;
pub mod fallback;
pub mod greedy;
pub mod random;
pub mod strong;
mod table;

use std::time::Instant;

use super::{Bits, Board, Grid, Move, Othello, OthelloState, Rules};
use crate::rng::Rng;
use strong::Strong;

/// The built-in Othello agents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    /// A uniformly random legal move.
    Random,
    /// The move flipping the most discs (first in column-major order on ties).
    Greedy,
    /// The project's strongest agent.
    Strong,
}

impl Builtin {
    /// Every built-in agent, weakest first.
    pub const ALL: [Builtin; 3] = [Builtin::Random, Builtin::Greedy, Builtin::Strong];

    /// The agent called `name` (`random`, `greedy` or `strong`).
    pub fn parse(name: &str) -> Option<Builtin> {
        Builtin::ALL.into_iter().find(|b| b.name() == name)
    }

    /// The agent's name, as [`Builtin::parse`] reads it.
    pub fn name(self) -> &'static str {
        match self {
            Builtin::Random => "random",
            Builtin::Greedy => "greedy",
            Builtin::Strong => "strong",
        }
    }
}

/// One agent's memory across a game (a TT, a RNG).
pub struct Brain {
    rules: Rules,
    mind: Mind,
}

/// What each kind of agent keeps between moves.
enum Mind {
    Random(Rng),
    Greedy,
    Strong(Box<Strong>),
}

impl Brain {
    /// A `kind` agent for games under `rules` (any size: each position carries its own); `seed` seeds `random`.
    pub fn new(kind: Builtin, rules: Rules, seed: u64) -> Brain {
        let mind = match kind {
            Builtin::Random => Mind::Random(Rng::new(seed)),
            Builtin::Greedy => Mind::Greedy,
            Builtin::Strong => Mind::Strong(Box::new(Strong::new(rules))),
        };
        Brain { rules, mind }
    }

    /// Think about `state` (the agent is the side to move) until `deadline`, calling `report(mv, info)` whenever
    /// the best move improves; returns the final choice, a legal move quickly even with a past deadline (`None`
    /// when the side to move has no move).
    pub fn think<B: Board>(
        &mut self,
        state: &OthelloState<B>,
        deadline: Instant,
        report: &mut dyn FnMut(Move, &str),
    ) -> Option<Move> {
        let grid = state.grid();
        let to_move = state.to_move();
        if !state.board().has_move(to_move) {
            // Never let the rebuilt state pass the turn to the opponent: the agent has no move here.
            return None;
        }
        if Bits::supports(grid.size()) {
            let game = Othello::<Bits>::new(grid.size(), self.rules).ok()?;
            let state = game.state(&grid, to_move).ok()?;
            match &mut self.mind {
                Mind::Random(rng) => answer(random::choose(&game, &state, rng), "random", report),
                Mind::Greedy => answer(greedy::choose(&game, &state), "greedy", report),
                Mind::Strong(strong) => strong.think(&state, deadline, report),
            }
        } else {
            let game = Othello::<Grid>::new(grid.size(), self.rules).ok()?;
            let state = game.state(&grid, to_move).ok()?;
            match &mut self.mind {
                Mind::Random(rng) => answer(random::choose(&game, &state, rng), "random", report),
                Mind::Greedy => answer(greedy::choose(&game, &state), "greedy", report),
                Mind::Strong(_) => fallback::think(&game, &state, deadline, report),
            }
        }
    }
}

/// Reports `mv` (when there is one) with `info` and returns it.
fn answer(mv: Option<Move>, info: &str, report: &mut dyn FnMut(Move, &str)) -> Option<Move> {
    if let Some(mv) = mv {
        report(mv, info);
    }
    mv
}
