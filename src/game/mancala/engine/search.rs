//! The engine's search: negamax principal-variation search over gains, with a transposition table, move
//! ordering, endgame solving at the leaves, and iterative deepening against a deadline.
//!
//! Every value is the gain still to come for the side to move ([`super::board`]), in `1 / SCALE` stone. After a
//! move that passes the turn the child's value is negated; after an extra turn it is not (the same side moves
//! again), so nothing assumes that the sides alternate. A child searched with the window `(lo, hi)` of its parent
//! is searched with `(lo - gain, hi - gain)` after an extra turn and `(gain - hi, gain - lo)` after a pass.

use std::time::Instant;

use super::board::{Board, Next};
use super::eval::{Weights, SCALE};
use super::table::{Bound, Table};

/// The remaining depth that means "to the end of the game": it is never decremented, and a result searched to it
/// is exact and serves a search of any depth.
const SOLVE: i32 = 1000;

/// Larger than any value (255 stones at `SCALE`, plus any heuristic).
const INFINITY: i32 = 30_000;

/// Nodes with less remaining depth neither probe nor fill the table: their subtrees are cheaper than a cache miss.
const TABLE_MIN_DEPTH: i32 = 3;

/// The deadline is checked once per this many nodes (a power of two).
const CLOCK_EVERY: u64 = 1024;

/// How the engine searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// The leaf evaluation.
    pub weights: Weights,
    /// A depth-limit leaf with at most this many stones left in the bins is searched to the end instead of being
    /// evaluated (0: never).
    pub endgame: i32,
    /// `log2` of the transposition table's entries; `None`: no table.
    pub table_bits: Option<u32>,
    /// Plies of extra turns and captures played past the depth limit before the evaluation is trusted (0: none).
    pub quiescence: u32,
    /// Use a stored bound only when it was searched to exactly the depth asked for (deeper results otherwise serve
    /// shallower searches, which is stronger but makes a fixed-depth value depend on what was searched before).
    pub strict_table: bool,
}

impl Config {
    /// What the strong agent plays with.
    pub const STRONG: Config =
        Config { weights: Weights::TUNED, endgame: 14, table_bits: Some(20), quiescence: 4, strict_table: false };

    /// Plain fixed-depth search with the simple agent's evaluation: what the property tests compare with
    /// minimax.
    pub const PLAIN: Config =
        Config { weights: Weights::STORES_ONLY, endgame: 0, table_bits: None, quiescence: 0, strict_table: false };

    /// The simple agent's search, sped up by a table that only answers for the depth it was searched to: the same
    /// values at every depth as [`Config::PLAIN`], so [`Engine::first_best`] predicts the simple agent's moves.
    pub const MODEL: Config =
        Config { weights: Weights::STORES_ONLY, endgame: 0, table_bits: Some(18), quiescence: 0, strict_table: true };
}

/// One completed iteration (or fixed-depth search) at the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Iteration {
    /// Its depth limit.
    pub depth: u32,
    /// The chosen bin, 0-5 in the mover's frame.
    pub best: u8,
    /// The root's value: the mover's gain still to come, in `1 / SCALE` stone.
    pub value: i32,
    /// Whether the value is exact (every leaf that counted was the end of the game).
    pub exact: bool,
    /// Nodes visited since the search started (every iteration so far).
    pub nodes: u64,
}

/// One move of a node's move list, played once for ordering and reused for searching.
#[derive(Clone, Copy)]
struct Child {
    bin: u8,
    score: i32,
    gain: i32,
    next: Next,
}

/// The search engine: its table and history persist from one move of a game to the next.
pub struct Engine {
    config: Config,
    table: Option<Table>,
    /// Cutoffs per (bin, stones in it): the last tie-break of move ordering.
    history: [[u32; 16]; 6],
    nodes: u64,
    deadline: Option<Instant>,
    stopped: bool,
    /// Set when a heuristic value (an evaluated leaf or a depth-limited table entry) was used.
    inexact: bool,
    /// Ignore the deadline and never solve endgames at the leaves (the first iteration of a timed search).
    quick: bool,
}

impl Engine {
    /// A fresh engine.
    pub fn new(config: Config) -> Engine {
        Engine {
            config,
            table: config.table_bits.map(Table::new),
            history: [[0; 16]; 6],
            nodes: 0,
            deadline: None,
            stopped: false,
            inexact: false,
            quick: false,
        }
    }

    /// Nodes visited since the last search started (every iteration, an interrupted one included).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Forgets what earlier searches learned (table and history).
    pub fn reset(&mut self) {
        if let Some(table) = &mut self.table {
            table.clear();
        }
        self.history = [[0; 16]; 6];
    }

    /// Searches `board` to a fixed `depth` (at least 1) without a deadline; `None` when the game is over.
    pub fn search_depth(&mut self, board: Board, depth: u32) -> Option<Iteration> {
        self.start(None);
        self.root(board, depth.max(1), None)
    }

