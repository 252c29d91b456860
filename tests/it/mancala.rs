//! Mancala properties over random playouts: stones are conserved, the game is over exactly when a row is empty
//! (and then both rows are), and alpha-beta equals minimax in value and move.

use proptest::prelude::*;
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
}
