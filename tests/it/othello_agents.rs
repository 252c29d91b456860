//! The built-in Othello agents: legal moves whatever the deadline, the strong search equal to plain minimax with
//! the same scoring, and the strong agent beating random and greedy.

use std::time::{Duration, Instant};

use proptest::prelude::*;
use referee::game::othello::agent::engine::Engine;
use referee::game::othello::agent::eval::{self, Squares};
use referee::game::othello::agent::{bench, greedy, Brain, Builtin};
use referee::game::othello::{Bits, Board, Grid, Move, Othello, OthelloState, Rules};
use referee::game::{Game, Player};
use referee::rng::Rng;
use referee::search::{minimax, Evaluator, Limits};

const RULES: [Rules; 2] = [Rules::Framework, Rules::Standard];

/// A position after up to `plies` random legal moves from the start.
fn opening<B: Board>(game: &Othello<B>, plies: usize, seed: u64) -> OthelloState<B> {
    let mut rng = Rng::new(seed);
    let mut state = game.start();
    for _ in 0..plies {
        let moves: Vec<Move> = game.legal_moves(&state).collect();
        if moves.is_empty() {
            break;
        }
        state = game.apply(&state, moves[rng.below(moves.len())]);
    }
    state
}

#[test]
fn every_agent_returns_a_legal_move_with_a_deadline_already_past() {
    for rules in RULES {
        for size in [4, 6, 8] {
            let game = Othello::<Bits>::new(size, rules).unwrap();
            for seed in 0..15 {
                let state = opening(&game, (seed as usize * 7) % (size * size), seed);
                for kind in Builtin::ALL {
                    let mut brain = Brain::new(kind, rules, seed);
                    let mut reports = 0;
                    let past = Instant::now() - Duration::from_millis(5);
                    let chosen = brain.think(&state, past, &mut |_, _| reports += 1);
                    if game.is_terminal(&state) {
                        assert_eq!(chosen, None);
                    } else {
                        let mv = chosen.unwrap();
                        assert!(game.legal_moves(&state).any(|m| m == mv), "{} chose {mv} in\n{state}", kind.name());
                        assert!(reports >= 1, "{} reported nothing", kind.name());
                    }
                }
            }
        }
    }
}

#[test]
fn a_stuck_side_gets_no_move_even_when_the_opponent_has_one() {
    // Light in the corner, dark beside it: dark (to move) cannot move, light could.
    let grid = referee::game::othello::literal::parse_board("((2, 1, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0))");
    let game = Othello::<Bits>::new(4, Rules::Framework).unwrap();
    let stuck = game.state(&grid.unwrap(), Player::Max).unwrap();
    for rules in RULES {
        for kind in Builtin::ALL {
            let chosen = Brain::new(kind, rules, 0).think(&stuck, Instant::now(), &mut |_, _| {});
            assert_eq!(chosen, None, "{} under {rules:?}", kind.name());
        }
    }
}

#[test]
fn large_boards_fall_back_to_the_array_board() {
    let game = Othello::<Grid>::new(10, Rules::Standard).unwrap();
    let state = opening(&game, 9, 3);
    for kind in Builtin::ALL {
        let mv = Brain::new(kind, Rules::Standard, 1).think(&state, Instant::now(), &mut |_, _| {}).unwrap();
        assert!(game.legal_moves(&state).any(|m| m == mv), "{}", kind.name());
    }
}

#[test]
fn names_round_trip_and_greedy_takes_the_first_of_equal_flips() {
    for kind in Builtin::ALL {
        assert_eq!(Builtin::parse(kind.name()), Some(kind));
    }
    assert_eq!(Builtin::parse("simple"), None);
    // Every opening move flips one disc: the first in column-major order.
    let game = Othello::<Bits>::new(8, Rules::Framework).unwrap();
    assert_eq!(greedy::choose(&game, &game.start()), Some(Move { col: 2, row: 3 }));
}

/// The strong agent's scoring from Max's point of view, for plain minimax.
struct Scoring;

impl Evaluator<Othello<Bits>> for Scoring {
    type Value = i32;

