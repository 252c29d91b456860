//! The built-in Mancala agents behind one in-process interface, for the referee's agent subprocess.
//!
//! [`Builtin`] names an agent; a [`Brain`] is one agent's memory across a game (the strong agent's transposition
//! table, the random agent's generator) and answers one position at a time with [`Brain::think`].
//!
//! - `random`: a uniformly random legal move ([`random`]).
//! - `simple`: the course's simple agent, alpha-beta on the mancala difference with iterative deepening
//!   ([`simple`]).
//! - `strong`: the engine of [`super::engine`] ([`strong`]).

pub mod random;
pub mod simple;
pub mod strong;

use std::time::Instant;

use super::engine::Config;
use super::{Mancala, MancalaState};
use crate::rng::Rng;
use strong::Strong;

/// The built-in Mancala agents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    /// A uniformly random legal move.
    Random,
    /// The course's simple agent: alpha-beta, evaluation = own mancala - opponent's, iterative deepening.
    Simple,
    /// The project's strongest agent.
    Strong,
}

impl Builtin {
    /// Every built-in agent, weakest first.
    pub const ALL: [Builtin; 3] = [Builtin::Random, Builtin::Simple, Builtin::Strong];

    /// The agent called `name` (`random`, `simple` or `strong`).
    pub fn parse(name: &str) -> Option<Builtin> {
        Builtin::ALL.into_iter().find(|b| b.name() == name)
    }

    /// The agent's name, as [`Builtin::parse`] reads it.
    pub fn name(self) -> &'static str {
        match self {
            Builtin::Random => "random",
            Builtin::Simple => "simple",
            Builtin::Strong => "strong",
        }
    }
}

/// One agent's memory across a game (a TT, a RNG).
pub struct Brain {
    game: Mancala,
    mind: Mind,
}

/// What each kind of agent keeps between moves.
enum Mind {
    Random(Rng),
    Simple,
    Strong(Box<Strong>),
}

impl Brain {
    /// A `kind` agent for a game of `stones` stones per bin; `seed` seeds the random agent.
    pub fn new(kind: Builtin, stones: u16, seed: u64) -> Brain {
        let mind = match kind {
            Builtin::Random => Mind::Random(Rng::new(seed)),
            Builtin::Simple => Mind::Simple,
            Builtin::Strong => Mind::Strong(Box::new(Strong::new(Config::STRONG))),
        };
        Brain { game: Mancala::new(stones), mind }
    }

    /// Think about `state` (the agent is `state.to_move`) until `deadline`, calling `report(bin, info)` each time the
    /// best move improves (bin relative to the mover, 0-5; info a short text such as "depth 12 score +3 nodes 123456"),
    /// and return the final choice. Always returns a legal move when one exists, even if the deadline has passed.
    ///
    /// The searching agents report after each completed iteration of their iterative deepening; scores are the
    /// expected final mancala difference from the agent's side.
    pub fn think(&mut self, state: &MancalaState, deadline: Instant, report: &mut dyn FnMut(u8, &str)) -> Option<u8> {
        match &mut self.mind {
            Mind::Random(rng) => {
                let bin = random::choose(&self.game, state, rng)?;
                report(bin, "random");
                Some(bin)
            }
            Mind::Simple => simple::think(&self.game, state, deadline, report),
            Mind::Strong(strong) => strong.think(&self.game, state, deadline, report),
        }
    }
}
