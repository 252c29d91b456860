//! The strong agent's search on the bitboard: negamax with principal variation search, a transposition table,
//! move ordering (table move, corners, no X/C squares next to empty corners, least opponent mobility), iterative
//! deepening to a deadline and an exact endgame solve once few squares are empty.
//!
//! Depth counts placed discs: a pass is folded into the move before it, as [`crate::game::othello::Othello`] does, so a fixed-depth
//! value equals [`crate::search::minimax`] with the same scoring ([`super::eval`]) (see the integration tests).

use std::time::Instant;

use super::eval::{self, Squares};
use super::table::{self, Bound, Entry, Table};
use crate::game::othello::{Bits, Board, Move, Rules};
use crate::game::Player;

/// Wider than any value.
const INF: i32 = 1_000_000;

/// The clock is read once per this many nodes (a power of two).
const CLOCK_EVERY: u64 = 4096;

/// With this many empty squares or fewer the search goes straight to the end of the game.
pub const ENDGAME_EMPTIES: u32 = 12;

/// One completed iteration of [`Engine::think`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Iteration {
    /// The move chosen.
    pub best: Move,
    /// Its value for the side to move ([`eval::DISC`] per disc when `exact`).
    pub value: i32,
    /// The depth searched (placed discs).
    pub depth: u32,
    /// Nodes visited so far in this think, the interrupted iteration included.
    pub nodes: u64,
    /// Whether the value is the exact final disc difference (the search reached the end everywhere).
    pub exact: bool,
}

/// The search and its memory across moves.
pub struct Engine {
    rules: Rules,
    table: Table,
    squares: Squares,
    nodes: u64,
    deadline: Option<Instant>,
    stopped: bool,
    root_best: Option<u8>,
}

/// The square of a bit index.
fn to_move(sq: u8) -> Move {
    Move { col: sq / 8, row: sq % 8 }
}

impl Engine {
    /// A fresh engine for games under `rules`, with a table of 2^19 entries.
    pub fn new(rules: Rules) -> Engine {
        Engine {
            rules,
            table: Table::new(19),
            squares: Squares::new(8),
            nodes: 0,
            deadline: None,
            stopped: false,
            root_best: None,
        }
    }

    /// Forgets the transposition table.
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Who moves after `mover` played and left `board`: the opponent, or under standard rules the mover again when
    /// only the mover can move.
    #[inline]
    fn next(&self, board: &Bits, mover: Player) -> Player {
        let opp = mover.opponent();
        if self.rules == Rules::Standard && !board.has_move(opp) && board.has_move(mover) {
            mover
        } else {
            opp
        }
    }

    fn prepare(&mut self, board: &Bits) {
        if self.squares.n != board.size() {
            self.squares = Squares::new(board.size());
            self.table.clear();
        }
    }

    /// The value for `player` (to move on `board`) of a full-window search `depth` discs deep, and the move
    /// chosen (`None` when `player` has no move). Never interrupted.
    pub fn search(&mut self, board: &Bits, player: Player, depth: u32) -> (Option<Move>, i32) {
        self.prepare(board);
        self.deadline = None;
        self.stopped = false;
        self.root_best = None;
        let value = self.node(board, player, depth, -INF, INF, 0).unwrap_or(0);
        (self.root_best.map(to_move), value)
    }

    /// Iterative deepening for `player` on `board` until `deadline` (depth 1 always completes; with at most
    /// [`ENDGAME_EMPTIES`] squares empty, the iteration after depth 6 solves to the end), calling `on_iteration` after
    /// each completed iteration. `None` when `player` has no move.
    pub fn think(
        &mut self,
        board: &Bits,
        player: Player,
        deadline: Instant,
        on_iteration: &mut dyn FnMut(&Iteration),
    ) -> Option<Iteration> {
        self.prepare(board);
        if board.move_mask(player) == 0 {
            return None;
        }
        let empties = (board.size() * board.size()) as u32 - board.count(Player::Max) - board.count(Player::Min);
        self.nodes = 0;
        self.deadline = None;
        let mut done: Option<Iteration> = None;
        let mut depth = 1;
        loop {
            self.stopped = false;
            self.root_best = None;
            let value = self.node(board, player, depth, -INF, INF, 0);
            match (value, self.root_best) {
                (Some(value), Some(best)) => {
                    let exact = depth >= empties;
                    let it = Iteration { best: to_move(best), value, depth, nodes: self.nodes, exact };
                    on_iteration(&it);
                    done = Some(it);
                    if exact || Instant::now() >= deadline {
                        break;
                    }
                }
                _ => break,
            }
            self.deadline = Some(deadline);
            // Deepen one disc at a time; near the end, jump to the exact solve once a few depths are done.
            depth = if empties <= ENDGAME_EMPTIES && depth >= 6 { empties } else { depth + 1 };
        }
        done.map(|d| Iteration { nodes: self.nodes, ..d })
    }