    fn evaluate(&self, _: &Othello<Bits>, state: &OthelloState<Bits>, terminal: bool) -> i32 {
        let me = state.to_move();
        let value = if terminal {
            eval::terminal(state.board(), me)
        } else {
            eval::evaluate(&Squares::new(state.board().size()), state.board(), me)
        };
        if me == Player::Max {
            value
        } else {
            -value
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn the_fixed_depth_search_equals_minimax(
        size in prop::sample::select(vec![4usize, 6, 8]),
        standard in any::<bool>(),
        plies in 0usize..40,
        seed in any::<u64>(),
        depth in 1u32..5,
    ) {
        let rules = if standard { Rules::Standard } else { Rules::Framework };
        let game = Othello::<Bits>::new(size, rules).unwrap();
        let state = opening(&game, plies, seed);
        let plain = minimax(&game, &state, &Scoring, Limits::depth(depth), &mut ()).unwrap();
        let (best, value) = Engine::new(rules).search(state.board(), state.to_move(), depth);
        let sign = if state.to_move() == Player::Max { 1 } else { -1 };
        prop_assert_eq!(sign * value, plain.value);
        prop_assert_eq!(best.is_some(), plain.best.is_some());
    }

    #[test]
    fn the_endgame_solve_equals_minimax_to_the_end(
        size in prop::sample::select(vec![4usize, 6]),
        standard in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let rules = if standard { Rules::Standard } else { Rules::Framework };
        let game = Othello::<Bits>::new(size, rules).unwrap();
        let state = opening(&game, size * size - 4 - 9, seed);
        let plain = minimax(&game, &state, &Scoring, Limits::unlimited(), &mut ()).unwrap();
        let (_, value) = Engine::new(rules).search(state.board(), state.to_move(), 64);
        let sign = if state.to_move() == Player::Max { 1 } else { -1 };
        prop_assert_eq!(sign * value, plain.value);
        prop_assert_eq!(plain.value % eval::DISC, 0);
    }
}

/// Plays `from` to the end, `dark` against `light` with `per_move` each; the final disc difference for dark.
fn play(rules: Rules, dark: Builtin, light: Builtin, per_move: Duration, seed: u64) -> i32 {
    let game = Othello::<Bits>::new(8, rules).unwrap();
    let mut brains = [Brain::new(dark, rules, seed), Brain::new(light, rules, seed + 1)];
    let mut state = game.start();
    while !game.is_terminal(&state) {
        let brain = &mut brains[usize::from(state.to_move() == Player::Min)];
        let mv = brain.think(&state, Instant::now() + per_move, &mut |_, _| {}).unwrap();
        assert!(game.legal_moves(&state).any(|m| m == mv), "{mv} is not legal in\n{state}");
        state = game.apply(&state, mv);
    }
    let (d, l) = state.score();
    d as i32 - l as i32
}

#[test]
fn strong_beats_random_and_greedy_in_both_seats_under_both_rules() {
    let per_move = Duration::from_millis(30);
    for rules in RULES {
        for (opponent, games) in [(Builtin::Random, 2), (Builtin::Greedy, 1)] {
            for seed in 0..games {
                let as_dark = play(rules, Builtin::Strong, opponent, per_move, seed);
                assert!(as_dark > 0, "{rules:?}: strong (dark) vs {} ended {as_dark:+}", opponent.name());
                let as_light = play(rules, opponent, Builtin::Strong, per_move, seed);
                eprintln!(
                    "{rules:?} vs {} seed {seed}: as dark {as_dark:+}, as light {:+}",
                    opponent.name(),
                    -as_light
                );
                assert!(as_light < 0, "{rules:?}: strong (light) vs {} ended {as_light:+}", opponent.name());
            }
        }
    }
}

#[test]
fn the_bench_prints_both_positions() {
    let mut out = Vec::new();
    bench::bench(&mut out, 0.05).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("opening: depth"), "{text}");
    assert!(text.contains("nodes/s"), "{text}");
}

/// `cargo test --test it othello_agents::bench_one_second -- --ignored --nocapture` prints the strong search's speed.
#[test]
#[ignore = "a timing report, not a check"]
fn bench_one_second() {
    bench::bench(&mut std::io::stdout(), 1.0).unwrap();
    // The exact solve at the endgame threshold and two beyond it, from random 8x8 positions.
    let game = Othello::<Bits>::new(8, Rules::Standard).unwrap();
    for empties in [12, 14, 16] {
        let state = opening(&game, 60 - empties, 7);
        let start = Instant::now();
        let (best, value) = Engine::new(Rules::Standard).search(state.board(), state.to_move(), 64);
        println!("solve {empties} empties: {best:?} {value:+} in {:.3} s", start.elapsed().as_secs_f64());
    }
}
