//! Game-tree search written once for every [`Game`](crate::game::Game).
//!
//! - [`minimax`]: plain minimax, the definition every other search is tested against.
//! - [`alpha_beta`]: AIMA Figure 5.7, fail-soft, non-strict cut tests, explicit MAX/MIN nodes (homework traces are
//!   written in that form, so there is no negamax here).
//! - [`iterative_deepening`]: alpha-beta at depth 1, 2, 3, ... until a wall-clock deadline; the last completed
//!   iteration wins.
//!
//! Both take an [`Evaluator`] (what a leaf is worth, always from Max's point of view), a [`Limits`] (depth limit)
//! and an [`Observer`] that sees every node as it is entered and right before it returns; counters
//! ([`Counters`]) and course traces are observers. Ties at the root go to the first move in the game's canonical
//! order: a later move replaces the best only when strictly better.

mod alpha_beta;
mod iterative;
mod minimax;
mod observer;
mod value;

pub use alpha_beta::alpha_beta;
pub use iterative::{iterative_deepening, Deepened};
pub use minimax::minimax;
pub use observer::{Counters, NodeExit, NodeKind, Observer};
pub use value::Value;

use crate::game::Game;

/// How a leaf is scored. Values are from Max's point of view, whoever is to move.
pub trait Evaluator<G: Game> {
    /// The value type (`f64` for the Fall 2019 Take-Stones, `i32` for Spring 2017).
    type Value: Value;

    /// The value of a leaf: `terminal` says the game is over in `state` (no legal move), otherwise the depth limit
    /// was reached and a heuristic applies.
    fn evaluate(&self, game: &G, state: &G::State, terminal: bool) -> Self::Value;
}

/// Where the search stops descending.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Limits {
    /// Nodes at this depth are leaves (the root is depth 0); `None` searches to the end of the game.
    pub depth: Option<u32>,
}

impl Limits {
    /// Search to the end of the game.
    pub fn unlimited() -> Limits {
        Limits { depth: None }
    }

    /// Nodes at `depth` are leaves.
    pub fn depth(depth: u32) -> Limits {
        Limits { depth: Some(depth) }
    }

    pub(crate) fn is_cutoff(&self, depth: u32) -> bool {
        self.depth == Some(depth)
    }
}

/// The answer of a search at the root.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchResult<M, V> {
    /// The root's value (Max's point of view).
    pub value: V,
    /// The move chosen at the root: the first move (canonical order) with the best value; `None` when the root is
    /// a leaf.
    pub best: Option<M>,
}

/// The search stopped early because the observer asked it to ([`Observer::should_stop`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("search interrupted by its observer")]
pub struct Interrupted;
