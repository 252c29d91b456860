//! Mancala properties over random playouts: stones are conserved, the game is over exactly when a row is empty
//! (and then both rows are), alpha-beta equals minimax in value and move, and the strong agent's engine equals
//! minimax in value (at a fixed depth with the simple evaluation, with and without its table, and to the end), and
//! its model of the simple agent picks the simple agent's moves.

use proptest::prelude::*;
use referee::game::mancala::engine::{Board, Config, Engine, Weights, SCALE};
use referee::game::mancala::{Mancala, MancalaState};
use referee::game::{Game, Player};
use referee::search::{alpha_beta, minimax, Counters, Evaluator, Limits};

/// The course's simple static evaluation: Max's mancala minus Min's (terminal or not).
struct StoreDifference;

impl Evaluator<Mancala> for StoreDifference {
    type Value = i64;
    fn evaluate(&self, _game: &Mancala, state: &MancalaState, _terminal: bool) -> i64 {
        i64::from(Mancala::store(state, Player::Max)) - i64::from(Mancala::store(state, Player::Min))
    }
}

/// A random position reached by random legal moves from the start.
fn playout(stones: u16, choices: &[usize]) -> (Mancala, Vec<MancalaState>) {
    let game = Mancala::new(stones);
    let mut states = vec![game.start()];
    for &c in choices {
        let s = *states.last().unwrap();
        let moves: Vec<u8> = game.legal_moves(&s).collect();
        if moves.is_empty() {
            break;
        }
        states.push(game.apply(&s, moves[c % moves.len()]));
    }
    (game, states)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn stones_are_conserved_and_the_end_is_a_row_emptied(stones in 1u16..=6, choices in prop::collection::vec(0usize..6, 0..120)) {
        let (game, states) = playout(stones, &choices);
        for s in &states {
            prop_assert_eq!(s.pits.iter().sum::<u16>(), 12 * stones);
            let row_empty = |from: usize| s.pits[from..from + 6].iter().all(|&x| x == 0);
            prop_assert_eq!(s.over, row_empty(0) || row_empty(7));
            if s.over {
                prop_assert!(row_empty(0) && row_empty(7), "both rows are swept at the end");
                prop_assert_eq!(game.legal_moves(s).count(), 0);
            } else {
                prop_assert!(game.legal_moves(s).count() > 0);
            }
        }
    }

    #[test]
    fn alpha_beta_equals_minimax(stones in 1u16..=4, choices in prop::collection::vec(0usize..6, 0..40), depth in 1u32..=4) {
        let (game, states) = playout(stones, &choices);
        let root = *states.last().unwrap();
        let (mut ab_count, mut mm_count) = (Counters::default(), Counters::default());
        let ab = alpha_beta(&game, &root, &StoreDifference, Limits::depth(depth), (i64::MIN, i64::MAX), &mut ab_count).unwrap();
        let mm = minimax(&game, &root, &StoreDifference, Limits::depth(depth), &mut mm_count).unwrap();
        prop_assert_eq!((ab.value, ab.best), (mm.value, mm.best));
        prop_assert!(ab_count.visited <= mm_count.visited);
    }
    #[test]
    fn the_engine_equals_minimax_at_a_fixed_depth(stones in 1u16..=5, choices in prop::collection::vec(0usize..6, 0..40), depth in 1u32..=5, table in any::<bool>()) {
        let (game, states) = playout(stones, &choices);
        let root = *states.last().unwrap();
        prop_assume!(!root.over);
        let (board, lead) = Board::from_state(&root).unwrap();
        let config = Config { table_bits: table.then_some(12), strict_table: true, ..Config::PLAIN };
        let it = Engine::new(config).search_depth(board, depth).unwrap();
        let mm = minimax(&game, &root, &StoreDifference, Limits::depth(depth), &mut ()).unwrap();
        let sign = if root.to_move == Player::Max { 1 } else { -1 };
        prop_assert_eq!(lead * SCALE + it.value, sign * mm.value as i32 * SCALE);
        prop_assert!(game.legal_moves(&root).any(|m| m == it.best));
    }

    /// The engine's model of the simple agent picks what the simple agent's own search picks, ties included,
    /// with a table that is shared from one position of the playout to the next.
    #[test]
    fn first_best_predicts_the_simple_agent(stones in 1u16..=5, choices in prop::collection::vec(0usize..6, 0..40), depth in 1u32..=6) {
        let (game, states) = playout(stones, &choices);
        let mut model = Engine::new(Config::MODEL);
        for root in states.iter().filter(|s| !s.over) {
            let (board, lead) = Board::from_state(root).unwrap();
            let (bin, value) = model.first_best(board, depth).unwrap();
            let ab = alpha_beta(&game, root, &StoreDifference, Limits::depth(depth), (i64::MIN, i64::MAX), &mut ()).unwrap();
            let sign = if root.to_move == Player::Max { 1 } else { -1 };
            prop_assert_eq!(Some(bin), ab.best);
            prop_assert_eq!(lead * SCALE + value, sign * ab.value as i32 * SCALE);
        }
    }

    #[test]
    fn the_table_does_not_change_a_fixed_depth_value(stones in 2u16..=6, choices in prop::collection::vec(0usize..6, 0..40), depth in 1u32..=7) {
        let (_, states) = playout(stones, &choices);
        let root = *states.last().unwrap();
        prop_assume!(!root.over);
        let (board, _) = Board::from_state(&root).unwrap();
        let plain = Config { weights: Weights::TUNED, ..Config::PLAIN };
        let tabled = Config { table_bits: Some(10), strict_table: true, ..plain };
        let without = Engine::new(plain).search_depth(board, depth).unwrap().value;
        let mut engine = Engine::new(tabled);
        prop_assert_eq!(engine.search_depth(board, depth).unwrap().value, without);
        // Again with a table full of results from every shallower depth and from the first search.
        let far = std::time::Instant::now() + std::time::Duration::from_secs(3600);
        let deepened = engine.think(board, far, Some(depth), &mut |_| {}).unwrap();
        // Deepening ends early only on an exact value, which no deeper search changes.
        prop_assert!(deepened.depth == depth || deepened.exact);
        prop_assert_eq!(deepened.value, without);
    }

    #[test]
    fn the_endgame_solver_equals_minimax_to_the_end(stones in 1u16..=3, choices in prop::collection::vec(0usize..6, 10..60)) {
        let (game, states) = playout(stones, &choices);
        // The first position of the playout with at most 8 stones left in the bins (minimax to the end is
        // exponential in what is left).
        let in_bins = |s: &MancalaState| s.pits.iter().sum::<u16>() - s.pits[6] - s.pits[13];
        let root = states.iter().find(|s| !s.over && in_bins(s) <= 8).copied();
        prop_assume!(root.is_some());
        let root = root.unwrap();
        let (board, lead) = Board::from_state(&root).unwrap();
        let exact = minimax(&game, &root, &StoreDifference, Limits::unlimited(), &mut ()).unwrap().value as i32;
        let sign = if root.to_move == Player::Max { 1 } else { -1 };
        // Leaves solved to the end at depth 1, with the strong agent's table and heuristic.
        let solving = Config { endgame: 255, ..Config::STRONG };
        let mut engine = Engine::new(Config { table_bits: Some(12), ..solving });
        let it = engine.search_depth(board, 1).unwrap();
        prop_assert_eq!(lead * SCALE + it.value, sign * exact * SCALE);
        // And by deepening from scratch until the value is exact.
        let far = std::time::Instant::now() + std::time::Duration::from_secs(3600);
        let deepened = Engine::new(Config { table_bits: Some(12), ..Config::STRONG }).think(board, far, None, &mut |_| {}).unwrap();
        prop_assert!(deepened.exact);
        prop_assert_eq!(lead * SCALE + deepened.value, sign * exact * SCALE);
    }
}
