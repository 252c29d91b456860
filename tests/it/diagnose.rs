//! Diagnosis: the mutant solver with no variant is the reference; every variant shows up on seeded positions and
//! is named when its own output is diagnosed; shrinking keeps the divergence and never grows the case.

use proptest::prelude::*;
use referee::diagnose::takestones::generate::{position, Rng, Shape};
use referee::diagnose::takestones::shrink::{shrink, size};
use referee::diagnose::takestones::{diagnose, Diagnosis, MutantSolver, Observation, Variant};
use referee::game::takestones::Position;
use referee::harness::compare::first_difference;
use referee::reference::takestones::{solve_to_string, Edition, Request};

fn reference(position: &Position, depth: u32, edition: Edition) -> Option<String> {
    let request = Request { edition, ..Request::new(position.clone(), depth) };
    solve_to_string(&request).ok().map(|(out, _)| out)
}

fn differs(a: &Option<String>, b: &Option<String>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => first_difference(a, b).is_some(),
        (None, None) => false,
        _ => true,
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn the_mutant_solver_without_variants_is_the_reference(seed in any::<u64>(), trace in any::<bool>()) {
        let edition = if trace { Edition::Trace } else { Edition::Stats };
        let (p, d) = position(&mut Rng::new(seed), &Shape { max_stones: 16, ..Shape::default() });
        prop_assert_eq!(MutantSolver::new(edition, &[]).output(&p, d), reference(&p, d, edition));
    }

    #[test]
    fn shrinking_keeps_the_divergence_and_never_grows(seed in any::<u64>(), pick in 0usize..Variant::ALL.len()) {
        let variant = Variant::ALL[pick];
        let mutant = MutantSolver::new(Edition::Stats, &[variant]);
        let diverges = |p: &Position, d: u32| differs(&mutant.output(p, d), &reference(p, d, Edition::Stats));
        let mut rng = Rng::new(seed);
        let Some((p, d)) = (0..200).map(|_| position(&mut rng, &Shape::default())).find(|(p, d)| diverges(p, *d)) else {
            return Ok(());
        };
        let (sp, sd) = shrink(&p, d, 500, |p, d| diverges(p, d));
        prop_assert!(diverges(&sp, sd));
        prop_assert!(size(&sp, sd) <= size(&p, d));
    }
}

/// Every variant changes the output of some seeded position (the generator can tell them all apart from the
/// reference), and diagnosing that output, shrunk, names the variant.
#[test]
fn every_variant_is_found_and_named() {
    for edition in [Edition::Stats, Edition::Trace] {
        for variant in Variant::ALL.into_iter().filter(|v| v.applies_to(edition)) {
            let mutant = MutantSolver::new(edition, &[variant]);
            let diverges = |p: &Position, d: u32| differs(&mutant.output(p, d), &reference(p, d, edition));
            let mut rng = Rng::new(540);
            let found = (0..2000).map(|_| position(&mut rng, &Shape::default())).find(|(p, d)| diverges(p, *d));
            let Some((p, d)) = found else { panic!("{edition:?}: no generated position shows {variant}") };
            let (sp, sd) = shrink(&p, d, 500, |p, d| diverges(p, d));
            let observations: Vec<Observation> = [(p, d), (sp, sd)]
                .into_iter()
                .filter_map(|(position, depth)| {
                    Some(Observation { printed: mutant.output(&position, depth)?, position, depth })
                })
                .collect();
            match diagnose(edition, &observations) {
                Diagnosis::Explained(sets) => {
                    assert!(sets.contains(&vec![variant]), "{edition:?} {variant}: diagnosed as {sets:?}")
                }
                other => panic!("{edition:?} {variant}: diagnosed as {other:?}"),
            }
        }
    }
}

#[test]
fn an_unknown_bug_is_said_to_be_unknown() {
    let (p, d) = (Position::new(7, vec![1, 2]).unwrap(), 2);
    let printed = "Move: 6\nValue: 0.3\nNumber of Nodes Visited: 1\nNumber of Nodes Evaluated: 1\nMax Depth Reached: 9\nAvg Effective Branching Factor: 0.1\n";
    let d = diagnose(Edition::Stats, &[Observation { position: p, depth: d, printed: printed.into() }]);
    assert_eq!(d, Diagnosis::Unknown);
    assert!(d.describe(&[]).starts_with("no known bug"));
}

/// Two bugs at once: no single variant reproduces the output, and the pair is named.
#[test]
fn two_bugs_together_are_named_as_a_pair() {
    let pair = [Variant::StrictCuts, Variant::MaxDepthFromOne];
    let mutant = MutantSolver::new(Edition::Stats, &pair);
    let single = |v: Variant| MutantSolver::new(Edition::Stats, &[v]);
    let mut rng = Rng::new(99);
    // Positions where both bugs show: the pair's output differs from each bug alone.
    let observations: Vec<Observation> = (0..400)
        .map(|_| position(&mut rng, &Shape::default()))
        .filter_map(|(p, d)| {
            let out = mutant.output(&p, d)?;
            let shows_both =
                pair.iter().all(|&v| single(v).output(&p, d).is_some_and(|o| first_difference(&o, &out).is_some()));
            shows_both.then_some(Observation { position: p, depth: d, printed: out })
        })
        .take(3)
        .collect();
    assert!(!observations.is_empty(), "no position shows both bugs");
    match diagnose(Edition::Stats, &observations) {
        Diagnosis::Explained(sets) => assert!(sets.contains(&pair.to_vec()), "{sets:?}"),
        other => panic!("{other:?}"),
    }
}
