//! The right answers under the semantics the course's conformance tests use (`othello-ground-truth.md`): utility
//! is the disc difference from the root player's view, `limit` counts plies (the utility is returned at 0), a node
//! whose side to move has no legal move is terminal, and ties keep the first move in `get_possible_moves` order.
//!
//! Computed with [`crate::search::minimax`] on the framework rules: the search scores from dark's view, so the
//! value is negated for a light root; its strict first-best rule at the root is the course's.

use crate::game::othello::{Grid, Move, Othello, Rules, SizeError};
use crate::game::Player;
use crate::search::{minimax, Evaluator, Limits};

/// Disc difference from dark's view, at every leaf.
struct DiscDifference;

impl Evaluator<Othello<Grid>> for DiscDifference {
    type Value = i32;

    fn evaluate(&self, _: &Othello<Grid>, state: &<Othello<Grid> as crate::game::Game>::State, _: bool) -> i32 {
        let (dark, light) = state.score();
        dark as i32 - light as i32
    }
}

/// What a node function must return: the first best move (`None` at a leaf) and the value from the root
/// player's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeAnswer {
    /// The move chosen, `None` when the node is a leaf (terminal, or `limit` 0).
    pub best: Option<Move>,
    /// The value from `color`'s view.
    pub value: i32,
}

/// `compute_utility(board, color)`: `color`'s discs minus the opponent's.
pub fn utility(grid: &Grid, color: Player) -> i32 {
    grid.count(color) as i32 - grid.count(color.opponent()) as i32
}

/// The answer of the Max node (`color` to move) or Min node (`color`'s opponent to move) of `grid`, searching
/// `limit` plies (`None`: to the end of the game).
///
/// # Errors
/// [`SizeError`] for a board the rules do not support (the check's cases never are).
pub fn node(grid: &Grid, color: Player, min_node: bool, limit: Option<u32>) -> Result<NodeAnswer, SizeError> {
    let game = Othello::<Grid>::new(grid.size(), Rules::Framework)?;
    let to_move = if min_node { color.opponent() } else { color };
    let root = game.state(grid, to_move)?;
    let limits = limit.map_or(Limits::unlimited(), Limits::depth);
    let result = minimax(&game, &root, &DiscDifference, limits, &mut ())
        .map_err(|_| SizeError { size: grid.size(), limit: "searchable (the search was interrupted)" })?;
    let value = if color == Player::Max { result.value } else { -result.value };
    Ok(NodeAnswer { best: result.best, value })
}