    /// Iterative deepening from depth 1 until `deadline` (or `max_depth`, or an exact value), calling `on_iteration`
    /// after each completed iteration; returns the last one, `None` when the game is over. The first iteration
    /// ignores the deadline, so a move is always found.
    pub fn think(
        &mut self,
        board: Board,
        deadline: Instant,
        max_depth: Option<u32>,
        on_iteration: &mut dyn FnMut(&Iteration),
    ) -> Option<Iteration> {
        self.start(Some(deadline));
        let cap = max_depth.unwrap_or(u32::MAX).max(1);
        let mut done: Option<Iteration> = None;
        for depth in 1..=cap {
            let Some(it) = self.root(board, depth, done.map(|d| d.best)) else { break };
            on_iteration(&it);
            done = Some(it);
            if it.exact || Instant::now() >= deadline {
                break;
            }
        }
        done
    }

    /// The first bin in bin order (0-5) whose value at `depth` is the best, with that value: the move a plain
    /// alpha-beta search that tries the bins in order keeps, ties included (the course's simple agent, with
    /// [`Config::MODEL`]). `None` when the game is over.
    pub fn first_best(&mut self, board: Board, depth: u32) -> Option<(u8, i32)> {
        if board.is_over() {
            return None;
        }
        self.start(None);
        self.stopped = false;
        self.quick = false;
        let depth = depth.max(1) as i32;
        let moves = board.moves();
        let mut best: Option<(u8, i32)> = None;
        let mut alpha = -INFINITY;
        for bin in (0..6u8).filter(|&bin| moves & (1 << bin) != 0) {
            let (gain, next) = board.play(usize::from(bin));
            let child = Child { bin, score: 0, gain, next };
            let v = self.pvs_value(&child, best.is_none(), depth, alpha, INFINITY);
            if best.map_or(true, |(_, b)| v > b) {
                best = Some((bin, v));
            }
            alpha = alpha.max(v);
        }
        best
    }

    fn start(&mut self, deadline: Option<Instant>) {
        if let Some(table) = &mut self.table {
            table.next_age();
        }
        for row in &mut self.history {
            row.iter_mut().for_each(|h| *h /= 8);
        }
        self.nodes = 0;
        self.deadline = deadline;
    }

    /// One root search at `depth`; `None` when interrupted (only after depth 1) or when the game is over.
    fn root(&mut self, board: Board, depth: u32, previous: Option<u8>) -> Option<Iteration> {
        if board.is_over() {
            return None;
        }
        self.stopped = false;
        self.inexact = false;
        // The first iteration of a timed search must finish whatever the clock says, and fast.
        self.quick = self.deadline.is_some() && depth == 1;
        let depth = depth as i32;
        let hint = previous.or_else(|| self.table.as_ref().and_then(|t| t.probe(board)).map(|h| h.best));
        let best = self.best_child(board, depth, hint);
        if self.stopped {
            return None;
        }
        let stored_depth = if self.inexact { depth } else { SOLVE };
        if let Some(table) = &mut self.table {
            table.store(board, stored_depth, best.1, Bound::Exact, best.0);
        }
        Some(Iteration { depth: depth as u32, best: best.0, value: best.1, exact: !self.inexact, nodes: self.nodes })
    }

    /// A child's value in the window `(alpha, beta)`: searched in full when it is the first, otherwise probed with
    /// a null window first and searched again only when the probe lands inside the window.
    fn pvs_value(&mut self, child: &Child, first: bool, depth: i32, alpha: i32, beta: i32) -> i32 {
        if first {
            return self.child_value(child, depth, alpha, beta);
        }
        let probe = self.child_value(child, depth, alpha, alpha + 1);
        if probe > alpha && probe < beta {
            self.child_value(child, depth, alpha, beta)
        } else {
            probe
        }
    }

    /// The best move of `board` and its value at `depth` by principal-variation search over the ordered moves
    /// (`hint` first); the first best in search order. Meaningless when `self.stopped` is set on return.
    fn best_child(&mut self, board: Board, depth: i32, hint: Option<u8>) -> (u8, i32) {
        let (children, count) = self.children(board, hint);
        let (mut alpha, beta) = (-INFINITY, INFINITY);
        let mut best = (children[0].bin, -INFINITY);
        for (i, child) in children[..count].iter().enumerate() {
            let v = self.pvs_value(child, i == 0, depth, alpha, beta);
            if self.stopped {
                break;
            }
            if v > best.1 {
                best = (child.bin, v);
            }
            alpha = alpha.max(v);
        }
        best
    }

    /// The value of `child` for the parent's mover, searched with the parent's window `(lo, hi)`.
    #[inline]
    fn child_value(&mut self, child: &Child, depth: i32, lo: i32, hi: i32) -> i32 {
        let g = child.gain * SCALE;
        let d = if depth == SOLVE { SOLVE } else { depth - 1 };
        match child.next {
            Next::Over => g,
            Next::Again(b) => g + self.node(b, d, lo - g, hi - g),
            Next::Pass(b) => g - self.node(b, d, g - hi, g - lo),
        }
    }

