//! Properties over random legal positions (N <= 18, a random legal history, depth 0..6, both editions).
//!
//! Positions are drawn as (N, move choices, depth index): each choice picks among the legal moves of the moment,
//! so every history is legal, and proptest shrinks N, the history and the depth (index 0 is depth 1, the last is
//! 0 = unlimited) toward the smallest failing search.

use proptest::prelude::*;
use referee::game::takestones::{LargeBoard, Position, SmallBoard, Stones};
use referee::game::Game;
use referee::reference::takestones::{solve_on, CompositeCount, Edition, Request, StatsEval, TraceEval};
use referee::search::{alpha_beta, minimax, Counters, Evaluator, Limits, NodeExit, NodeKind, Observer, Value};

use crate::oracle::Oracle;

const DEPTHS: [u32; 7] = [1, 2, 3, 4, 5, 6, 0];

/// A random legal position and depth.
fn position() -> impl Strategy<Value = (Position, u32)> {
    (1u32..=18, prop::collection::vec(0usize..64, 0..18), 0usize..DEPTHS.len()).prop_map(|(n, choices, d)| {
        let board = SmallBoard::new(n).unwrap();
        let mut position = Position::new(u64::from(n), vec![]).unwrap();
        for c in choices {
            let legal: Vec<u32> = board.legal_moves(&board.root(&position)).collect();
            if legal.is_empty() {
                break;
            }
            position = position.with_move(legal[c % legal.len()]);
        }
        (position, DEPTHS[d])
    })
}

fn composite() -> impl Strategy<Value = CompositeCount> {
    prop_oneof![Just(CompositeCount::AllAvailable), Just(CompositeCount::LegalMoves)]
}

fn limits(depth: u32) -> Limits {
    if depth == 0 {
        Limits::unlimited()
    } else {
        Limits::depth(depth)
    }
}

/// Checks alpha-beta against minimax for one evaluator: same value, same move, no more nodes.
fn ab_equals_minimax<E: Evaluator<SmallBoard>>(
    position: &Position,
    depth: u32,
    eval: &E,
    window: (E::Value, E::Value),
) -> Result<(), TestCaseError> {
    let board = SmallBoard::new(position.n()).unwrap();
    let root = board.root(position);
    let (mut ab_count, mut mm_count) = (Counters::default(), Counters::default());
    let ab = alpha_beta(&board, &root, eval, limits(depth), window, &mut ab_count).unwrap();
    let mm = minimax(&board, &root, eval, limits(depth), &mut mm_count).unwrap();
    prop_assert_eq!(ab.best, mm.best);
    prop_assert!(ab.value == mm.value, "alpha-beta {:?} vs minimax {:?}", ab.value, mm.value);
    prop_assert!(ab_count.visited <= mm_count.visited);
    prop_assert!(ab_count.evaluated <= mm_count.evaluated);
    Ok(())
}

/// Every node as it returns: depth, kind, and whether it is a leaf by the definitions (no legal move, or at the
/// depth limit), recomputed from the state independently of the search's own classification.
struct Recorder<'a> {
    board: &'a SmallBoard,
    limit: Option<u32>,
    nodes: Vec<(u32, NodeKind, bool)>,
}