    /// The move ordering score of `sq` for `player` on `board` (higher first).
    fn order_score(&self, board: &Bits, player: Player, sq: u8, tt: Option<u8>, deep: bool) -> i32 {
        if tt == Some(sq) {
            return INF;
        }
        let b = 1u64 << sq;
        let s = &self.squares;
        let mut score = 0;
        if b & s.corner_mask != 0 {
            score += 1000;
        }
        let (own, opp) = board.sides(player);
        let occupied = own | opp;
        for (k, &(cc, cr)) in s.corners.iter().enumerate() {
            if occupied & (1u64 << (8 * cc + cr)) == 0 {
                if b & s.x[k] != 0 {
                    score -= 500;
                } else if b & s.c[k] != 0 {
                    score -= 200;
                }
            }
        }
        if deep {
            let child = board.play(player, to_move(sq));
            score -= 20 * child.move_mask(player.opponent()).count_ones() as i32;
        }
        score
    }

    /// Negamax with PVS: the value of `board` for `player` (to move), fail-soft; `None` when interrupted.
    fn node(&mut self, board: &Bits, player: Player, depth: u32, mut alpha: i32, beta: i32, ply: u32) -> Option<i32> {
        self.nodes += 1;
        if self.nodes % CLOCK_EVERY == 0 && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stopped = true;
        }
        if self.stopped {
            return None;
        }
        let moves = board.move_mask(player);
        if moves == 0 {
            return Some(eval::terminal(board, player));
        }
        if depth == 0 {
            return Some(eval::evaluate(&self.squares, board, player));
        }
        let key = table::key(board, player);
        let entry = self.table.probe(key);
        if let Some(e) = entry {
            if ply > 0 && u32::from(e.depth) >= depth {
                let usable = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => e.value >= beta,
                    Bound::Upper => e.value <= alpha,
                };
                if usable {
                    return Some(e.value);
                }
            }
        }
        let tt_move = entry.map(|e| e.best);
        let mut ordered = [(0i32, 0u8); 64];
        let mut count = 0;
        let mut rest = moves;
        let deep = depth >= 3;
        while rest != 0 {
            let sq = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            ordered[count] = (self.order_score(board, player, sq, tt_move, deep), sq);
            count += 1;
        }
        let ordered = &mut ordered[..count];
        // Stable: equal scores keep column-major order.
        ordered.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
        let alpha_in = alpha;
        let mut best = -INF;
        let mut best_sq = ordered[0].1;
        for (i, &(_, sq)) in ordered.iter().enumerate() {
            let child = board.play(player, to_move(sq));
            let next = self.next(&child, player);
            let value = if i == 0 {
                self.child(&child, player, next, depth - 1, alpha, beta, ply)?
            } else {
                let probe = self.child(&child, player, next, depth - 1, alpha, alpha + 1, ply)?;
                if probe > alpha && probe < beta {
                    self.child(&child, player, next, depth - 1, probe, beta, ply)?
                } else {
                    probe
                }
            };
            if value > best {
                best = value;
                best_sq = sq;
                if ply == 0 {
                    self.root_best = Some(sq);
                }
            }
            if best > alpha {
                alpha = best;
            }
            if alpha >= beta {
                break;
            }
        }
        let bound = if best <= alpha_in {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table.store(Entry { key, value: best, depth: depth.min(255) as u8, best: best_sq, bound });
        Some(best)
    }

    /// The value for `mover` of `child` with `next` to move, searched in the window (`alpha`, `beta`) of `mover`.
    #[expect(clippy::too_many_arguments, reason = "a private recursion step")]
    #[inline]
    fn child(
        &mut self,
        child: &Bits,
        mover: Player,
        next: Player,
        depth: u32,
        alpha: i32,
        beta: i32,
        ply: u32,
    ) -> Option<i32> {
        if next == mover {
            self.node(child, mover, depth, alpha, beta, ply + 1)
        } else {
            self.node(child, next, depth, -beta, -alpha, ply + 1).map(|v| -v)
        }
    }
}