    /// The legal moves of `board`, played and ordered: the hinted move, then extra turns (nearest the mancala
    /// first), then captures by size, then by history.
    #[inline]
    fn children(&self, board: Board, hint: Option<u8>) -> ([Child; 6], usize) {
        let mut list = [Child { bin: 0, score: 0, gain: 0, next: Next::Over }; 6];
        let mut count = 0;
        let moves = board.moves();
        for bin in 0..6u8 {
            if moves & (1 << bin) == 0 {
                continue;
            }
            let (gain, next) = board.play(usize::from(bin));
            let stones = board.pit(usize::from(bin)).min(15) as usize;
            let score = if Some(bin) == hint {
                1 << 30
            } else {
                match next {
                    Next::Again(_) => (1 << 29) + i32::from(bin),
                    _ if gain > 1 => (1 << 28) + gain,
                    _ => self.history[usize::from(bin)][stones].min(1 << 27) as i32,
                }
            };
            // Insertion sort, highest score first; equal scores keep bin order.
            let mut at = count;
            while at > 0 && list[at - 1].score < score {
                list[at] = list[at - 1];
                at -= 1;
            }
            list[at] = Child { bin, score, gain, next };
            count += 1;
        }
        (list, count)
    }

    /// The evaluation of a depth-limit leaf, or better: the mover may instead play an extra turn or a capture,
    /// up to `left` plies deep, while the side to move may always "stand pat" on the evaluation. Fail-soft.
    fn quiesce(&mut self, board: Board, mut alpha: i32, beta: i32, left: u32) -> i32 {
        let stand = self.config.weights.evaluate(board);
        if left == 0 || stand >= beta {
            return stand;
        }
        let mut best = stand;
        alpha = alpha.max(stand);
        let moves = board.moves();
        for bin in 0..6 {
            if moves & (1 << bin) == 0 {
                continue;
            }
            let n = board.pit(bin) as i32;
            let (gain, next) = board.play(bin);
            // Stones the sowing itself drops in the mancala: the rest of the gain is a capture (or the sweep).
            let sown = if bin as i32 + n >= 6 { 1 + (bin as i32 + n - 6) / 13 } else { 0 };
            let g = gain * SCALE;
            self.nodes += 1;
            let v = match next {
                Next::Over => g,
                Next::Again(b) => g + self.quiesce(b, alpha - g, beta - g, left - 1),
                Next::Pass(b) if gain > sown => g - self.quiesce(b, g - beta, g - alpha, left - 1),
                Next::Pass(_) => continue,
            };
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Principal-variation search of `board` (the mover's gain to come) to `depth` within `(alpha, beta)`,
    /// fail-soft.
    fn node(&mut self, board: Board, mut depth: i32, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if !self.quick && self.nodes % CLOCK_EVERY == 0 {
            if let Some(deadline) = self.deadline {
                if Instant::now() >= deadline {
                    self.stopped = true;
                }
            }
        }
        if self.stopped {
            return 0;
        }
        if depth <= 0 {
            if !self.quick && board.own_stones() + board.other_stones() <= self.config.endgame {
                depth = SOLVE;
            } else {
                self.inexact = true;
                return self.quiesce(board, alpha, beta, self.config.quiescence);
            }
        }
        let mut hint = None;
        if let Some(table) = self.table.as_ref().filter(|_| depth >= TABLE_MIN_DEPTH) {
            if let Some(hit) = table.probe(board) {
                hint = Some(hit.best);
                let deep_enough = if self.config.strict_table { hit.depth == depth } else { hit.depth >= depth };
                let usable = match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => hit.value >= beta,
                    Bound::Upper => hit.value <= alpha,
                };
                if deep_enough && usable {
                    if hit.depth < SOLVE {
                        self.inexact = true;
                    }
                    return hit.value;
                }
            }
        }
        let alpha_in = alpha;
        let (children, count) = self.children(board, hint);
        let mut best = (children[0].bin, -INFINITY);
        for (i, child) in children[..count].iter().enumerate() {
            let v = self.pvs_value(child, i == 0, depth, alpha, beta);
            if self.stopped {
                return 0;
            }
            if v > best.1 {
                best = (child.bin, v);
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        let stones = board.pit(usize::from(child.bin)).min(15) as usize;
                        let bonus = if depth == SOLVE { 64 } else { (depth * depth) as u32 };
                        let h = &mut self.history[usize::from(child.bin)][stones];
                        *h = h.saturating_add(bonus);
                        break;
                    }
                }
            }
        }
        if let Some(table) = self.table.as_mut().filter(|_| depth >= TABLE_MIN_DEPTH) {
            let bound = if best.1 <= alpha_in {
                Bound::Upper
            } else if best.1 >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            table.store(board, depth, best.1, bound, best.0);
        }
        best.1
    }
}