/// Every move of the node's side whose child is worth the node's value: the moves a search that visits them in
/// another order may rightly return (empty at a leaf). In `get_possible_moves` order, the template's first.
///
/// # Errors
/// [`SizeError`] for a board the rules do not support (the check's cases never are).
pub fn tied_moves(grid: &Grid, color: Player, min_node: bool, limit: Option<u32>) -> Result<Vec<Move>, SizeError> {
    let answer = node(grid, color, min_node, limit)?;
    if answer.best.is_none() {
        return Ok(Vec::new());
    }
    let to_move = if min_node { color.opponent() } else { color };
    let below = limit.map(|l| l.saturating_sub(1));
    let mut out = Vec::new();
    for mv in grid.legal_moves(to_move) {
        if node(&grid.play(to_move, mv), color, !min_node, below)?.value == answer.value {
            out.push(mv);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    // Invariant: every unwrap/expect/panic in this module is a test assertion on inputs the test itself fixes,
    // never on user input; a failure is the test failing.
    use super::*;
    use crate::game::othello::literal::parse_board;
    use crate::game::Game;
    use crate::search::alpha_beta;
    use proptest::prelude::*;

    /// The course's node functions transcribed directly (colors, not Max/Min), as a second opinion.
    fn course(grid: &Grid, color: Player, to_move: Player, limit: u32) -> (Option<Move>, i32) {
        let game = Othello::<Grid>::new(grid.size(), Rules::Framework).unwrap();
        let state = game.state(grid, to_move).unwrap();
        let moves: Vec<Move> = game.legal_moves(&state).collect();
        if moves.is_empty() || limit == 0 {
            return (None, utility(grid, color));
        }
        let maximizing = to_move == color;
        let mut best = (None, if maximizing { i32::MIN } else { i32::MAX });
        for mv in moves {
            let child = grid.play(to_move, mv);
            let (_, v) = course(&child, color, to_move.opponent(), limit - 1);
            if (maximizing && v > best.1) || (!maximizing && v < best.1) {
                best = (Some(mv), v);
            }
        }
        best
    }

    /// A board after `plies` moves chosen by `picks` (each taken modulo the number of legal moves).
    fn position(size: usize, picks: &[usize]) -> Grid {
        let game = Othello::<Grid>::new(size, Rules::Framework).unwrap();
        let mut state = game.start();
        for &pick in picks {
            let moves: Vec<Move> = game.legal_moves(&state).collect();
            if moves.is_empty() {
                break;
            }
            state = game.apply(&state, moves[pick % moves.len()]);
        }
        state.grid()
    }

    #[test]
    fn the_4x4_start_by_hand() {
        let grid = Grid::start(4).unwrap();
        // Every first move flips one disc: 4 to 1 for dark; light then flips one back at best.
        assert_eq!(node(&grid, Player::Max, false, Some(1)).unwrap().value, 3);
        assert_eq!(node(&grid, Player::Max, false, Some(1)).unwrap().best, Some(Move { col: 0, row: 1 }));
        assert_eq!(node(&grid, Player::Max, false, Some(2)).unwrap().value, 0);
        assert_eq!(node(&grid, Player::Min, true, Some(1)).unwrap().value, -3);
        let stuck = parse_board("((2, 1, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0))").unwrap();
        let leaf = node(&stuck, Player::Max, false, Some(3)).unwrap();
        assert_eq!(leaf, NodeAnswer { best: None, value: 0 });
        assert_eq!(utility(&stuck, Player::Min), 0);
        // Every first move at the 4x4 start is worth the same, at any depth by symmetry: all four tie.
        let tied = tied_moves(&grid, Player::Max, false, Some(2)).unwrap();
        assert_eq!(tied.len(), 4);
        assert_eq!(tied[0], node(&grid, Player::Max, false, Some(2)).unwrap().best.unwrap());
        assert!(tied_moves(&stuck, Player::Max, false, Some(3)).unwrap().is_empty());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(96))]

        #[test]
        fn node_answers_equal_the_course_recursion_and_both_searches(
            six in any::<bool>(),
            picks in proptest::collection::vec(0usize..16, 0..20),
            dark in any::<bool>(),
            min_node in any::<bool>(),
            limit in 1u32..=3,
        ) {
            let size = if six { 6 } else { 4 };
            let grid = position(size, &picks);
            let color = if dark { Player::Max } else { Player::Min };
            let to_move = if min_node { color.opponent() } else { color };
            let answer = node(&grid, color, min_node, Some(limit)).unwrap();
            prop_assert_eq!((answer.best, answer.value), course(&grid, color, to_move, limit));

            let game = Othello::<Grid>::new(size, Rules::Framework).unwrap();
            let root = game.state(&grid, to_move).unwrap();
            let sign = if dark { 1 } else { -1 };
            let plain = minimax(&game, &root, &DiscDifference, Limits::depth(limit), &mut ()).unwrap();
            prop_assert_eq!((plain.best, sign * plain.value), (answer.best, answer.value));
            let pruned = alpha_beta(&game, &root, &DiscDifference, Limits::depth(limit), (i32::MIN, i32::MAX), &mut ())
                .unwrap();
            prop_assert_eq!((pruned.best, sign * pruned.value), (answer.best, answer.value));
        }
    }
}
