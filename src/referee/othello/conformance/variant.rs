//! The course's search functions replayed under one convention or bug at a time, so a wrong answer can be matched
//! with what produces it ([`super::causes`]).
//!
//! [`Convention::default`] is the template's semantics (the same answers as [`super::reference`]); each field
//! turns one departure on. The replay is the course's recursion written with colors (Max and Min nodes calling
//! each other, strict comparisons, alpha-beta fail-soft), and it counts node calls so pruning can be checked.

use crate::game::othello::{Board, Grid, Move};
use crate::game::Player;

/// Stands for an infinite bound (larger than any disc difference).
const INF: i64 = 1 << 40;

/// Whose view a leaf is scored from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Leaf {
    /// The root player's discs minus the opponent's (the template).
    #[default]
    Root,
    /// The opponent's discs minus the root player's.
    Opponent,
    /// Dark minus light, whoever the root player is.
    DarkMinusLight,
}

/// One set of conventions a student's code may follow.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Convention {
    /// A Min node reads `color` as the side to move there (scoring from the other side).
    pub mover_color: bool,
    /// The select functions search `limit + 1` plies.
    pub root_deeper: bool,
    /// The node functions return the utility at `limit` 1 instead of 0.
    pub stops_early: bool,
    /// How leaves are scored.
    pub leaf: Leaf,
    /// Equal values replace the best move (the last best move is kept).
    pub ties_last: bool,
    /// A side with no move passes instead of ending the game.
    pub pass: bool,
}

/// A node's answer under a convention, and how many node calls the search made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The move chosen (`None` at a leaf).
    pub best: Option<Move>,
    /// The value.
    pub value: i64,
}

/// Node-call counts of one search: every call, and the calls that returned at once because `limit` ran out (code
/// that checks the limit before calling a child never makes those).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Calls {
    /// Node calls made.
    pub all: u64,
    /// Of those, calls that were leaves only because of the limit.
    pub limit_leaves: u64,
}

/// The replay of one search.
struct Replay<'a> {
    convention: &'a Convention,
    prune: bool,
    calls: Calls,
}

impl Convention {
    /// `compute_utility(grid, color)` under this convention.
    pub fn utility(&self, grid: &Grid, color: Player) -> i64 {
        let own = i64::from(grid.count(color)) - i64::from(grid.count(color.opponent()));
        match self.leaf {
            Leaf::Root => own,
            Leaf::Opponent => -own,
            Leaf::DarkMinusLight => i64::from(grid.count(Player::Max)) - i64::from(grid.count(Player::Min)),
        }
    }

    /// A node function's full-window answer: `min_node` says whether it is the Min node of `color`, `limit` is
    /// the plies left (`None`: to the end), `prune` whether it is an alpha-beta node.
    pub fn node(&self, grid: &Grid, color: Player, min_node: bool, limit: Option<u32>, prune: bool) -> (Answer, Calls) {
        let (root, to_move) = match (min_node, self.mover_color) {
            (false, _) => (color, color),
            (true, false) => (color, color.opponent()),
            (true, true) => (color.opponent(), color),
        };
        let mut replay = Replay { convention: self, prune, calls: Calls::default() };
        let answer = replay.node(grid, root, to_move, -INF, INF, limit);
        (answer, replay.calls)
    }

    /// The moves a select function may answer with under this convention: the root searched as a Max node (as a
    /// select that calls its Max node does), and, when the nodes stop early at `limit` 1, also the move of a select
    /// that loops over the root's moves itself. With node-call counts of the first.
    pub fn select(&self, grid: &Grid, color: Player, limit: Option<u32>, prune: bool) -> (Vec<Option<Move>>, Calls) {
        let limit = limit.map(|l| if self.root_deeper { l + 1 } else { l });
        let (answer, calls) = self.node(grid, color, false, limit, prune);
        let mut moves = vec![answer.best];
        if self.stops_early && limit == Some(1) {
            let plain = Convention { stops_early: false, ..*self };
            moves.push(plain.node(grid, color, false, limit, prune).0.best);
        }
        (moves, calls)
    }
}

impl Replay<'_> {
    fn node(
        &mut self,
        grid: &Grid,
        root: Player,
        to_move: Player,
        alpha: i64,
        beta: i64,
        limit: Option<u32>,
    ) -> Answer {
        self.calls.all += 1;
        let c = self.convention;
        let leaf = Answer { best: None, value: c.utility(grid, root) };
        if limit.is_some_and(|l| l == 0 || (c.stops_early && l <= 1)) {
            self.calls.limit_leaves += 1;
            return leaf;
        }
        let below = limit.map(|l| l - 1);
        if !grid.has_move(to_move) {
            if c.pass && grid.has_move(to_move.opponent()) {
                let passed = self.node(grid, root, to_move.opponent(), alpha, beta, below);
                return Answer { best: None, value: passed.value };
            }
            return leaf;
        }
        let maximizing = to_move == root;
        let mut best = Answer { best: None, value: if maximizing { -INF } else { INF } };
        let (mut alpha, mut beta) = (alpha, beta);
        for mv in grid.moves(to_move) {
            let v = self.node(&grid.play(to_move, mv), root, to_move.opponent(), alpha, beta, below).value;
            let better = if maximizing { v > best.value } else { v < best.value };
            if better || (c.ties_last && v == best.value) {
                best = Answer { best: Some(mv), value: v };
            }
            if self.prune {
                if maximizing {
                    if best.value >= beta {
                        return best;
                    }
                    alpha = alpha.max(best.value);
                } else {
                    if best.value <= alpha {
                        return best;
                    }
                    beta = beta.min(best.value);
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::super::cases;
    use super::super::reference;
    use super::*;

    #[test]
    fn the_template_convention_is_the_reference_and_pruning_only_saves_calls() {
        let template = Convention::default();
        for case in cases::fixed() {
            for min_node in [false, true] {
                let want = reference::node(&case.grid, case.color, min_node, Some(case.limit)).unwrap();
                let (plain, all) = template.node(&case.grid, case.color, min_node, Some(case.limit), false);
                let (pruned, fewer) = template.node(&case.grid, case.color, min_node, Some(case.limit), true);
                assert_eq!((plain.best, plain.value), (want.best, i64::from(want.value)), "{}", case.label);
                assert_eq!((pruned.best, pruned.value), (plain.best, plain.value), "{}", case.label);
                assert!(fewer.all <= all.all, "{}", case.label);
            }
            assert_eq!(template.utility(&case.grid, case.color), i64::from(reference::utility(&case.grid, case.color)));
        }
    }
}
