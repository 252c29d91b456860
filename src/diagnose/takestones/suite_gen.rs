//! Generating a discriminating suite: seeded positions chosen greedily until every bug in the catalog fails at
//! least one case, then filled up with further random positions.

use super::generate::{position, Rng, Shape};
use super::mutant::MutantSolver;
use super::shrink::size;
use super::variant::{Kind, Variant};
use crate::game::takestones::Position;
use crate::harness::compare::first_difference;
use crate::harness::suite::Reading;
use crate::reference::takestones::{solve_to_string, Edition, Request};

/// A generated case: the position, the depth and the reference's output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneratedCase {
    /// The position.
    pub position: Position,
    /// The depth argument.
    pub depth: u32,
    /// The reference's output.
    pub expected: String,
}

impl GeneratedCase {
    /// The student program's arguments, `N K T1 .. TK DEPTH`.
    pub fn args(&self) -> Vec<String> {
        let mut a = self.position.to_args();
        a.push(self.depth.to_string());
        a
    }
}

/// A generated suite and which cases catch which variant.
#[derive(Clone, Debug)]
pub struct GeneratedSuite {
    /// The cases, discriminating ones first.
    pub cases: Vec<GeneratedCase>,
    /// For every variant that applies to the edition: the (0-based) cases whose output it changes.
    pub coverage: Vec<(Variant, Vec<usize>)>,
}

impl GeneratedSuite {
    /// The variants no case catches that the suite must catch: every bug, and every reading `accept` leaves out
    /// (a program printing it fails such a suite, so some case has to show it).
    pub fn uncovered(&self, accept: &[Reading]) -> Vec<Variant> {
        self.coverage.iter().filter(|(v, cases)| must_catch(*v, accept) && cases.is_empty()).map(|(v, _)| *v).collect()
    }
}

/// Whether a suite accepting `accept` must have a case that catches `variant`.
fn must_catch(variant: Variant, accept: &[Reading]) -> bool {
    variant.kind() == Kind::Bug || variant.reading().is_some_and(|r| !accept.contains(&r))
}

/// Which variants change the output of a case.
fn caught_by(edition: Edition, variants: &[Variant], case: &GeneratedCase) -> Vec<Variant> {
    variants
        .iter()
        .copied()
        .filter(|&v| {
            MutantSolver::new(edition, &[v])
                .output(&case.position, case.depth)
                .map_or(true, |out| first_difference(&case.expected, &out).is_some())
        })
        .collect()
}

/// Generates `count` cases for `edition` from `seed`, chosen first to catch every bug and every reading outside
/// `accept`.
pub fn generate_suite(edition: Edition, count: usize, seed: u64, shape: &Shape, accept: &[Reading]) -> GeneratedSuite {
    let variants: Vec<Variant> = Variant::ALL.into_iter().filter(|v| v.applies_to(edition)).collect();
    let mut rng = Rng::new(seed);
    let mut pool: Vec<(GeneratedCase, Vec<Variant>)> = Vec::new();
    let pool_size = (count * 20).max(200);
    while pool.len() < pool_size {
        let (p, d) = position(&mut rng, shape);
        if pool.iter().any(|(c, _)| c.position == p && c.depth == d) {
            continue;
        }
        let request = Request { edition, ..Request::new(p.clone(), d) };
        let Ok((expected, _)) = solve_to_string(&request) else { continue };
        let case = GeneratedCase { position: p, depth: d, expected };
        let caught = caught_by(edition, &variants, &case);
        pool.push((case, caught));
    }
    let mut chosen: Vec<usize> = Vec::new();
    let mut uncovered: Vec<Variant> = variants.iter().copied().filter(|&v| must_catch(v, accept)).collect();
    while chosen.len() < count && !uncovered.is_empty() {
        // The case that catches most still-uncaught bugs; the smallest on a tie (easier to read when it fails).
        let best = (0..pool.len()).filter(|i| !chosen.contains(i)).max_by_key(|&i| {
            let gain = pool[i].1.iter().filter(|v| uncovered.contains(v)).count();
            (gain, std::cmp::Reverse(size(&pool[i].0.position, pool[i].0.depth)))
        });
        let Some(best) = best.filter(|&i| pool[i].1.iter().any(|v| uncovered.contains(v))) else { break };
        uncovered.retain(|v| !pool[best].1.contains(v));
        chosen.push(best);
    }
    for i in 0..pool.len() {
        if chosen.len() >= count {
            break;
        }
        if !chosen.contains(&i) {
            chosen.push(i);
        }
    }
    let cases: Vec<GeneratedCase> = chosen.iter().map(|&i| pool[i].0.clone()).collect();
    let coverage = variants
        .iter()
        .map(|&v| (v, chosen.iter().enumerate().filter(|(_, &i)| pool[i].1.contains(&v)).map(|(k, _)| k).collect()))
        .collect();
    GeneratedSuite { cases, coverage }
}