impl<V: Value> Observer<SmallBoard, V> for Recorder<'_> {
    fn exit(&mut self, node: &NodeExit<'_, SmallBoard, V>) {
        let leaf = self.board.legal_count(node.state) == 0 || self.limit == Some(node.depth);
        self.nodes.push((node.depth, node.kind, leaf));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn alpha_beta_equals_minimax_stats((position, depth) in position(), composite in composite()) {
        ab_equals_minimax(&position, depth, &StatsEval { composite }, (f64::NEG_INFINITY, f64::INFINITY))?;
    }

    #[test]
    fn alpha_beta_equals_minimax_trace((position, depth) in position(), composite in composite()) {
        ab_equals_minimax(&position, depth, &TraceEval { composite }, (-1000, 1000))?;
    }

    #[test]
    fn reference_equals_the_spec_literal_oracle(
        (position, depth) in position(),
        composite in composite(),
        trace in any::<bool>(),
    ) {
        let board = SmallBoard::new(position.n()).unwrap();
        let root = board.root(&position);
        let (value, best) = if trace {
            let r = alpha_beta(&board, &root, &TraceEval { composite }, limits(depth), (-1000, 1000), &mut ()).unwrap();
            (f64::from(r.value), r.best)
        } else {
            let r = alpha_beta(&board, &root, &StatsEval { composite }, limits(depth), (f64::NEG_INFINITY, f64::INFINITY), &mut ()).unwrap();
            (r.value, r.best)
        };
        let oracle = Oracle {
            n: position.n() as usize,
            trace_edition: trace,
            composite_counts_all_available: composite == CompositeCount::AllAvailable,
        };
        let (expected_value, expected_best) = oracle.solve(position.taken(), depth);
        prop_assert_eq!(best, expected_best);
        prop_assert!(value == expected_value, "reference {} vs oracle {}", value, expected_value);
    }

    /// Every byte of both editions' output against the oracle's own alpha-beta, counters and trace.
    #[test]
    fn printed_output_equals_the_oracles((position, depth) in position(), trace in any::<bool>()) {
        let edition = if trace { Edition::Trace } else { Edition::Stats };
        let request = Request { edition, ..Request::new(position.clone(), depth) };
        let oracle = Oracle { n: position.n() as usize, trace_edition: trace, composite_counts_all_available: true };
        let expected = oracle.printed(position.taken(), depth);
        let mut out = Vec::new();
        let solved = solve_on(&SmallBoard::new(position.n()).unwrap(), &request, &mut out);
        match expected {
            Some(text) => prop_assert_eq!(String::from_utf8(out).unwrap(), text),
            None => prop_assert!(solved.is_err()),
        }
    }

    #[test]
    fn stats_counters_satisfy_their_definitions((position, depth) in position()) {
        let board = SmallBoard::new(position.n()).unwrap();
        let root = board.root(&position);
        let mut counters = Counters::default();
        let mut recorder = Recorder { board: &board, limit: limits(depth).depth, nodes: vec![] };
        alpha_beta(&board, &root, &StatsEval::default(), limits(depth), (f64::NEG_INFINITY, f64::INFINITY), &mut (&mut counters, &mut recorder)).unwrap();
        let nodes = &recorder.nodes;
        prop_assert_eq!(counters.visited, nodes.len() as u64);
        prop_assert_eq!(counters.evaluated, nodes.iter().filter(|n| n.2).count() as u64);
        prop_assert_eq!(counters.max_depth, nodes.iter().map(|n| n.0).max().unwrap());
        for &(_, kind, leaf) in nodes {
            prop_assert_eq!(kind.is_leaf(), leaf);
        }
        // The root returns last, at depth 0.
        prop_assert_eq!(nodes.last().map(|n| n.0), Some(0));
        if counters.visited > counters.evaluated {
            let ebf = (counters.visited - 1) as f64 / (counters.visited - counters.evaluated) as f64;
            prop_assert_eq!(counters.effective_branching(), Some(ebf));
        }
    }

    #[test]
    fn trace_has_one_entry_per_visited_node((position, depth) in position()) {
        let board = SmallBoard::new(position.n()).unwrap();
        let request = Request { edition: Edition::Trace, ..Request::new(position.clone(), depth) };
        let mut out = Vec::new();
        let solved = solve_on(&board, &request, &mut out);
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        match solved {
            Ok(solution) => {
                let entries = lines.iter().position(|l| *l == "NEXT MOVE").unwrap();
                prop_assert_eq!(entries % 3, 0);
                prop_assert_eq!((entries / 3) as u64, solution.counters.visited);
                prop_assert_eq!(lines.len(), entries + 3);
                // Every third line is a bounds line, and the root's entry comes last.
                for chunk in lines[..entries].chunks(3) {
                    prop_assert!(chunk[2].starts_with("alpha: ") && chunk[2].contains("\tbeta: "));
                }
            }
            Err(_) => {
                // A finished game: only the root's entry.
                prop_assert_eq!(lines.len(), 3);
                prop_assert_eq!(board.legal_count(&board.root(&position)), 0);
            }
        }
    }

    #[test]
    fn small_and_large_boards_print_the_same((position, depth) in position(), trace in any::<bool>(), composite in composite()) {
        let mut request = Request::new(position.clone(), depth);
        request.edition = if trace { Edition::Trace } else { Edition::Stats };
        request.options.composite = composite;
        let (mut small, mut large) = (Vec::new(), Vec::new());
        let a = solve_on(&SmallBoard::new(position.n()).unwrap(), &request, &mut small);
        let b = solve_on(&LargeBoard::new(position.n()), &request, &mut large);
        prop_assert_eq!(String::from_utf8(small).unwrap(), String::from_utf8(large).unwrap());
        prop_assert_eq!(a.ok(), b.ok());
    }

    #[test]
    fn boards_agree_on_legal_moves_up_to_127(n in 1u32..=127, choices in prop::collection::vec(0usize..200, 0..40)) {
        let small = SmallBoard::new(n).unwrap();
        let large = LargeBoard::new(n);
        let mut position = Position::new(u64::from(n), vec![]).unwrap();
        loop {
            let (s, l) = (small.root(&position), large.root(&position));
            let moves: Vec<u32> = small.legal_moves(&s).collect();
            prop_assert_eq!(&moves, &large.legal_moves(&l).collect::<Vec<u32>>());
            prop_assert_eq!(small.available(&s), large.available(&l));
            for p in [2, 3, 5, 7, 11] {
                prop_assert_eq!(small.count_available_multiples(&s, p), large.count_available_multiples(&l, p));
                prop_assert_eq!(small.count_legal_multiples(&s, p), large.count_legal_multiples(&l, p));
            }
            let Some(&c) = choices.get(position.taken().len()) else { break };
            if moves.is_empty() {
                break;
            }
            position = position.with_move(moves[c % moves.len()]);
        }
    }
}
