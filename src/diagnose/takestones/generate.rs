//! Seeded random legal positions, the same for a seed on every machine.

use crate::game::takestones::{Position, SmallBoard, Stones};
use crate::game::Game;
use crate::reference::takestones::{CompositeCount, StatsEval};
use crate::search::{alpha_beta, Counters, Limits, NodeExit, Observer};

pub use crate::rng::Rng;

/// What positions to draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Fewest stones.
    pub min_stones: u32,
    /// Most stones.
    pub max_stones: u32,
    /// Deepest depth limit drawn (0, unlimited, is drawn too).
    pub max_depth: u32,
    /// Reject positions whose reference search visits more nodes than this (keeps every case fast for a
    /// submission: a typical Java solution searches about a million nodes a second).
    pub node_budget: u64,
}

impl Default for Shape {
    fn default() -> Shape {
        Shape { min_stones: 3, max_stones: 30, max_depth: 6, node_budget: 200_000 }
    }
}

impl Shape {
    /// The default shape up to `max_stones`, with a node budget fit for `edition`: a trace prints three lines a
    /// node, so trace cases stay ten times smaller (readable, and far under the harness's output cap).
    pub fn for_edition(edition: crate::reference::takestones::Edition, max_stones: u32) -> Shape {
        let trace = edition == crate::reference::takestones::Edition::Trace;
        Shape { max_stones, node_budget: if trace { 20_000 } else { 200_000 }, ..Shape::default() }
    }
}

/// Stops a search once it has visited more than a budget.
struct Budget(u64, u64);

impl<G: Game, V> Observer<G, V> for Budget {
    fn enter(&mut self, _depth: u32) {
        self.0 += 1;
    }
    fn exit(&mut self, _node: &NodeExit<'_, G, V>) {}
    fn should_stop(&mut self) -> bool {
        self.0 > self.1
    }
}

/// The reference's node count for a search, or `None` past `budget`.
pub fn nodes_within(position: &Position, depth: u32, budget: u64) -> Option<u64> {
    let board = SmallBoard::new(position.n())?;
    let root = board.root(position);
    let limits = if depth == 0 { Limits::unlimited() } else { Limits::depth(depth) };
    let eval = StatsEval { composite: CompositeCount::AllAvailable };
    let mut counters = Counters::default();
    let window = (f64::NEG_INFINITY, f64::INFINITY);
    alpha_beta(&board, &root, &eval, limits, window, &mut (&mut counters, Budget(0, budget))).ok()?;
    Some(counters.visited)
}

/// Draws a legal position with a legal move at the root and a search within budget: `(position, depth)`.
pub fn position(rng: &mut Rng, shape: &Shape) -> (Position, u32) {
    loop {
        let n = rng.range(shape.min_stones, shape.max_stones.min(SmallBoard::MAX_STONES));
        let Some(board) = SmallBoard::new(n) else { continue };
        let Ok(mut position) = Position::new(u64::from(n), vec![]) else { continue };
        let moves = rng.range(0, n / 2);
        for _ in 0..moves {
            let legal: Vec<u32> = board.legal_moves(&board.root(&position)).collect();
            if legal.is_empty() {
                break;
            }
            position = position.with_move(legal[rng.range(0, legal.len() as u32 - 1) as usize]);
        }
        if board.is_terminal(&board.root(&position)) {
            continue;
        }
        let depth = if rng.range(0, 2) == 0 { 0 } else { rng.range(1, shape.max_depth.max(1)) };
        if nodes_within(&position, depth, shape.node_budget).is_some() {
            return (position, depth);
        }
    }
}
